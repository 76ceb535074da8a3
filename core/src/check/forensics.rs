//! Forensics of the PDF file: who wrote it, whether it was appended to, whether its pages,
//! fonts and footer are its wallet's own, against the writer the wallet's profile declares
//! (`crate::wallets::PdfWriter`).
//!
//! Evidence measured on the genuine samples (see docs/integrity.md):
//! - each wallet's writers name themselves in `/Producer` (and `/Creator`): Safaricom's are
//!   iText 5 (binary marker `e2e3cfd3`) and `OpenPDF` 1.3 (marker `f6e4fcdf`, the bytes of
//!   "öäüß"), encrypted; the other wallets' are listed in their profiles, with the layout
//!   of their files (`PdfBuild`: Airtel's Qt 4.8 writes `/Info` first, dictionaries with line
//!   breaks, no `/ID`; Vodacom's iText 2.1.7 its marker `e2e3cfd3`, `/Info` last, an `/ID`;
//!   neither writes objects in number order, as rewriting libraries do). Each writes one
//!   classic cross-reference table and one `%%EOF`.
//! - Airtel's Qt places every glyph with its own `Td` and shows it alone: a string of several
//!   glyphs in its two-byte fonts is another program's text (`off_grid_text`).
//! - Tools that decrypt or re-save (iLovePDF, 3-Heights) put their own name in `/Producer`:
//!   a fact (the copy is `pdf_resaved`), not evidence of editing.
//! - A file that still names its wallet's writer but is built by another program (another
//!   marker, cross-reference streams, `endstream` not followed by a newline) was rewritten by
//!   a tool that kept the old `/Producer`: that is what editing libraries do, so it is a
//!   warning. (`qpdf --decrypt` does the same to a genuine file: such a copy gets the warning
//!   too; ask for the original.)
//!
//! (Over 400 lines: one check of a file against its declared writer, then its tests on
//! hand-made document information.)

use chrono::NaiveDateTime;

use super::finding;
use crate::report::{EvidenceLevel, Finding, Severity};
use crate::statement::{DocumentInfo, PageLine, PdfStructure};
use crate::wallets::{PdfWriter, Wallet, Writer};

/// Checks the document against `wallet`'s writer and returns its evidence level
/// (`PdfOriginal` or `PdfResaved`). A wallet that declares no PDF writer cannot vouch for
/// any PDF: its files are `PdfResaved`.
pub(super) fn check(
    wallet: &Wallet,
    doc: &DocumentInfo,
    findings: &mut Vec<Finding>,
) -> EvidenceLevel {
    pages(doc, findings);
    let Some(profile) = wallet.profile.pdf.as_ref() else {
        return EvidenceLevel::PdfResaved;
    };
    let mut original = true;
    let producer = doc.producer.as_deref().unwrap_or("").to_ascii_lowercase();
    let creator = doc.creator.as_deref().unwrap_or("").to_ascii_lowercase();
    let writer = profile
        .writers
        .iter()
        .find(|w| producer.starts_with(w.producer) && creator.starts_with(w.creator));
    if writer.is_none() {
        original = false;
        findings.push(finding(
            "non_wallet_producer",
            Severity::Info,
            format!(
                "the PDF was produced by {:?}, not by {}'s statement service: this copy was \
                 re-saved after issue",
                doc.producer.as_deref().unwrap_or("an unnamed program"),
                wallet.operator
            ),
        ));
    }
    if let Some(s) = &doc.structure
        && !structure(
            wallet,
            profile,
            s,
            (writer, doc.producer.as_deref().unwrap_or("")),
            findings,
        )
    {
        original = false;
    }
    if let (Some(c), Some(m)) = (
        doc.created.as_deref().and_then(pdf_date),
        doc.modified.as_deref().and_then(pdf_date),
    ) && (m - c).num_seconds() > profile.modified_grace_seconds
    {
        original = false;
        findings.push(finding(
            "modified_after_creation",
            Severity::Info,
            format!(
                "the PDF was modified {} after it was created ({c} → {m}): it was re-saved after issue",
                human_duration(m - c)
            ),
        ));
    }
    if profile.encrypted && !doc.encrypted {
        original = false;
        findings.push(finding(
            "not_encrypted",
            Severity::Info,
            format!(
                "the PDF is not password-protected; {} sends statements encrypted, so this copy \
                 was decrypted or re-saved",
                wallet.operator
            ),
        ));
    }
    if original {
        EvidenceLevel::PdfOriginal
    } else {
        EvidenceLevel::PdfResaved
    }
}

