//! Safety limits for untrusted input ([`Limits`]), checked before the work they bound by every
//! reader of the engine.

/// Safety limits for untrusted input. The defaults suit a partner upload.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Largest input, bytes. Default 32 MiB (a 117-page M-Pesa PDF is about 0.5 MiB).
    pub max_bytes: u64,
    /// Most PDF pages. Default 2,000.
    pub max_pages: u32,
    /// Most transaction rows. Default 500,000.
    pub max_rows: u32,
    /// Most bytes one PDF content stream (or one spreadsheet part) may decompress to.
    /// Default 64 MiB.
    pub max_decompressed: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_bytes: 32 * 1024 * 1024,
            max_pages: 2_000,
            max_rows: 500_000,
            max_decompressed: 64 * 1024 * 1024,
        }
    }
}

/// The longest statement the engine scores: 3,660 days (ten years) from the first to the last
/// row, or across the header period. Safaricom's full statements cover at most a few years (the
/// longest in our samples: 26 months); the features are computed per day, so a two-row file
/// whose rows are centuries apart would otherwise cost hundreds of megabytes.
pub const MAX_PERIOD_DAYS: u64 = 3_660;
