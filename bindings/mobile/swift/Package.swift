// swift-tools-version:5.9
// SwiftPM package of the Alama engine for iOS (and macOS, for `swift test` on a Mac).
//
// Build the binary target and the generated sources first (on a Mac with Xcode and rustup):
//   bash bindings/mobile/swift/build-xcframework.sh
// which writes AlamaFFI.xcframework and Sources/Alama/Alama.swift next to this file.
// NOT compiled or tested on the project's Linux CI: there is no Swift toolchain there.
import PackageDescription

let package = Package(
    name: "Alama",
    platforms: [.iOS(.v13), .macOS(.v11)],
    products: [
        .library(name: "Alama", targets: ["Alama"]),
    ],
    targets: [
        // The Rust library (static, one slice per platform) and its C header + module map.
        .binaryTarget(name: "AlamaFFI", path: "AlamaFFI.xcframework"),
        // The UniFFI-generated Swift API (Sources/Alama/Alama.swift, generated, not committed).
        .target(name: "Alama", dependencies: ["AlamaFFI"], path: "Sources/Alama"),
        .testTarget(name: "AlamaTests", dependencies: ["Alama"], path: "Tests/AlamaTests"),
    ]
)
