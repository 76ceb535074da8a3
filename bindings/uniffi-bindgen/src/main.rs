//! `uniffi-bindgen`: generates the Kotlin and Swift sources of `alama-mobile` from the built
//! library, with the same uniffi version the library was built with:
//!
//! ```sh
//! cargo run -p uniffi-bindgen -- generate --library target/release-mobile/libalama_mobile.so \
//!     --language kotlin --out-dir bindings/mobile/out/kotlin
//! ```

fn main() {
    uniffi::uniffi_bindgen_main();
}
