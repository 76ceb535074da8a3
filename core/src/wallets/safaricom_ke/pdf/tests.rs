//! Tests on synthetic statement PDFs written here with `lopdf` (no real data): the 2021 layout
//! redrawn with made-up people and rows, plus encrypted, bombed, cyclic and broken files.
//! (Over 400 lines: the tests need the small PDF writer above them, which draws the layout
//! they read; then one test per kind of file.)

use std::fmt::Write as _;
use std::sync::LazyLock;

use lopdf::encryption::{EncryptionState, EncryptionVersion, Permissions};
use lopdf::{Dictionary, Document, Object, Stream};
use proptest::prelude::*;
use rust_decimal::Decimal;
use rust_decimal_macros::dec;

use crate::error::ErrorKind;
use crate::parse::ParseOptions;
use crate::statement::{Statement, TransactionStatus};

/// Helvetica advance widths (1/1000 em) for ASCII 32..=126, from the Adobe AFM.
const HELVETICA: [u16; 95] = [
    278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, // ' '../
    556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556, // 0..?
    1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778, // @..O
    667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556, // P.._
    333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, // `..o
    556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584, // p..~
];

fn width(text: &str, size: f64) -> f64 {
    text.bytes()
        .map(|b| f64::from(HELVETICA[usize::from(b.clamp(32, 126) - 32)]))
        .sum::<f64>()
        * size
        / 1000.0
}

/// Cell edges of the synthetic table (points): Receipt, Time, Details, Status, Paid In,
/// Withdrawn, Balance.
const CELLS: [f64; 8] = [36.0, 88.0, 192.0, 350.0, 402.0, 454.0, 506.0, 558.0];
const PAGE_HEIGHT: f64 = 842.0;

/// A page being drawn: text runs at top-left coordinates.
#[derive(Default)]
struct Canvas {
    ops: String,
}

impl Canvas {
    fn text(&mut self, x: f64, top: f64, size: f64, text: &str) {
        let escaped = text
            .replace('\\', "\\\\")
            .replace('(', "\\(")
            .replace(')', "\\)");
        let _ = writeln!(
            self.ops,
            "BT /F1 {size} Tf 1 0 0 1 {x:.2} {:.2} Tm ({escaped}) Tj ET",
            PAGE_HEIGHT - top
        );
    }

    fn right(&mut self, right: f64, top: f64, size: f64, text: &str) {
        self.text(right - width(text, size), top, size, text);
    }

    fn centred(&mut self, left: f64, right: f64, top: f64, size: f64, text: &str) {
        self.text(
            f64::midpoint(left, right) - width(text, size) / 2.0,
            top,
            size,
            text,
        );
    }
}

/// One synthetic row.
#[derive(Clone)]
struct Row {
    receipt: &'static str,
    time: &'static str,
    details: Vec<&'static str>,
    status: &'static str,
    paid_in: &'static str,
    withdrawn: &'static str,
    balance: &'static str,
}

fn rows() -> Vec<Row> {
    let row = |receipt, time, details: &[&'static str], status, paid_in, withdrawn, balance| Row {
        receipt,
        time,
        details: details.to_vec(),
        status,
        paid_in,
        withdrawn,
        balance,
    };
    let mut rows = vec![
        row(
            "TAB1CD2EF3",
            "2024-05-23 08:53:37",
            &[],
            "Completed",
            "",
            "-20.00",
            "88.81",
        ),
        row(
            "TAB2CD2EF3",
            "2024-05-23 08:30:50",
            &["Merchant Payment to 6097738 -", "SAMPLE CATERERS"],
            "Completed",
            "",
            "-30.00",
            "108.81",
        ),
        row(
            "TAB3CD2EF3",
            "2024-05-22 19:14:16",
            &[
                "Deposit of Funds at Agent Till",
                "071029 - Sample Agent Ltd town",
                "next to the market",
            ],
            "Completed",
            "1,201,133.99",
            "",
            "1,201,272.80",
        ),
        row(
            "TAB4CD2EF3",
            "2024-05-22 17:28:19",
            &["Customer Transfer to - 2547******000 A Person"],
            "Failed",
            "",
            "-100.00",
            "138.81",
        ),
        row(
            "TAB5CD2EF3",
            "2024-05-22 09:32:35",
            &["OverDraft of Credit Party"],
            "Cancelled",
            "20.00",
            "",
            "158.81",
        ),
    ];
    // Enough ordinary rows to fill three pages.
    for (i, receipt) in [
        "TBA0XY1ZQ0",
        "TBA1XY1ZQ1",
        "TBA2XY1ZQ2",
        "TBA3XY1ZQ3",
        "TBA4XY1ZQ4",
        "TBA5XY1ZQ5",
        "TBA6XY1ZQ6",
        "TBA7XY1ZQ7",
        "TBA8XY1ZQ8",
        "TBA9XY1ZQ9",
        "TBB0XY1ZQ0",
        "TBB1XY1ZQ1",
    ]
    .into_iter()
    .enumerate()
    {
        rows.push(row(
            receipt,
            "2024-05-20 11:40:09",
            if i % 3 == 0 {
                &["Pay Bill to 247247 - Sample Bank", "Acc. 12345"]
            } else {
                &["Customer Transfer Fuliza MPesa"]
            },
            "Completed",
            "",
            "-1,000.00",
            "2,000.00",
        ));
    }
    rows
}

