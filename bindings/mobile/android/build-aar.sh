#!/usr/bin/env bash
# Builds the Android library of Alama: libalama_mobile.so for arm64-v8a, armeabi-v7a and x86_64
# with cargo-ndk, the generated Kotlin API (package ke.alama), both dropped into the Gradle module
# alama/ (src/main/jniLibs/<abi>/ and src/main/kotlin/), then the AAR when Gradle is available.
#
#   bash bindings/mobile/android/build-aar.sh      # from anywhere in the repo
#
# Needs the Android NDK (ANDROID_NDK_HOME, r27 or newer), rustup, cargo-ndk (installed here if
# missing) and, for the AAR, Gradle 8.x with the Android SDK (ANDROID_HOME). Documented and
# scripted, but NOT run on the project's Linux CI (no Android SDK/NDK there); CI tests the same
# Kotlin API on the JVM against the Linux .so.
# Environment: ANDROID_MIN_SDK (default 24), SKIP_GRADLE=1 to stop after the jniLibs + sources.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../../.." && pwd)"
cd "$ROOT"
TARGET="${CARGO_TARGET_DIR:-$ROOT/target}"
PROFILE=release-mobile
MODULE="$HERE/alama/src/main"
MIN_SDK="${ANDROID_MIN_SDK:-24}"

: "${ANDROID_NDK_HOME:?set ANDROID_NDK_HOME to the Android NDK (r27 or newer)}"
command -v cargo-ndk >/dev/null || cargo install cargo-ndk --locked
rustup target add aarch64-linux-android armv7-linux-androideabi x86_64-linux-android

# Google Play requires 16 KB page alignment for 64-bit native libraries (Android 15+).
export CARGO_TARGET_AARCH64_LINUX_ANDROID_RUSTFLAGS="-C link-arg=-Wl,-z,max-page-size=16384"
export CARGO_TARGET_X86_64_LINUX_ANDROID_RUSTFLAGS="-C link-arg=-Wl,-z,max-page-size=16384"

cargo ndk -t arm64-v8a -t armeabi-v7a -t x86_64 -P "$MIN_SDK" \
  build -p alama-mobile --profile "$PROFILE"

# Copy each ABI's stripped library into the module (done here rather than with cargo-ndk's -o,
# which not every cargo-ndk version resolves for a custom profile).
for pair in arm64-v8a:aarch64-linux-android armeabi-v7a:armv7-linux-androideabi x86_64:x86_64-linux-android; do
  abi="${pair%%:*}"; triple="${pair#*:}"
  mkdir -p "$MODULE/jniLibs/$abi"
  cp "$TARGET/$triple/$PROFILE/libalama_mobile.so" "$MODULE/jniLibs/$abi/"
  echo "$abi: $(wc -c < "$MODULE/jniLibs/$abi/libalama_mobile.so") bytes"
done

# The Kotlin API, from the unstripped host build (uniffi-bindgen reads the library's metadata
# symbols, which the stripped release-mobile libraries no longer carry; the API is the same).
cargo build -p alama-mobile -p uniffi-bindgen
HOST_LIB="$TARGET/debug/libalama_mobile.so"
[ -f "$HOST_LIB" ] || HOST_LIB="$TARGET/debug/libalama_mobile.dylib"
rm -rf "$MODULE/kotlin/ke"
"$TARGET/debug/uniffi-bindgen" generate --library "$HOST_LIB" --language kotlin --out-dir "$MODULE/kotlin"

if [ "${SKIP_GRADLE:-0}" = 1 ]; then
  echo "jniLibs and Kotlin sources are in $MODULE; build the AAR with: (cd $HERE && gradle :alama:assembleRelease)"
  exit 0
fi
GRADLE="${GRADLE:-gradle}"
command -v "$GRADLE" >/dev/null || { echo "Gradle not found: install Gradle 8.x or set GRADLE=/path/to/gradlew" >&2; exit 1; }
(cd "$HERE" && "$GRADLE" :alama:assembleRelease)
echo "wrote $HERE/alama/build/outputs/aar/alama-release.aar"
