//! The `--format text` rendering of a report: score, band, a bar per factor, top insights and
//! integrity warnings, in plain text that fits 80 columns.

use std::fmt::Write;

use alama_core::{Report, Severity};

const BAR: usize = 30;

/// Renders a report for a person.
pub fn render(report: &Report) -> String {
    let mut out = String::new();
    let s = &report.statement;
    let _ = writeln!(out, "Alama credit report {}", report.report_id);
    let _ = writeln!(
        out,
        "Statement: {} ({} to {}), {} transactions, currency {}",
        report.statement_period, s.period_start, s.period_end, s.transaction_count, s.currency
    );
    // Another wallet than Safaricom M-Pesa is named (a Kenyan report's text is unchanged).
    if s.provider != alama_core::Provider::DEFAULT_ID {
        let name = alama_core::wallets::find(&s.provider)
            .map_or_else(|| s.provider.clone(), |w| w.name.to_owned());
        let _ = writeln!(out, "Wallet: {name}");
    }
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "  SCORE {}  ({})   range 300-850, scorecard {}",
        report.score,
        report.band.as_str(),
        report.scorecard_version
    );
    let _ = writeln!(out);
    let _ = writeln!(out, "Factors (points earned of max)");
    for f in &report.factors {
        let filled = if f.max == 0 {
            0
        } else {
            usize::from(f.score) * BAR / usize::from(f.max)
        };
        let _ = writeln!(
            out,
            "  {:<26} [{}{}] {:>3}/{:<3}",
            f.name,
            "#".repeat(filled),
            ".".repeat(BAR - filled),
            f.score,
            f.max
        );
    }
    if !report.reason_codes.is_empty() {
        let _ = writeln!(out);
        let _ = writeln!(out, "Reason codes (largest loss first)");
        for r in report.reason_codes.iter().take(4) {
            let _ = writeln!(out, "  {} -{:<3} {}", r.code, r.points_lost, r.description);
        }
    }
    if !report.insights.is_empty() {
        let _ = writeln!(out);
        let _ = writeln!(out, "Insights");
        for i in report.insights.iter().take(6) {
            let _ = writeln!(out, "  - {}", i.message);
        }
    }
    let _ = writeln!(out);
    let _ = writeln!(out, "Integrity: {}", report.integrity.status);
    for f in &report.integrity.findings {
        let tag = match f.severity {
            Severity::Critical => "CRITICAL",
            Severity::Warning => "warning",
            Severity::Info => "info",
        };
        let _ = writeln!(out, "  [{tag}] {}", f.message);
    }
    out
}