/// Draws page 1's account header and SUMMARY (2021 layout; labels with colons when `colons`),
/// returning where the table starts.
fn draw_front(c: &mut Canvas, colons: bool) -> f64 {
    let label = |l: &str| {
        if colons {
            format!("{l}:")
        } else {
            l.to_owned()
        }
    };
    c.text(220.0, 71.0, 15.0, "M-PESA STATEMENT");
    let mut top = 80.0;
    for (l, v) in [
        ("Customer Name", "Jane Sample Doe"),
        ("Mobile Number", "254700000000"),
        ("Email Address", "jane@example.com"),
        ("Date of Statement", "23 May 2024"),
        ("Statement Period", "01 May 2024 - 23 May 2024"),
    ] {
        c.text(38.0, top, 6.0, &label(l));
        c.text(116.5, top, 6.0, v);
        top += 10.0;
    }
    top += 20.0;
    c.text(271.7, top, 10.0, "SUMMARY");
    top += 12.0;
    c.text(38.0, top, 6.0, "TRANSACTION TYPE");
    c.centred(380.0, 430.0, top, 6.0, "PAID IN");
    c.centred(480.0, 530.0, top, 6.0, "PAID OUT");
    for (name, paid_in, paid_out) in [
        ("SEND MONEY:", "0.00", "12,000.00"),
        ("AGENT DEPOSIT", "1,201,133.99", "0.00"),
        ("OTHERS:", "0.00", "50.00"),
        ("TOTAL:", "1,201,133.99", "12,050.00"),
    ] {
        top += 10.0;
        c.text(38.0, top, 6.0, name);
        c.centred(380.0, 430.0, top, 6.0, paid_in);
        c.centred(480.0, 530.0, top, 6.0, paid_out);
    }
    top += 20.0;
    c.text(240.0, top, 10.0, "DETAILED STATEMENT");
    top + 12.0
}

/// Draws the table header (labels centred in their cells, "Transaction Status" on two lines)
/// and `rows` from `top` down, then the footer.
fn draw_table(c: &mut Canvas, rows: &[Row], mut top: f64) {
    for (i, name) in [
        "Receipt No.",
        "Completion Time",
        "Details",
        "Transaction",
        "Paid In",
        "Withdrawn",
        "Balance",
    ]
    .into_iter()
    .enumerate()
    {
        c.centred(CELLS[i], CELLS[i + 1], top, 6.0, name);
    }
    c.centred(CELLS[3], CELLS[4], top + 6.0, 6.0, "Status");
    top += 16.0;
    for row in rows {
        c.text(CELLS[0] + 2.0, top, 6.0, row.receipt);
        c.text(CELLS[1] + 2.0, top, 6.0, row.time);
        c.text(CELLS[3] + 2.0, top, 6.0, row.status);
        for (i, amount) in [row.paid_in, row.withdrawn, row.balance]
            .into_iter()
            .enumerate()
        {
            if !amount.is_empty() {
                c.right(CELLS[i + 5] - 2.0, top, 6.0, amount);
            }
        }
        if row.details.is_empty() {
            top += 10.0;
        }
        for line in &row.details {
            c.text(CELLS[2] + 2.0, top, 6.0, line);
            top += 6.0;
        }
        top += 4.0;
    }
    c.text(
        38.0,
        754.5,
        7.0,
        "Disclaimer: This record is produced for your personal use.",
    );
    c.text(
        53.4,
        832.5,
        7.0,
        "Twitter: @Sample | For self-help dial *234#",
    );
}