/// The checks on how the file is built; returns whether it looks as the wallet's writer made
/// it.
fn structure(
    wallet: &Wallet,
    profile: &PdfWriter,
    s: &PdfStructure,
    (writer, producer): (Option<&Writer>, &str),
    findings: &mut Vec<Finding>,
) -> bool {
    let mut original = true;
    if s.eof_markers > 1 || s.xref_sections > 1 {
        original = false;
        findings.push(finding(
            "incremental_update",
            Severity::Warning,
            format!(
                "the file was saved {} times ({} cross-reference sections): content was \
                     appended after it was written",
                s.eof_markers.max(1),
                s.xref_sections
            ),
        ));
    }
    if let Some(w) = writer {
        let differences = unlike_writer(w, s);
        if !differences.is_empty() {
            original = false;
            findings.push(finding(
                "disguised_resave",
                Severity::Warning,
                format!(
                    "the PDF names {:?} as its producer but was not written by it ({}): \
                     another program rewrote or re-drew it and kept {}'s producer",
                    producer,
                    differences.join(", "),
                    wallet.operator
                ),
            ));
        }
        if let Some(what) = placed_otherwise(w, s) {
            original = false;
            findings.push(finding(
                "off_grid_text",
                Severity::Warning,
                format!(
                    "{what}, where {}'s writer places every glyph on its own, by the previous \
                     glyph's advance, and numbers a font's glyphs as it first draws them: text \
                     was written into the page by another program",
                    wallet.operator
                ),
            ));
        }
        // Only where nothing else says the file is another program's (a re-drawing places
        // text by its own rounding), and where no amount is a glyph's width off already.
        if original
            && s.off_grid.is_empty()
            && let Some(moved) = off_rounding(wallet, w, s)
        {
            original = false;
            findings.push(moved);
        }
    }
    let foreign: Vec<String> = if profile.fonts.is_empty() {
        Vec::new()
    } else {
        s.fonts
            .iter()
            .filter(|f| !profile.fonts.iter().any(|k| f.name.starts_with(k)))
            .map(|f| format!("{} (pages {})", f.name, pages_list(&f.pages)))
            .collect()
    };
    if !foreign.is_empty() {
        findings.push(finding(
            "foreign_font",
            Severity::Warning,
            format!(
                "text is drawn in fonts {}'s statements do not use: {}",
                wallet.operator,
                foreign.join(", ")
            ),
        ));
    }
    if !s.off_grid.is_empty() {
        findings.push(finding(
            "off_grid_text",
            Severity::Warning,
            format!(
                "{} amount(s) are off their column's alignment (the table's right edge, the \
                 SUMMARY's centre), where {} aligns every amount: {}",
                s.off_grid.len(),
                wallet.operator,
                lines_list(&s.off_grid)
            ),
        ));
    }
    if !s.odd_size_pages.is_empty() {
        findings.push(finding(
            "odd_page_size",
            Severity::Warning,
            format!(
                "page(s) {} differ in size from page 1: pages were replaced or inserted",
                pages_list(&s.odd_size_pages)
            ),
        ));
    }
    original
}

/// The `off_grid_text` warning for amounts that start or end where writer `w` cannot put them
/// (`PdfStructure::off_rounding`), where it rounds its starts so (`Writer::starts_to_hundredths`).
fn off_rounding(wallet: &Wallet, w: &Writer, s: &PdfStructure) -> Option<Finding> {
    (w.starts_to_hundredths && !s.off_rounding.is_empty()).then(|| {
        finding(
            "off_grid_text",
            Severity::Warning,
            format!(
                "{} amount(s) start off a hundredth of a point or end 0.01 pt or more from \
                 the other amounts of their column ({}), where {}'s writer starts every amount \
                 at its column's edge less its width (centred in the SUMMARY), rounded to \
                 0.01 pt, so that they all start on a hundredth and end within 0.01 pt: an \
                 amount was moved by another program",
                s.off_rounding.len(),
                lines_list(&s.off_rounding),
                wallet.operator
            ),
        )
    })
}

/// The first five of `lines` as `page 3 line 12, …`.
fn lines_list(lines: &[PageLine]) -> String {
    let at: Vec<String> = lines
        .iter()
        .take(5)
        .map(|p| format!("page {} line {}", p.page, p.line))
        .collect();
    format!(
        "{}{}",
        at.join(", "),
        if lines.len() > 5 { ", …" } else { "" }
    )
}

