//! Shared helpers of the fuzz targets.

use alama_core::{Format, Limits, ParseOptions};

/// Options for parsing untrusted input of `format`: the service's limits, a password that
/// opens nothing in particular (encrypted seeds then take the wrong-password path).
pub fn options(format: Format) -> ParseOptions {
    ParseOptions {
        password: Some("12345678".to_owned()),
        format: Some(format),
        limits: Limits {
            max_bytes: 10 * 1024 * 1024,
            max_pages: 50,
            max_rows: 20_000,
            max_decompressed: 16 * 1024 * 1024,
        },
        // No day of analysis: the checks that read it are exercised by the engine's tests.
        ..ParseOptions::default()
    }
}

/// Parses `data` as `format`; a statement that parses is scored too (errors are fine, panics
/// are not: every one reaches libFuzzer's hook, which aborts: a finding).
pub fn parse_and_score(data: &[u8], format: Format) {
    if let Ok(statement) = alama_core::parse(data, &options(format)) {
        let _ = alama_core::score(&statement);
    }
}