/// Wraps page content streams (all using Helvetica as `/F1`) into a document written by the
/// iText Safaricom uses.
fn document(contents: Vec<String>) -> Document {
    crate::pdf::writer::assemble(
        contents,
        &[
            ("Producer", "iText 5.1.0 (synthetic)"),
            ("CreationDate", "D:20240523120000+03'00'"),
        ],
    )
}

/// Draws a statement in the 2021 layout (header labels without colons unless `colons`),
/// `per_page` rows a page, with "Page x of N" on every page.
fn statement_pdf(rows: &[Row], per_page: usize, colons: bool) -> Document {
    document(statement_pages(rows, per_page, colons))
}

/// The content streams of [`statement_pdf`]'s pages.
fn statement_pages(rows: &[Row], per_page: usize, colons: bool) -> Vec<String> {
    let pages: Vec<&[Row]> = rows.chunks(per_page).collect();
    pages
        .iter()
        .enumerate()
        .map(|(index, page_rows)| {
            let mut c = Canvas::default();
            c.text(
                525.0,
                43.0,
                6.0,
                &format!("Page {} of {}", index + 1, pages.len()),
            );
            let top = if index == 0 {
                draw_front(&mut c, colons)
            } else {
                80.0
            };
            draw_table(&mut c, page_rows, top);
            c.ops
        })
        .collect()
}

fn save(doc: &mut Document) -> Vec<u8> {
    let mut bytes = Vec::new();
    doc.save_to(&mut bytes).expect("save");
    bytes
}

fn encrypt(doc: &mut Document, user_password: &str) {
    doc.trailer.set(
        "ID",
        Object::Array(vec![
            Object::string_literal(b"0123456789abcdef".to_vec()),
            Object::string_literal(b"fedcba9876543210".to_vec()),
        ]),
    );
    let state = EncryptionState::try_from(EncryptionVersion::V2 {
        document: doc,
        owner_password: "owner",
        user_password,
        key_length: 128,
        permissions: Permissions::all(),
    })
    .expect("encryption state");
    doc.encrypt(&state).expect("encrypt");
}

/// `MuPDF` writes the encryption dictionary inside the trailer; lopdf 0.47 cannot read it, and
/// the user is told so rather than that the password is wrong.
#[test]
fn an_encryption_dictionary_inside_the_trailer_is_named_not_a_wrong_password() {
    let mut doc = statement_pdf(&rows(), 7, false);
    encrypt(&mut doc, "123456");
    let id = doc
        .trailer
        .get(b"Encrypt")
        .and_then(Object::as_reference)
        .expect("ref");
    let dictionary = doc.objects.remove(&id).expect("encryption dictionary");
    doc.trailer.set("Encrypt", dictionary);
    let bytes = save(&mut doc);
    for password in [None, Some("123456"), Some("654321")] {
        let options = password.map_or_else(ParseOptions::default, ParseOptions::with_password);
        let err = parse(&bytes, &options).expect_err("not readable");
        assert_eq!(err.kind(), &ErrorKind::UnsupportedFormat, "{password:?}");
        assert!(err.to_string().contains("inside its trailer"), "{err}");
    }
}

static SYNTHETIC: LazyLock<Vec<u8>> = LazyLock::new(|| save(&mut statement_pdf(&rows(), 7, false)));

/// The statement the engine reads from `bytes` (the whole PDF path: open, dispatch, this
/// layout, prepare).
fn parse(bytes: &[u8], options: &ParseOptions) -> crate::Result<Statement> {
    crate::parse::parse(bytes, options).map(crate::ParsedStatement::into_statement)
}

fn read(bytes: &[u8], options: &ParseOptions) -> Statement {
    parse(bytes, options).expect("synthetic statement parses")
}