/// How the file `s` differs from what writer `w` writes: its marker and stream style (when the
/// writer declares a marker) and its layout (when the writer's is measured), one phrase each.
fn unlike_writer(w: &Writer, s: &PdfStructure) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(marker) = w.marker {
        if s.binary_marker.as_deref() != Some(marker) {
            out.push(format!(
                "file marker {}",
                s.binary_marker.as_deref().unwrap_or("none")
            ));
        }
        if s.xref_streams {
            out.push("cross-reference streams".to_owned());
        }
        if s.loose_stream_ends > 0 {
            out.push(format!(
                "{} stream end(s) in another style",
                s.loose_stream_ends
            ));
        }
    }
    if let (Some(want), Some(got)) = (w.build, s.build) {
        // (expected, found, the fact as found when true, as found when false)
        let facts = [
            (
                want.info_first,
                got.info_first,
                "document information first",
                "document information not first",
            ),
            (
                want.objects_in_number_order,
                got.objects_in_number_order,
                "objects in number order",
                "objects out of number order",
            ),
            (
                want.tight_dictionaries,
                got.tight_dictionaries,
                "dictionaries without line breaks",
                "dictionaries with line breaks",
            ),
            (
                want.trailer_id,
                got.trailer_id,
                "a file identifier",
                "no file identifier",
            ),
            (
                want.utf16_info,
                got.utf16_info,
                "producer in UTF-16",
                "producer not in UTF-16",
            ),
        ];
        for (want, got, yes, no) in facts {
            if want != got {
                out.push((if got { yes } else { no }).to_owned());
            }
        }
    }
    out
}

fn pages(doc: &DocumentInfo, findings: &mut Vec<Finding>) {
    match doc.declared_pages {
        Some(declared) if declared > doc.pages => findings.push(finding(
            "missing_pages",
            Severity::Critical,
            format!(
                "the footer numbers {declared} pages but the file has {}: the statement is truncated",
                doc.pages
            ),
        )),
        Some(declared) if declared < doc.pages => findings.push(finding(
            "extra_pages",
            Severity::Critical,
            format!(
                "the footer numbers {declared} pages but the file has {}: pages were inserted",
                doc.pages
            ),
        )),
        _ => {}
    }
}

fn pages_list(pages: &[u32]) -> String {
    let mut shown: Vec<String> = pages.iter().take(5).map(u32::to_string).collect();
    if pages.len() > 5 {
        shown.push(format!("… {} in all", pages.len()));
    }
    shown.join(", ")
}

/// Reads a PDF date (`D:YYYYMMDDHHmmSS+03'00'`) as local time, ignoring the offset (both dates
/// of one file carry the same one).
fn pdf_date(date: &str) -> Option<NaiveDateTime> {
    let digits: String = date.chars().filter(char::is_ascii_digit).take(14).collect();
    NaiveDateTime::parse_from_str(&digits, "%Y%m%d%H%M%S").ok()
}

fn human_duration(d: chrono::Duration) -> String {
    match d.num_minutes() {
        m if m < 120 => format!("{m} minutes"),
        m if m < 48 * 60 => format!("{} hours", m / 60),
        m => format!("{} days", m / (24 * 60)),
    }
}

