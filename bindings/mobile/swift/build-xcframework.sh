#!/usr/bin/env bash
# Builds the iOS package of Alama: static libraries for iOS devices (aarch64-apple-ios), the iOS
# simulator (aarch64-apple-ios-sim + x86_64-apple-ios, merged with lipo) and macOS (for
# `swift test` on a Mac), wrapped in AlamaFFI.xcframework with the C header and module map, plus
# the generated Swift API in Sources/Alama/Alama.swift. SwiftPM then builds Package.swift here.
#
#   bash bindings/mobile/swift/build-xcframework.sh          # from anywhere in the repo
#
# Needs macOS with Xcode (xcodebuild, lipo) and rustup. Documented and scripted, but NOT run on
# the project's Linux CI (no Apple toolchain there); CI only checks that Swift generation works.
# Environment: IPHONEOS_DEPLOYMENT_TARGET (default 13.0), MACOSX_DEPLOYMENT_TARGET (default 11.0),
# SKIP_MACOS=1 to build the iOS slices only.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../../.." && pwd)"
cd "$ROOT"
TARGET="${CARGO_TARGET_DIR:-$ROOT/target}"
PROFILE=release-mobile
LIB=libalama_mobile.a
WORK="$TARGET/alama-xcframework"
export IPHONEOS_DEPLOYMENT_TARGET="${IPHONEOS_DEPLOYMENT_TARGET:-13.0}"
export MACOSX_DEPLOYMENT_TARGET="${MACOSX_DEPLOYMENT_TARGET:-11.0}"

IOS=aarch64-apple-ios
SIM=(aarch64-apple-ios-sim x86_64-apple-ios)
MAC=(aarch64-apple-darwin x86_64-apple-darwin)
TRIPLES=("$IOS" "${SIM[@]}")
[ "${SKIP_MACOS:-0}" = 1 ] || TRIPLES+=("${MAC[@]}")

rustup target add "${TRIPLES[@]}"
for t in "${TRIPLES[@]}"; do
  cargo build -p alama-mobile --profile "$PROFILE" --target "$t"
done

# Swift sources + C header from the unstripped host build (uniffi-bindgen reads the API from the
# library's metadata symbols, which the stripped release-mobile artefacts no longer carry).
cargo build -p alama-mobile -p uniffi-bindgen
HOST_LIB="$TARGET/debug/libalama_mobile.dylib"
[ -f "$HOST_LIB" ] || HOST_LIB="$TARGET/debug/libalama_mobile.so"
rm -rf "$WORK" && mkdir -p "$WORK/gen" "$WORK/headers"
"$TARGET/debug/uniffi-bindgen" generate --library "$HOST_LIB" --language swift --out-dir "$WORK/gen"
cp "$WORK/gen/AlamaFFI.h" "$WORK/headers/"
# An XCFramework's headers folder needs the module map under this exact name.
cp "$WORK/gen/AlamaFFI.modulemap" "$WORK/headers/module.modulemap"
cp "$WORK/gen/Alama.swift" "$HERE/Sources/Alama/Alama.swift"

# One library per platform: fat (lipo) where a platform has two architectures.
mkdir -p "$WORK/ios-sim" "$WORK/macos"
# (plain loops, not mapfile: macOS ships bash 3.2)
SIM_LIBS=(); for t in "${SIM[@]}"; do SIM_LIBS+=("$TARGET/$t/$PROFILE/$LIB"); done
lipo -create "${SIM_LIBS[@]}" -output "$WORK/ios-sim/$LIB"
ARGS=(-library "$TARGET/$IOS/$PROFILE/$LIB" -headers "$WORK/headers"
      -library "$WORK/ios-sim/$LIB" -headers "$WORK/headers")
if [ "${SKIP_MACOS:-0}" != 1 ]; then
  MAC_LIBS=(); for t in "${MAC[@]}"; do MAC_LIBS+=("$TARGET/$t/$PROFILE/$LIB"); done
  lipo -create "${MAC_LIBS[@]}" -output "$WORK/macos/$LIB"
  ARGS+=(-library "$WORK/macos/$LIB" -headers "$WORK/headers")
fi

rm -rf "$HERE/AlamaFFI.xcframework"
xcodebuild -create-xcframework "${ARGS[@]}" -output "$HERE/AlamaFFI.xcframework"
echo "wrote $HERE/AlamaFFI.xcframework and $HERE/Sources/Alama/Alama.swift"
echo "next: cd bindings/mobile/swift && swift build   (or add the package in Xcode)"