#[test]
fn reads_a_synthetic_statement_exactly() {
    let rows = rows();
    let s = read(&SYNTHETIC, &ParseOptions::default());
    assert!(s.unparsed.is_empty(), "{:?}", s.unparsed);
    assert_eq!(s.transactions.len(), rows.len());
    for (t, row) in s.transactions.iter().zip(&rows) {
        assert_eq!(t.receipt_no, row.receipt);
        assert_eq!(
            t.completed_at.format("%Y-%m-%d %H:%M:%S").to_string(),
            row.time
        );
        assert_eq!(t.details, row.details.join(" "));
        assert_eq!(t.status.as_word(), row.status);
        let amount = |a: &str| crate::money::parse_amount(a).map(|d| d.abs());
        assert_eq!(Some(t.paid_in), amount(row.paid_in));
        assert_eq!(Some(t.withdrawn), amount(row.withdrawn));
        assert_eq!(t.balance, crate::money::parse_amount(row.balance));
    }
    let third = &s.transactions[2];
    assert_eq!(third.paid_in, dec!(1201133.99));
    assert_eq!(third.withdrawn, Decimal::ZERO);
    assert_eq!(s.transactions[3].status, TransactionStatus::Failed);
    assert_eq!(s.transactions[4].status, TransactionStatus::Cancelled);

    assert_eq!(s.holder.name.as_deref(), Some("Jane Sample Doe"));
    assert_eq!(s.holder.mobile_number.as_deref(), Some("254700000000"));
    assert_eq!(s.holder.email.as_deref(), Some("jane@example.com"));
    let period = s.period.expect("period");
    assert_eq!(period.start.to_string(), "2024-05-01");
    assert_eq!(period.end.to_string(), "2024-05-23");
    assert_eq!(
        s.requested_at.map(|d| d.to_string()).as_deref(),
        Some("2024-05-23")
    );
    let summary = s.summary.expect("summary");
    assert_eq!(summary.rows.len(), 3);
    assert_eq!(summary.rows[1].transaction_type, "AGENT DEPOSIT");
    assert_eq!(summary.total.paid_in, dec!(1201133.99));
    assert_eq!(summary.total.paid_out, dec!(12050.00));
    let doc = s.document.expect("document info");
    assert_eq!(doc.pages, 3);
    assert_eq!(doc.declared_pages, Some(3));
    assert!(!doc.encrypted);
    assert_eq!(doc.producer.as_deref(), Some("iText 5.1.0 (synthetic)"));
    assert_eq!(doc.created.as_deref(), Some("D:20240523120000+03'00'"));
    assert!(doc.author.is_none());
}

#[test]
fn reads_header_labels_with_colons() {
    let bytes = save(&mut statement_pdf(&rows()[..3], 7, true));
    let s = read(&bytes, &ParseOptions::default());
    assert_eq!(s.holder.name.as_deref(), Some("Jane Sample Doe"));
    assert_eq!(
        s.requested_at.map(|d| d.to_string()).as_deref(),
        Some("2024-05-23")
    );
    assert_eq!(s.transactions.len(), 3);
}

#[test]
fn encrypted_statement_needs_the_right_password() {
    let mut doc = statement_pdf(&rows(), 7, false);
    encrypt(&mut doc, "123456");
    let bytes = save(&mut doc);
    let err = parse(&bytes, &ParseOptions::default()).expect_err("no password");
    assert_eq!(err.kind(), &ErrorKind::PasswordRequired);
    let err = parse(&bytes, &ParseOptions::with_password("")).expect_err("empty password");
    assert_eq!(err.kind(), &ErrorKind::PasswordRequired);
    let err = parse(&bytes, &ParseOptions::with_password("654321")).expect_err("wrong");
    assert_eq!(err.kind(), &ErrorKind::WrongPassword);
    let s = read(&bytes, &ParseOptions::with_password("123456"));
    assert_eq!(s.transactions.len(), rows().len());
    let doc = s.document.expect("document info");
    assert!(doc.encrypted);
    assert_eq!(doc.producer.as_deref(), Some("iText 5.1.0 (synthetic)"));
}

#[test]
fn an_empty_user_password_opens_without_one() {
    let mut doc = statement_pdf(&rows()[..2], 7, false);
    encrypt(&mut doc, "");
    let bytes = save(&mut doc);
    let s = read(&bytes, &ParseOptions::default());
    assert_eq!(s.transactions.len(), 2);
    assert!(s.document.expect("document info").encrypted);
}