/// What of the pages' text the writer `w` did not draw, where it places every glyph alone
/// (Qt 4.8, [`Writer::one_glyph_per_string`]): the strings of several glyphs and the placements
/// it does not make ([`PdfStructure::placed_otherwise`]); and where it numbers its fonts'
/// glyphs as it first draws them ([`Writer::glyphs_by_first_use`]), the glyphs numbered
/// otherwise ([`PdfStructure::glyphs_numbered_otherwise`]); in words, `None` when there are none.
fn placed_otherwise(w: &Writer, s: &PdfStructure) -> Option<String> {
    let (joined, otherwise) = if w.one_glyph_per_string {
        (s.joined_glyph_strings, s.placed_otherwise)
    } else {
        (0, 0)
    };
    let numbered = if w.glyphs_by_first_use {
        s.glyphs_numbered_otherwise
    } else {
        0
    };
    let mut parts = Vec::new();
    if joined > 0 {
        parts.push(format!(
            "{joined} text string(s) draw several glyphs at once"
        ));
    }
    if otherwise > 0 {
        parts.push(format!(
            "{otherwise} glyph(s) are placed by a move or an operator Qt does not write (off \
             its 64ths of a unit, unlike the glyph's other copies, or spacing operators)"
        ));
    }
    if numbered > 0 {
        parts.push(format!(
            "{numbered} glyph(s) of its fonts are numbered otherwise than in the order the \
             pages first draw them (drawn before their first use, or no longer drawn at all)"
        ));
    }
    (!parts.is_empty()).then(|| parts.join(" and "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(created: &str, modified: &str, producer: &str) -> DocumentInfo {
        DocumentInfo {
            pages: 2,
            encrypted: true,
            producer: Some(producer.to_owned()),
            created: Some(created.to_owned()),
            modified: Some(modified.to_owned()),
            structure: Some(PdfStructure {
                eof_markers: 1,
                xref_sections: 1,
                binary_marker: Some("f6e4fcdf".to_owned()),
                ..PdfStructure::default()
            }),
            ..DocumentInfo::default()
        }
    }

    fn safaricom() -> &'static Wallet {
        crate::wallets::find("mpesa").expect("registered")
    }

    fn run(doc: &DocumentInfo) -> (EvidenceLevel, Vec<String>) {
        let mut findings = Vec::new();
        let level = check(safaricom(), doc, &mut findings);
        (level, findings.into_iter().map(|f| f.code).collect())
    }

    #[test]
    fn encryption_pass_seconds_later_is_original() {
        let d = doc(
            "D:20240523152429+03'00'",
            "D:20240523152435+03'00'",
            "OpenPDF 1.3.26",
        );
        assert_eq!(run(&d), (EvidenceLevel::PdfOriginal, Vec::new()));
    }

    #[test]
    fn a_later_save_by_another_producer_is_a_resave_not_an_edit() {
        let d = doc(
            "D:20240523152429+03'00'",
            "D:20240601090000+03'00'",
            "iLovePDF",
        );
        assert_eq!(
            run(&d),
            (
                EvidenceLevel::PdfResaved,
                vec![
                    "non_wallet_producer".to_owned(),
                    "modified_after_creation".to_owned()
                ]
            )
        );
    }

    #[test]
    fn a_rewrite_that_keeps_safaricoms_producer_is_a_warning() {
        let mut d = doc("D:20240523152429", "D:20240523152429", "OpenPDF 1.3.26");
        if let Some(s) = d.structure.as_mut() {
            s.binary_marker = Some("bff7a2fe".to_owned());
            s.eof_markers = 2;
            s.xref_sections = 2;
        }
        let (level, codes) = run(&d);
        assert_eq!(level, EvidenceLevel::PdfResaved);
        assert_eq!(codes, ["incremental_update", "disguised_resave"]);
    }

    #[test]
    fn an_amount_ending_off_the_writers_rounding_is_evidence_only_on_the_writers_file() {
        let lines = vec![PageLine { page: 4, line: 17 }];
        let mut d = doc("D:20240523152429", "D:20240523152429", "OpenPDF 1.3.26");
        if let Some(s) = d.structure.as_mut() {
            s.off_rounding.clone_from(&lines);
        }
        let mut findings = Vec::new();
        assert_eq!(
            check(safaricom(), &d, &mut findings),
            EvidenceLevel::PdfResaved
        );
        assert_eq!(findings.len(), 1);
        assert_eq!(findings[0].code, "off_grid_text");
        assert_eq!(findings[0].severity, Severity::Warning);
        assert!(findings[0].message.contains("page 4 line 17"));
        // Re-drawn by another program, which rounds by its own rules: a fact about the copy,
        // not evidence of an edit.
        let mut redrawn = doc("D:20240523152429", "D:20240523152429", "GPL Ghostscript");
        if let Some(s) = redrawn.structure.as_mut() {
            s.off_rounding = lines;
        }
        assert_eq!(
            run(&redrawn),
            (
                EvidenceLevel::PdfResaved,
                vec!["non_wallet_producer".to_owned()]
            )
        );
    }

    #[test]
    fn missing_and_extra_pages_are_critical() {
        let mut d = doc("D:20210928170258", "D:20210928170258", "iText 5.1.0");
        d.declared_pages = Some(21);
        d.pages = 20;
        let mut findings = Vec::new();
        check(safaricom(), &d, &mut findings);
        assert_eq!(findings[0].code, "missing_pages");
        assert_eq!(findings[0].severity, Severity::Critical);
        d.declared_pages = Some(19);
        let mut findings = Vec::new();
        check(safaricom(), &d, &mut findings);
        assert_eq!(findings[0].code, "extra_pages");
    }
}
