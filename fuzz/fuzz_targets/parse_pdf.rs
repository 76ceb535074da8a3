//! The PDF parser (then the scorer) on arbitrary bytes.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    alama_fuzz::parse_and_score(data, alama_core::Format::Pdf);
});