#[test]
fn a_decompression_bomb_is_too_large() {
    let mut doc = statement_pdf(&rows()[..2], 7, false);
    let mut bomb = Stream::new(Dictionary::new(), vec![b' '; 4 << 20]);
    bomb.compress().expect("compress");
    assert!(bomb.content.len() < 64 << 10);
    let bomb_id = doc.add_object(bomb);
    // A stream nothing draws is never inflated: the file reads under the tight limit.
    let unused = save(&mut doc);
    let mut options = ParseOptions::default();
    options.limits.max_decompressed = 1 << 20;
    assert_eq!(read(&unused, &options).transactions.len(), 2);
    // Drawn as part of page 1's content, it is refused.
    let first = *doc.get_pages().get(&1).expect("page 1");
    let page = doc.get_dictionary_mut(first).expect("page");
    let contents = page.get(b"Contents").expect("contents").clone();
    page.set(
        "Contents",
        Object::Array(vec![contents, Object::Reference(bomb_id)]),
    );
    let bytes = save(&mut doc);
    let err = parse(&bytes, &options).expect_err("bomb");
    assert!(matches!(err.kind(), ErrorKind::TooLarge { .. }), "{err}");
    // Within the limit, the same file reads.
    assert_eq!(read(&bytes, &ParseOptions::default()).transactions.len(), 2);
}

#[test]
fn a_page_limit_is_enforced() {
    let mut options = ParseOptions::default();
    options.limits.max_pages = 2;
    let err = parse(&SYNTHETIC, &options).expect_err("3 pages");
    assert_eq!(err.kind(), &ErrorKind::TooLarge { limit: 2 });
}

/// Found by `cargo fuzz run parse_pdf`: lopdf's page iterator sizes its buffer from the
/// `/Count` the file claims, so a page tree that lists itself as a kid and claims 2×10¹⁶ pages
/// made the allocator abort the process (no panic to catch). The pages are now counted as
/// they are walked, up to the page limit.
#[test]
fn a_page_tree_claiming_absurdly_many_pages_is_walked_not_trusted() {
    let mut doc = document(vec!["BT /F1 6 Tf 10 10 Td (x) Tj ET".to_owned()]);
    let pages_id = doc
        .catalog()
        .and_then(|c| c.get(b"Pages"))
        .and_then(Object::as_reference)
        .expect("page tree");
    let tree = doc.get_dictionary_mut(pages_id).expect("page tree");
    tree.set("Count", Object::Integer(21_111_111_111_111_111));
    match tree.get_mut(b"Kids") {
        Ok(Object::Array(kids)) => kids.push(Object::Reference(pages_id)),
        other => panic!("the page tree's /Kids is not an array: {other:?}"),
    }
    let err = parse(&save(&mut doc), &ParseOptions::default()).expect_err("no statement");
    assert_eq!(err.kind(), &ErrorKind::UnsupportedWallet, "{err}");
    // Walked with a page limit of 1, the cycle stops at the limit: the page, then the page
    // again through the tree listing itself.
    let mut options = ParseOptions::default();
    options.limits.max_pages = 1;
    let err = parse(&save(&mut doc), &options).expect_err("beyond 1 page");
    assert_eq!(err.kind(), &ErrorKind::TooLarge { limit: 1 }, "{err}");
}

