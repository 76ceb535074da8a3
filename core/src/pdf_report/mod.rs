//! The shareable PDF credit report (cargo feature `pdf-report`).
//!
//! [`render`] draws a [`Report`] as an A4 document a loan officer can print or forward: the
//! score and band on a gauge, the holder (masked phone number) and statement period, a bar per
//! scorecard factor, the reason codes, the key insights with their figures, monthly money in
//! and out, the integrity findings coloured by severity, the scorecard version, the report id
//! and the generation date. Usually two pages; long lists flow onto more pages.
//!
//! The document is drawn with [krilla](https://docs.rs/krilla) (pure Rust, no system fonts):
//! text is set in `DejaVu` Sans, embedded in the crate (`core/assets/fonts`, Bitstream Vera
//! licence) and subset into each PDF, so the text can be selected, searched and extracted. The
//! same report and options always give the same bytes: the only date in the file is
//! [`RenderOptions::generated_at`], and the document id is derived from the report id.
//!
//! ```no_run
//! use alama_core::pdf_report::{RenderOptions, render};
//! let report = alama_core::score_bytes(b"...", &alama_core::ParseOptions::default())?;
//! let at = chrono::NaiveDate::from_ymd_opt(2026, 11, 24)
//!     .and_then(|d| d.and_hms_opt(9, 30, 0))
//!     .unwrap_or_default();
//! let pdf: Vec<u8> = render(&report, &RenderOptions::new(at))?;
//! std::fs::write("report.pdf", pdf)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod canvas;
mod format;
mod graphics;
mod layout;
mod palette;

use chrono::{Datelike, NaiveDateTime, Timelike};
use krilla::metadata::{DateTime, Metadata};

use crate::error::{Error, Result};
use crate::report::{Report, ReportStatus};

/// What the caller supplies besides the report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RenderOptions {
    /// When the document is generated, **UTC**. The report prints it in the time zone of the
    /// statement's wallet ([`crate::wallets::Wallet::time_zone`]), labelled: "24 Nov 2026,
    /// 09:30 EAT" for Safaricom M-Pesa Kenya and Airtel Money Uganda, "06:30 GMT" for MTN MoMo
    /// Ghana, "08:30 SAST" for Vodacom M-Pesa Lesotho, "06:30 UTC" for a wallet without a known
    /// zone; the PDF's creation date carries the same offset. Supplied by the caller (not read
    /// from the clock) so the same inputs give the same bytes.
    pub generated_at: NaiveDateTime,
    /// Who issues the document, named in the footer ("Prepared by …"); default `"Alama"`.
    pub issuer: String,
}

impl RenderOptions {
    /// Options with the given generation time and the default issuer.
    pub fn new(generated_at_utc: NaiveDateTime) -> Self {
        Self {
            generated_at: generated_at_utc,
            issuer: "Alama".to_owned(),
        }
    }

    /// Sets the issuer named in the footer.
    #[must_use]
    pub fn with_issuer(mut self, issuer: impl Into<String>) -> Self {
        self.issuer = issuer.into();
        self
    }
}

/// Renders a completed report as a PDF document (A4, PDF 1.7, fonts embedded).
///
/// Deterministic: the same `report` and `options` give the same bytes. Any report content is
/// laid out without panicking: long names are shortened with an ellipsis, long messages wrap,
/// long lists continue on further pages (at most 40 integrity findings are listed, then a
/// count; at most the latest 36 months are charted).
///
/// # Errors
/// - `ErrorKind::Malformed` when `report.status` is not `completed` (there is no score to
///   show).
/// - `ErrorKind::Io` when the PDF cannot be written (the embedded font cannot be read, which
///   only a broken build causes).
pub fn render(report: &Report, options: &RenderOptions) -> Result<Vec<u8>> {
    if report.status != ReportStatus::Completed {
        return Err(Error::malformed(
            0,
            0,
            format!(
                "only a completed report can be rendered; this one is {}",
                report.status.as_str()
            ),
        ));
    }
    let fonts = canvas::fonts()?;
    let canvas = layout::build(canvas::Canvas::new(fonts), report, options);
    canvas.finish(metadata(report, options))
}

fn metadata(report: &Report, options: &RenderOptions) -> Metadata {
    let (at, offset, _) = format::local(options.generated_at, layout::time_zone(report));
    let (hours, minutes) = (offset / 3600, (offset.abs() % 3600) / 60);
    let date = DateTime::new(u16::try_from(at.year()).unwrap_or(2000))
        .month(at.month() as u8)
        .day(at.day() as u8)
        .hour(at.hour() as u8)
        .minute(at.minute() as u8)
        .second(at.second() as u8)
        .utc_offset_hour(i8::try_from(hours).unwrap_or(0))
        .utc_offset_minute(u8::try_from(minutes).unwrap_or(0));
    let id = format::clean(&report.report_id);
    Metadata::new()
        .title(format!("Alama credit report {id}"))
        .description(format!(
            "Alama score {} ({}) for the statement period {}",
            report.score,
            report.band.as_str(),
            format::clean(&report.statement_period)
        ))
        .authors(vec![format::clean(&options.issuer)])
        .creator(format!("alama-core {}", crate::report::VERSION))
        .language("en".to_owned())
        .creation_date(date)
        .document_id(id)
}
