//! Writes the seed corpus of every fuzz target from the synthetic generator (no real
//! personal data): `cargo run --manifest-path fuzz/Cargo.toml --bin make-corpus`.
//! `corpus/parse_json` and `corpus/parse_csv`: canonical JSON and CSV of synthetic statements;
//! `corpus/parse_pdf`: small text PDFs laid out like an M-Pesa statement's table (each with a
//! font the engine's own reader takes and with one it refuses), and every wallet's generated
//! statement file in its own writer's layout (Airtel Uganda's Qt pages, Vodacom Lesotho's
//! iText pages, uncompressed: the per-wallet forensics and readers); a generated CSV goes to
//! `corpus/parse_csv`;
//! `corpus/score`: seeds, sizes and a few edits.

#![allow(clippy::print_stdout)]

use std::fmt::Write as _;
use std::path::Path;

use alama_core::Format;
use alama_core::parse::detect;
use alama_core::testing::{synthetic_statement, thin_statement};

fn main() -> std::io::Result<()> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    for target in ["parse_json", "parse_csv", "parse_pdf", "score"] {
        std::fs::create_dir_all(root.join(target))?;
    }
    let statements = [
        ("s1-1m", synthetic_statement(1, 1)),
        ("s2-3m", synthetic_statement(2, 3)),
        ("s3-6m", synthetic_statement(3, 6)),
        ("thin", thin_statement(10, 14)),
    ];
    for (name, s) in &statements {
        std::fs::write(root.join("parse_json").join(name), s.to_json())?;
        std::fs::write(root.join("parse_csv").join(name), s.to_csv())?;
        std::fs::write(root.join("parse_pdf").join(name), statement_pdf(s, false))?;
        std::fs::write(
            root.join("parse_pdf").join(format!("{name}-winansi")),
            statement_pdf(s, true),
        )?;
    }
    wallet_files(&root)?;
    for seed in 0u8..8 {
        let mut input = vec![seed, 4 + seed * 3];
        for op in 0..7u8 {
            input.extend_from_slice(&[op, seed, 0, 0x10, 0x27, 0, 0, op]);
        }
        std::fs::write(root.join("score").join(format!("seed{seed}")), input)?;
    }
    println!("corpus written to {}", root.display());
    Ok(())
}

/// Each wallet's generated file (seeded, 12 rows, two seeds) as a seed of the target that reads
/// its format, as `alama_core::parse::detect` tells it (a spreadsheet is left out: no target
/// reads one).
fn wallet_files(root: &Path) -> std::io::Result<()> {
    for wallet in alama_core::wallets::ALL {
        let Some(generator) = wallet.generator.as_ref() else {
            continue;
        };
        for seed in 0..2u64 {
            let bytes = (generator.file)(seed, 12).bytes;
            // The engine's own format detection picks the target; a spreadsheet has none.
            let target = match detect(&bytes) {
                Ok(Format::Pdf) => "parse_pdf",
                Ok(Format::Csv) => "parse_csv",
                Ok(Format::Json) => "parse_json",
                _ => continue,
            };
            std::fs::write(
                root.join(target).join(format!("{}-{seed}", wallet.id)),
                bytes,
            )?;
        }
    }
    Ok(())
}

/// A one- or two-page PDF (base-14 Helvetica, uncompressed) drawing the statement's first rows
/// in the columns of an M-Pesa statement table. With `win_ansi` the font names
/// `/WinAnsiEncoding`, as the 2021 iText statements do, so the engine's own content-stream reader
/// reads it; without, the font is one that reader does not read (the refusal path).
fn statement_pdf(statement: &alama_core::Statement, win_ansi: bool) -> Vec<u8> {
    let columns = [
        (30, "Receipt No."),
        (95, "Completion Time"),
        (190, "Details"),
        (390, "Transaction Status"),
        (460, "Paid In"),
        (510, "Withdrawn"),
        (560, "Balance"),
    ];
    let mut pages = Vec::new();
    for chunk in statement.transactions.chunks(40).take(2) {
        let mut content = String::from("BT /F1 7 Tf\n");
        let mut y = 760;
        for (x, title) in columns {
            let _ = writeln!(content, "1 0 0 1 {x} {y} Tm ({title}) Tj");
        }
        for t in chunk {
            y -= 16;
            let cells = [
                t.receipt_no.clone(),
                t.completed_at.format("%Y-%m-%d %H:%M:%S").to_string(),
                t.details.chars().take(40).collect(),
                format!("{:?}", t.status),
                if t.paid_in.is_zero() {
                    String::new()
                } else {
                    t.paid_in.to_string()
                },
                if t.withdrawn.is_zero() {
                    String::new()
                } else {
                    format!("-{}", t.withdrawn)
                },
                t.balance.map(|b| b.to_string()).unwrap_or_default(),
            ];
            for (i, ((x, title), cell)) in columns.iter().zip(cells).enumerate() {
                let cell = cell.replace(['(', ')', '\\'], " ");
                // Status and amounts centred under their column's title (the parser finds
                // those columns from the titles' centres), 3.5 pt a character at 7 pt; receipt,
                // time and Details from their title's left edge.
                let left = if i < 3 {
                    f64::from(*x)
                } else {
                    f64::from(*x) + 1.75 * (title.len() as f64 - cell.len() as f64)
                };
                let _ = writeln!(content, "1 0 0 1 {left:.1} {y} Tm ({cell}) Tj");
            }
        }
        content.push_str("ET\n");
        pages.push(content);
    }
    // Objects: 1 catalog, 2 pages, 3 font, then a page and its content per page.
    let mut objects = vec![
        "<< /Type /Catalog /Pages 2 0 R >>".to_owned(),
        String::new(),
        if win_ansi {
            "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"
        } else {
            "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"
        }
        .to_owned(),
    ];
    let mut kids = Vec::new();
    for content in &pages {
        let page = objects.len() + 1;
        kids.push(format!("{page} 0 R"));
        objects.push(format!(
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] \
             /Resources << /Font << /F1 3 0 R >> >> /Contents {} 0 R >>",
            page + 1
        ));
        objects.push(format!(
            "<< /Length {} >>\nstream\n{content}endstream",
            content.len()
        ));
    }
    objects[1] = format!(
        "<< /Type /Pages /Kids [{}] /Count {} >>",
        kids.join(" "),
        kids.len()
    );
    let mut out = b"%PDF-1.4\n".to_vec();
    let mut offsets = Vec::new();
    for (i, body) in objects.iter().enumerate() {
        offsets.push(out.len());
        out.extend_from_slice(format!("{} 0 obj\n{body}\nendobj\n", i + 1).as_bytes());
    }
    let xref = out.len();
    let mut table = format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1);
    for o in offsets {
        let _ = writeln!(table, "{o:010} 00000 n ");
    }
    out.extend_from_slice(table.as_bytes());
    out.extend_from_slice(
        format!(
            "trailer\n<< /Size {} /Root 1 0 R>>\nstartxref\n{xref}\n%%EOF\n",
            objects.len() + 1
        )
        .as_bytes(),
    );
    out
}