#[test]
fn a_self_referencing_form_does_not_recurse_forever() {
    let mut doc = Document::with_version("1.4");
    let form_id = doc.new_object_id();
    let mut xobjects = Dictionary::new();
    xobjects.set("X1", Object::Reference(form_id));
    let mut resources = Dictionary::new();
    resources.set("XObject", Object::Dictionary(xobjects));
    let mut form = Dictionary::new();
    form.set("Type", Object::Name(b"XObject".to_vec()));
    form.set("Subtype", Object::Name(b"Form".to_vec()));
    form.set("Resources", Object::Dictionary(resources.clone()));
    doc.objects.insert(
        form_id,
        Object::Stream(Stream::new(form, b"/X1 Do".to_vec())),
    );
    let content_id = doc.add_object(Stream::new(Dictionary::new(), b"/X1 Do".to_vec()));
    let pages_id = doc.new_object_id();
    let mut page = Dictionary::new();
    page.set("Type", Object::Name(b"Page".to_vec()));
    page.set("Parent", Object::Reference(pages_id));
    page.set("Contents", Object::Reference(content_id));
    page.set("Resources", Object::Dictionary(resources));
    let page_id = doc.add_object(Object::Dictionary(page));
    let mut tree = Dictionary::new();
    tree.set("Type", Object::Name(b"Pages".to_vec()));
    tree.set("Count", Object::Integer(1));
    tree.set("Kids", Object::Array(vec![Object::Reference(page_id)]));
    doc.objects.insert(pages_id, Object::Dictionary(tree));
    let mut catalog = Dictionary::new();
    catalog.set("Type", Object::Name(b"Catalog".to_vec()));
    catalog.set("Pages", Object::Reference(pages_id));
    let catalog_id = doc.add_object(Object::Dictionary(catalog));
    doc.trailer.set("Root", Object::Reference(catalog_id));
    let err = parse(&save(&mut doc), &ParseOptions::default()).expect_err("no table");
    assert_eq!(err.kind(), &ErrorKind::UnsupportedWallet);
}

#[test]
fn a_page_with_absurdly_much_text_is_too_large() {
    let text = "a".repeat(crate::pdf::MAX_GLYPHS_PER_PAGE + 1);
    let mut doc = document(vec![format!("BT /F1 6 Tf 10 10 Td ({text}) Tj ET")]);
    let err = parse(&save(&mut doc), &ParseOptions::default()).expect_err("too much text");
    assert!(matches!(err.kind(), ErrorKind::TooLarge { .. }), "{err}");
}

#[test]
fn broken_bytes_are_malformed() {
    for bytes in [
        &b"%PDF-1.4\n"[..],
        b"%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF",
        &SYNTHETIC[..SYNTHETIC.len() / 4],
    ] {
        let err = parse(bytes, &ParseOptions::default()).expect_err("broken");
        assert!(
            matches!(
                err.kind(),
                ErrorKind::Malformed { .. } | ErrorKind::UnsupportedWallet
            ),
            "{err}"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Truncated or mutated statement bytes give a statement or a typed error, never a panic
    /// (and never more rows than the original had).
    #[test]
    fn mutated_bytes_never_panic(
        cut in 0.0f64..=1.0,
        flips in prop::collection::vec((0.0f64..1.0, any::<u8>()), 0..24),
    ) {
        let mut bytes = SYNTHETIC.clone();
        for (at, value) in flips {
            let index = ((bytes.len() as f64) * at) as usize;
            if let Some(b) = bytes.get_mut(index) {
                *b = value;
            }
        }
        let keep = ((bytes.len() as f64) * cut) as usize;
        bytes.truncate(keep.max(1));
        if let Ok(s) = parse(&bytes, &ParseOptions::default()) {
            prop_assert!(s.transactions.len() <= rows().len());
        }
    }
}

/// The own reader hands its pages to the rows a batch at a time; a page of a later batch that
/// it does not read (an inline image) refuses the whole statement, though earlier batches were
/// read: what the engine does not read is never half-read.
#[test]
fn a_late_page_the_reader_does_not_read_refuses_the_statement() {
    let mut rows = rows();
    rows.extend(self::rows());
    let pages = statement_pages(&rows, 1, false);
    assert!(pages.len() > crate::pdf::PAGES_PER_BATCH);
    let own = read(
        &save(&mut document(pages.clone())),
        &ParseOptions::default(),
    );
    assert_eq!(own.transactions.len(), rows.len());
    let mut late = pages;
    // An inline image, which the own reader does not read, on the last page.
    if let Some(last) = late.last_mut() {
        last.push_str("\nq 1 0 0 1 0 0 cm BI /W 1 /H 1 /CS /G /BPC 8 ID a EI Q\n");
    }
    let bytes = save(&mut document(late));
    let err = parse(&bytes, &ParseOptions::default()).expect_err("not read");
    assert_eq!(err.kind(), &ErrorKind::UnsupportedWallet, "{err}");
    let err = crate::pdf::Document::open(&bytes, None, &crate::Limits::default())
        .and_then(|d| d.pages())
        .expect_err("not read");
    assert_eq!(err.kind(), &ErrorKind::UnsupportedWallet, "{err}");
}
