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
    }
}

/// Lets a panic inside `pdf-extract` unwind to the `catch_unwind` that contains it (the PDF
/// parser's general path maps it to `malformed_statement` by design: `pdf-extract` 0.12 unwraps
/// on many malformed fonts and objects); every other panic still reaches libFuzzer's hook, which
/// aborts: a finding. Installed once, after libFuzzer's own hook. (Since the engine runs
/// `pdf-extract` under its own quiet region, `alama_core`'s `contained` module, those panics no
/// longer reach this hook; the filter stays as a second guard.)
fn contain_pdf_extract_panics() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let abort = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            // `pdf-extract` and the crates only it uses (its own `lopdf` 0.42 among them).
            let contained = info.location().is_some_and(|l| {
                [
                    "/pdf-extract-",
                    "/lopdf-0.42.",
                    "/type1-encoding-parser-",
                    "/cff-parser-",
                    "/postscript-",
                ]
                .iter()
                .any(|c| l.file().contains(c))
            });
            if !contained {
                abort(info);
            }
        }));
    });
}

/// Parses `data` as `format`; a statement that parses is scored too (errors are fine, panics
/// are not, except `pdf-extract`'s, which the parser contains).
pub fn parse_and_score(data: &[u8], format: Format) {
    contain_pdf_extract_panics();
    if let Ok(statement) = alama_core::parse(data, &options(format)) {
        let _ = alama_core::score(&statement);
    }
}
