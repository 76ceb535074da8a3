#!/usr/bin/env bash
# CI of the mobile bindings (issue 5), from the repository root on a fresh Linux machine:
#   bash bindings/mobile/ci.sh
#
# 1. builds libalama_mobile.so with the size-tuned `release-mobile` profile and runs the crate's
#    Rust tests;
# 2. generates the Kotlin AND the Swift sources from the built library with the in-workspace
#    uniffi-bindgen (a broken Swift generation fails here; Swift cannot be compiled on Linux);
# 3. installs what the Kotlin tests need when missing: kotlinc from npm (`npm ci`, pinned by
#    bindings/mobile/kotlin/package-lock.json), JNA from Debian (`libjna-java`), a Java runtime;
# 4. builds the `alama` CLI (release) unless ALAMA_CLI names one, for the JSON-equality checks;
# 5. compiles and runs the Kotlin tests on the JVM against the real .so
#    (closing line "N passed, N failed, N skipped"; exit 1 on any failure).
#
# Environment: CARGO_TARGET_DIR (default ./target), ALAMA_CLI, ALAMA_SAMPLES (default
# ../shared/samples/real; the real-statement checks are skipped when it is absent).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
MOBILE="$ROOT/bindings/mobile"
TARGET="${CARGO_TARGET_DIR:-$ROOT/target}"
OUT="$MOBILE/out"            # generated sources and the test jar (git-ignored)
# MOBILE_PROFILE=dev tests the dev build instead of the size-tuned one (scripts/test-all.sh: CI time).
PROFILE="${MOBILE_PROFILE:-release-mobile}"
if [ "$PROFILE" = dev ]; then LIB="$TARGET/debug/libalama_mobile.so"; else LIB="$TARGET/$PROFILE/libalama_mobile.so"; fi

step() { printf '\n== mobile: %s\n' "$*"; }

step "build libalama_mobile.so (profile $PROFILE) and run the crate's Rust tests"
cargo build -p alama-mobile --profile "$PROFILE"
cargo test -p alama-mobile
ls -l "$LIB"
echo "size: $(stat -c %s "$LIB") bytes"

step "generate Kotlin and Swift with the workspace's uniffi-bindgen"
# uniffi-bindgen reads the API from the library's UNIFFI_META_* symbols, which `strip = true`
# removes from the release-mobile .so: generate from the unstripped dev build of the same source
# (same metadata, same API checksums) and test and ship the stripped one.
cargo build -p alama-mobile -p uniffi-bindgen
META_LIB="$TARGET/debug/libalama_mobile.so"
BINDGEN="$TARGET/debug/uniffi-bindgen"
rm -rf "$OUT/kotlin" "$OUT/swift"
"$BINDGEN" generate --library "$META_LIB" --language kotlin --out-dir "$OUT/kotlin" --no-format
"$BINDGEN" generate --library "$META_LIB" --language swift --out-dir "$OUT/swift" --no-format
for f in "$OUT/kotlin/ke/alama/alama.kt" "$OUT/swift/Alama.swift" "$OUT/swift/AlamaFFI.h" \
         "$OUT/swift/AlamaFFI.modulemap"; do
  [ -s "$f" ] || { echo "generation did not write $f" >&2; exit 1; }
done
grep -q 'public func scoreStatement(' "$OUT/swift/Alama.swift" \
  || { echo "Swift bindings lack scoreStatement" >&2; exit 1; }

step "install the Kotlin test toolchain where missing"
apt_install() {
  local sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get install -y "$@" || { $sudo apt-get update && $sudo apt-get install -y "$@"; }
}
JNA=/usr/share/java/jna.jar
[ -f "$JNA" ] || apt_install libjna-java
command -v java >/dev/null || apt_install openjdk-17-jre-headless
(cd "$MOBILE/kotlin" && npm ci --no-audit --no-fund)
KLIB="$MOBILE/kotlin/node_modules/kotlin-compiler/lib"
KOTLINC="$MOBILE/kotlin/node_modules/kotlin-compiler/bin/kotlinc"

if [ -z "${ALAMA_CLI:-}" ]; then
  step "build the alama CLI (release) for the JSON-equality checks"
  cargo build -p alama --release
  export ALAMA_CLI="$TARGET/release/alama"
fi

step "compile the Kotlin tests"
CP="$JNA:$KLIB/kotlinx-coroutines-core-jvm.jar"
"$KOTLINC" -nowarn "$OUT/kotlin/ke/alama/alama.kt" "$MOBILE/kotlin/src/AlamaTest.kt" \
  -cp "$CP" -d "$OUT/alama-tests.jar"

step "run the Kotlin tests on the JVM against $LIB"
java -Djna.library.path="$(dirname "$LIB")" \
  -cp "$OUT/alama-tests.jar:$CP:$KLIB/kotlin-stdlib.jar" \
  ke.alama.test.AlamaTestKt "$ROOT"
