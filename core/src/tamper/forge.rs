//! Forgers for the benchmark of every wallet (feature `testing`): edits of one credit made the
//! way a borrower with a PDF editor would, on any wallet's statement PDF (Airtel Uganda's Qt
//! pages draw each glyph with its own `Td` and `Tj` in a two-byte font; Vodacom Lesotho's iText
//! pages, Safaricom's and the generated statements draw each cell as one string). An encrypted
//! statement is opened with its password (on M-Pesa the holder's ID number, which the borrower
//! knows) and every copy is encrypted with it again (a file encrypted with an empty password
//! and opened without one keeps its encryption only where written back).
//!
//! The statement is read with the engine first, so that the forger knows the figures it must
//! make agree; its texts are then found among the page's text runs (consecutive strings on one
//! line, Qt's per-glyph `Td` moves between them) and changed byte for byte in the decoded
//! content streams, every other byte of the stream as it was. Then it is saved one of three ways:
//! by `lopdf` (a re-save), written back into the original file (only the content streams and
//! their lengths replaced, encrypted with the file's own key where it is encrypted, offsets
//! fixed: the original's object order, dictionaries, cross-reference table and document
//! information kept), or rebuilt (objects renumbered into a new file, the document information
//! copied byte for byte).
//!
//! One file over the usual 400 lines: the forgers, the page-text model they edit (pieces and
//! runs of every font) and the three ways of saving share that model's internals; a test-only
//! tool (feature `testing`), it is read as a whole.

use lopdf::content::Content;
use lopdf::{Document, LoadOptions, Object, ObjectId};
use rust_decimal::Decimal;

use super::Below;
use super::editor::save;
use super::text::format_money;
use crate::pdf::Font;
use crate::statement::{Statement, Transaction};
use crate::testing::SplitMix64;

/// One forgery. Names are the benchmark's row labels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Forgery {
    /// One digit of one credit's amount changed, nothing else; saved by `lopdf`.
    NaiveDigit,
    /// [`Forgery::NaiveDigit`] written back into the original file's own structure.
    NaiveWrittenBack,
    /// A digit in the tens or higher of a credit of 10 or more typed over (what a borrower
    /// raising income types: issue 50's 300 → 900), nothing else; written back into the
    /// original file's own structure, so that only the figures can show it.
    NaiveTensWrittenBack,
    /// One digit of one row's balance typed over (a borrower raising a balance), the amounts
    /// and every other balance as printed; written back into the original file's own
    /// structure, so that only the figures can show it.
    NaiveBalanceWrittenBack,
    /// One credit raised (its leading digit, by a seeded 1 to 9, where every figure can keep
    /// its length; else by a few units or cents), that row's and every later balance and the
    /// SUMMARY's total credit and closing balance raised to agree, every figure keeping its
    /// length; saved by `lopdf`.
    CarefulSameLength,
    /// The same with a raise that lengthens the amount (a seeded digit 1 to 9 put in front of
    /// it; the new text drawn as one string); saved by `lopdf`.
    CarefulLonger,
    /// [`Forgery::CarefulSameLength`] written back into the original file's own structure.
    WrittenBack,
    /// [`Forgery::CarefulLonger`] written back into the original file's own structure.
    WrittenBackLonger,
    /// [`Forgery::WrittenBackLonger`] with every glyph of the new text of a two-byte font's
    /// `Tj` pieces shown on its own, placed by a `Td` move as Qt draws Airtel Uganda's pages
    /// (the text re-laid from its first piece, the other pieces emptied); the moves computed
    /// from the font's `/W` widths (what a careful forger with a PDF library does), not Qt's
    /// advances in 64ths of a unit. Elsewhere, as [`Forgery::WrittenBackLonger`].
    WrittenBackGlyphs,
    /// [`Forgery::WrittenBackGlyphs`] with the moves copied from Qt's own: each glyph's move
    /// where the page shows it alone elsewhere (its `/W` width where it does not). The limit
    /// of a check of one file: expected `verified` on Airtel.
    WrittenBackGlyphsCopied,
    /// [`Forgery::WrittenBackLonger`] with each lengthened string's start moved left by the
    /// width it gained where its column is right-aligned, by half of it where it is centred
    /// (the `Tm` or first `Td` of its text block rewritten, with 2 decimals as OpenPDF writes
    /// it): its right edge or centre stays where the writer puts it, as on Safaricom's amount
    /// and balance columns and its SUMMARY. In left-aligned columns
    /// (Airtel Uganda, Vodacom Lesotho) and where a string is not placed on its own, as
    /// [`Forgery::WrittenBackLonger`].
    /// Moved from its old start, the string keeps that start's rounding: on Safaricom it
    /// ends 0.01 pt off its column unless the two roundings cancel, and only then is it
    /// `verified` (the limit of a check of one file).
    WrittenBackRealigned,
    /// [`Forgery::CarefulSameLength`] re-drawn into a new file: objects renumbered by
    /// another library, the wallet's document information copied byte for byte.
    Rebuilt,
    /// [`Forgery::WrittenBackRealigned`] with the new start written as computed, the old start
    /// less the width gained (or half of it), not rounded to 0.01 pt: it ends exactly where the
    /// old string ended, and starts off the hundredths Safaricom's writers write. Declared
    /// last, so that the others keep their seeds.
    WrittenBackRealignedUnrounded,
    /// [`Forgery::WrittenBack`] with every balance left as printed: the credit and the
    /// SUMMARY's total credit raised, nothing else (a borrower who makes the totals agree and
    /// not the running balance). Declared last, so that the others keep their seeds.
    WrittenBackBalancesAsPrinted,
}

impl Forgery {
    /// Every forgery, in table order.
    pub const ALL: [Forgery; 14] = [
        Forgery::NaiveDigit,
        Forgery::NaiveWrittenBack,
        Forgery::NaiveTensWrittenBack,
        Forgery::NaiveBalanceWrittenBack,
        Forgery::CarefulSameLength,
        Forgery::CarefulLonger,
        Forgery::WrittenBack,
        Forgery::WrittenBackLonger,
        Forgery::WrittenBackGlyphs,
        Forgery::WrittenBackGlyphsCopied,
        Forgery::WrittenBackRealigned,
        Forgery::WrittenBackRealignedUnrounded,
        Forgery::WrittenBackBalancesAsPrinted,
        Forgery::Rebuilt,
    ];

    /// The label used in the benchmark table (`"naive_digit"`).
    pub fn name(self) -> &'static str {
        match self {
            Forgery::NaiveDigit => "naive_digit",
            Forgery::NaiveWrittenBack => "naive_written_back",
            Forgery::NaiveTensWrittenBack => "naive_tens_written_back",
            Forgery::NaiveBalanceWrittenBack => "naive_balance_written_back",
            Forgery::CarefulSameLength => "careful_same_length",
            Forgery::CarefulLonger => "careful_longer",
            Forgery::WrittenBack => "written_back",
            Forgery::WrittenBackLonger => "written_back_longer",
            Forgery::WrittenBackGlyphs => "written_back_glyphs",
            Forgery::WrittenBackGlyphsCopied => "written_back_glyphs_copied",
            Forgery::WrittenBackRealigned => "written_back_realigned",
            Forgery::WrittenBackRealignedUnrounded => "written_back_realigned_unrounded",
            Forgery::WrittenBackBalancesAsPrinted => "written_back_balances_as_printed",
            Forgery::Rebuilt => "rebuilt_info_copied",
        }
    }

    fn longer(self) -> bool {
        matches!(
            self,
            Forgery::CarefulLonger
                | Forgery::WrittenBackLonger
                | Forgery::WrittenBackGlyphs
                | Forgery::WrittenBackGlyphsCopied
                | Forgery::WrittenBackRealigned
                | Forgery::WrittenBackRealignedUnrounded
        )
    }

    /// Whether the careful forger also raises the edited row's and every later balance, and
    /// the closing balance, to agree with the raised credit.
    fn balances(self) -> bool {
        self != Forgery::WrittenBackBalancesAsPrinted
    }
}

/// One drawn string of a page: its content operation, its font and its characters.
struct Piece {
    page: usize,
    /// Index among the page's string operands (in operation order).
    string: usize,
    font: usize,
    /// The font size it is drawn at (`Tf`).
    size: f64,
    /// Whether it is the string of a `Tj` (not of a `TJ` array).
    tj: bool,
    /// Where it starts, where it is the first string shown after a `Tm` (its `e` operand) or
    /// after the first `Td` of its `BT` block (its `tx`).
    x: Option<f64>,
    chars: Vec<char>,
}

/// The strings that replace one string operand: each one's bytes, the ones after the first
/// shown on their own after a `Td` move of the given size (text space units).
type Strings = Vec<(f64, Vec<u8>)>;

/// Consecutive pieces of one line of text.
struct Run {
    pieces: Vec<usize>,
    text: String,
}

/// Makes one forged copy of `original` (a statement PDF whose rows `statement` holds, as the
/// engine read them; `password` opens it where it is encrypted, and every save encrypts the
/// copy with it again: written back, with the file's own key).
///
/// # Errors
/// A message when the file cannot be opened, holds no credit that can be edited this way, or
/// cannot be saved.
pub fn forge(
    original: &[u8],
    password: Option<&str>,
    statement: &Statement,
    forgery: Forgery,
    seed: u64,
) -> Result<Vec<u8>, String> {
    let mut rng = SplitMix64::new(seed ^ (forgery as u64 + 1).wrapping_mul(0x9E37_79B9));
    let options = password.map_or_else(LoadOptions::default, LoadOptions::with_password);
    let doc = Document::load_mem_with_options(original, options).map_err(|e| e.to_string())?;
    if doc.is_encrypted() {
        return Err("encrypted, and no password opens it".to_owned());
    }
    // Saved again with the statement's own password where it was encrypted (what a borrower
    // who knows it does: on M-Pesa it is the holder's ID number).
    let password = password.filter(|_| doc.was_encrypted());
    let mut text = Text::read(&doc)?;
    text.glyphs = match forgery {
        Forgery::WrittenBackGlyphs => Some(Moves::Widths),
        Forgery::WrittenBackGlyphsCopied => Some(Moves::Copied),
        _ => None,
    };
    text.realign = match forgery {
        Forgery::WrittenBackRealigned => Some(NewStart::Hundredths),
        Forgery::WrittenBackRealignedUnrounded => Some(NewStart::Computed),
        _ => None,
    };
    let changes = match forgery {
        Forgery::NaiveDigit | Forgery::NaiveWrittenBack => {
            naive(&text, statement, Typed::Credit, &mut rng)?
        }
        Forgery::NaiveTensWrittenBack => naive(&text, statement, Typed::CreditTens, &mut rng)?,
        Forgery::NaiveBalanceWrittenBack => naive(&text, statement, Typed::Balance, &mut rng)?,
        _ => careful(
            &text,
            statement,
            forgery.longer(),
            forgery.balances(),
            &mut rng,
        )?,
    };
    for (run, new) in changes {
        text.replace(run, &new)?;
    }
    match forgery {
        Forgery::NaiveWrittenBack
        | Forgery::NaiveTensWrittenBack
        | Forgery::NaiveBalanceWrittenBack
        | Forgery::WrittenBack
        | Forgery::WrittenBackLonger
        | Forgery::WrittenBackGlyphs
        | Forgery::WrittenBackGlyphsCopied
        | Forgery::WrittenBackRealigned
        | Forgery::WrittenBackRealignedUnrounded
        | Forgery::WrittenBackBalancesAsPrinted => write_back(original, &doc, &text),
        Forgery::Rebuilt => {
            let mut doc = text.apply(doc)?;
            doc.renumber_objects();
            save(doc, password)
        }
        _ => save(text.apply(doc)?, password),
    }
}

/// The money value a run's text ends with (`Ugx 25,111.80` → 25111.80; Vodacom Lesotho prints
/// whole amounts without cents: `300`), and where it starts.
fn money_in(text: &str) -> Option<(usize, Decimal)> {
    let start = text.rfind(' ').map_or(0, |i| i + 1);
    let tail = &text[start..];
    let (whole, cents) = tail.split_once('.').unwrap_or((tail, "00"));
    let ok = cents.len() == 2
        && cents.bytes().all(|b| b.is_ascii_digit())
        && !whole.is_empty()
        && whole.bytes().all(|b| b.is_ascii_digit() || b == b',')
        && whole.bytes().next().is_some_and(|b| b.is_ascii_digit());
    let value: Decimal = tail.replace(',', "").parse().ok()?;
    ok.then_some((start, value))
}

/// `value` written as the money at the end of `run` is (`commas`: thousands separated): a whole
/// value without cents where the run prints none.
fn styled(run: &str, value: Decimal, commas: bool) -> String {
    let text = format_money(value, commas);
    match text.strip_suffix(".00") {
        Some(whole) if !run.contains('.') => whole.to_owned(),
        _ => text,
    }
}

/// The page text of a document, as pieces and runs.
struct Text {
    pages: Vec<(ObjectId, Vec<u8>)>,
    fonts: Vec<Font>,
    pieces: Vec<Piece>,
    runs: Vec<Run>,
    /// Per page, its edits.
    edits: Vec<Vec<Edit>>,
    commas: bool,
    /// Whether a longer value of a two-byte font's `Tj` pieces shows each glyph on its own,
    /// and by which moves ([`Forgery::WrittenBackGlyphs`]); `None`: all in one string.
    glyphs: Option<Moves>,
    /// Per page, by font (index into `fonts`), code and size bits, the move Qt made after each
    /// glyph it showed alone (the first seen), text space units.
    qt_moves: Vec<std::collections::HashMap<(usize, u32, u64), f64>>,
    /// Where set, a lengthened string of a right-aligned (or centred) column is moved to keep
    /// its right edge (or centre), its start written so ([`Forgery::WrittenBackRealigned`]).
    realign: Option<NewStart>,
}

/// How a forger moving a lengthened string writes its new start.
#[derive(Clone, Copy, PartialEq, Eq)]
enum NewStart {
    /// Rounded to 0.01 pt, as `OpenPDF` and iText write coordinates.
    Hundredths,
    /// As computed, the old start less the width gained (to 0.0001 pt).
    Computed,
}

/// Where the next string of a text block starts, as far as a forger moving it needs: set by a
/// `Tm` (its `e`) or by the first `Td` of a `BT` block (its `tx`), taken by the string shown
/// next.
#[derive(Default)]
struct Start {
    x: Option<f64>,
    /// Whether no `Td` or `Tm` has moved the text since `BT`.
    fresh: bool,
}

impl Start {
    fn track(&mut self, op: &lopdf::content::Operation) {
        let operand = |i: usize| op.operands.get(i).and_then(|o| o.as_float().ok());
        match op.operator.as_str() {
            "BT" => {
                *self = Start {
                    x: None,
                    fresh: true,
                }
            }
            "Tm" => {
                *self = Start {
                    x: operand(4).map(f64::from),
                    fresh: false,
                }
            }
            "Td" => {
                self.x = operand(0).filter(|_| self.fresh).map(f64::from);
                self.fresh = false;
            }
            _ => {}
        }
    }
}

/// One edit of a page's content: the new strings of the string operands `from` through
/// `through` (by their index among the page's string operands; the same one, or the last of a
/// run re-laid glyph by glyph, the operators between them replaced too), each string's bytes,
/// the ones after the first shown on their own, each after a `Td` move of the given size; and
/// the new x operand of the `Tm` or `Td` before the first, where it is moved
/// ([`Forgery::WrittenBackRealigned`]).
#[derive(Clone)]
struct Edit {
    from: usize,
    through: usize,
    strings: Strings,
    moved_to: Option<f64>,
}

/// How a forger places the glyphs it shows on their own.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Moves {
    /// By the font's `/W` widths at the drawn size.
    Widths,
    /// By Qt's own move for the glyph, where the page shows one.
    Copied,
}

impl Text {
    fn read(doc: &Document) -> Result<Self, String> {
        let mut fonts: Vec<Font> = Vec::new();
        let mut pages = Vec::new();
        let mut pieces = Vec::new();
        let mut runs: Vec<Run> = Vec::new();
        let mut qt_moves = Vec::new();
        for (index, (_, page_id)) in doc.get_pages().into_iter().enumerate() {
            let content = doc.get_page_content(page_id);
            let ops = Content::decode(&content).map_err(|e| e.to_string())?;
            let by_name = load_fonts(doc, page_id, &mut fonts)?;
            let mut current: Option<usize> = None;
            let mut moves = std::collections::HashMap::new();
            let mut alone: Option<(usize, u32, u64)> = None;
            let mut size = 0.0;
            let mut string = 0;
            let mut open_run = false;
            let mut start = Start::default();
            for op in &ops.operations {
                let shown_alone = alone.take();
                start.track(op);
                match op.operator.as_str() {
                    "Tf" => (current, size) = font_of(&op.operands, &by_name),
                    "Td" => {
                        let dy = op.operands.get(1).and_then(|o| o.as_float().ok());
                        if dy.is_none_or(|d| d.abs() > 0.01) {
                            open_run = false;
                        }
                        let dx = op.operands.first().and_then(|o| o.as_float().ok());
                        if let (Some(glyph), Some(dx), Some(0.0)) = (shown_alone, dx, dy) {
                            moves.entry(glyph).or_insert(f64::from(dx));
                        }
                    }
                    "Tj" | "TJ" => {
                        for operand in string_operands(&op.operands) {
                            if let (Some(font), Object::String(bytes, _)) = (current, operand) {
                                let f = &fonts[font];
                                if op.operator == "Tj" && f.is_two_byte() && bytes.len() == 2 {
                                    alone = f
                                        .codes(bytes)
                                        .next()
                                        .map(|(c, _)| (font, c, size.to_bits()));
                                }
                                let chars: Vec<char> = f
                                    .codes(bytes)
                                    .filter_map(|(c, _)| f.glyph(c).ok())
                                    .flat_map(|(_, t)| t.iter().copied())
                                    .collect();
                                pieces.push(Piece {
                                    page: index,
                                    string,
                                    font,
                                    size,
                                    tj: op.operator == "Tj",
                                    x: start.x.take(),
                                    chars,
                                });
                                let p = pieces.len() - 1;
                                match runs.last_mut() {
                                    Some(run) if open_run => run.pieces.push(p),
                                    _ => runs.push(Run {
                                        pieces: vec![p],
                                        text: String::new(),
                                    }),
                                }
                                open_run = op.operator == "Tj";
                            }
                            string += 1;
                        }
                    }
                    _ => open_run = false,
                }
            }
            pages.push((page_id, content));
            qt_moves.push(moves);
        }
        for run in &mut runs {
            run.text = run
                .pieces
                .iter()
                .flat_map(|p| pieces[*p].chars.iter())
                .collect();
        }
        let commas = runs
            .iter()
            .any(|r| money_in(&r.text).is_some() && r.text.contains(','));
        let edits = vec![Vec::new(); pages.len()];
        Ok(Self {
            pages,
            fonts,
            pieces,
            runs,
            edits,
            commas,
            glyphs: None,
            qt_moves,
            realign: None,
        })
    }

    /// Runs that end in a money value, in drawing order: (run, start of the value, value).
    fn money_runs(&self) -> Vec<(usize, usize, Decimal)> {
        self.runs
            .iter()
            .enumerate()
            .filter_map(|(i, r)| money_in(&r.text).map(|(s, v)| (i, s, v)))
            .collect()
    }

    /// Replaces the money value at the end of run `run` by `new`: glyph by glyph when the
    /// length is kept, else as one string in the run's first piece.
    fn replace(&mut self, run: usize, new: &str) -> Result<(), String> {
        let r = &self.runs[run];
        let (start, _) = money_in(&r.text).ok_or("not a money run")?;
        let prefix: String = r.text.chars().take(start).collect();
        let text: Vec<char> = format!("{prefix}{new}").chars().collect();
        let lengths: Vec<usize> = r
            .pieces
            .iter()
            .map(|p| self.pieces[*p].chars.len())
            .collect();
        let slices: Vec<Vec<char>> = if text.len() == lengths.iter().sum::<usize>() {
            let mut at = 0;
            lengths
                .iter()
                .map(|n| {
                    let s = text[at..at + n].to_vec();
                    at += n;
                    s
                })
                .collect()
        } else {
            std::iter::once(text.clone())
                .chain(std::iter::repeat_n(Vec::new(), lengths.len() - 1))
                .collect()
        };
        // Glyph by glyph, a longer value is re-laid from the run's first piece through its
        // last, the moves between them included: one edit of the stream from the first piece's
        // string to the last's (the pieces of a run are consecutive `Tj`s of one page).
        let run_pieces = r.pieces.clone();
        let first = run_pieces[0];
        let last = &self.pieces[run_pieces[run_pieces.len() - 1]];
        let relaid = self.glyphs.is_some()
            && text.len() != lengths.iter().sum::<usize>()
            && self.pieces[first].page == last.page
            && run_pieces.iter().all(|p| {
                let piece = &self.pieces[*p];
                piece.tj && self.fonts[piece.font].is_two_byte()
            });
        let through = last.string;
        let moved_to = if let Some(start) = self.realign
            && run_pieces.len() == 1
        {
            self.aligned_start(first, &text, start)
        } else {
            None
        };
        for (p, chars) in run_pieces.into_iter().zip(slices) {
            let piece = &self.pieces[p];
            if piece.chars == chars {
                continue;
            }
            let (page, string) = (piece.page, piece.string);
            if relaid && p != first {
                self.pieces[p].chars = chars;
                continue;
            }
            let font = &self.fonts[piece.font];
            let glyphs = self.glyphs.filter(|_| relaid);
            let mut strings: Strings = vec![(0.0, Vec::new())];
            let mut advance = 0.0;
            for c in &chars {
                let code = font
                    .code_of(*c)
                    .ok_or("a character the font subset lacks")?;
                if glyphs.is_some() && !strings[0].1.is_empty() {
                    strings.push((advance, Vec::new()));
                }
                let bytes = &mut strings.last_mut().ok_or("no string")?.1;
                if font.is_two_byte() {
                    bytes.extend_from_slice(&u16::try_from(code).unwrap_or(0).to_be_bytes());
                } else {
                    bytes.push(u8::try_from(code).unwrap_or(b'?'));
                }
                // The move to the next glyph, where glyphs are shown on their own.
                if let Some(moves) = glyphs {
                    let copied = (moves == Moves::Copied)
                        .then(|| {
                            self.qt_moves[piece.page].get(&(piece.font, code, piece.size.to_bits()))
                        })
                        .flatten();
                    advance = match copied {
                        Some(m) => *m,
                        None => {
                            advance_of(font, code, piece.size).ok_or("a glyph the font lacks")?
                        }
                    };
                }
            }
            let end = if relaid { through } else { string };
            self.edits[page].retain(|e| !(string..=end).contains(&e.from));
            self.edits[page].push(Edit {
                from: string,
                through: end,
                strings,
                moved_to,
            });
            self.pieces[p].chars = chars;
            if moved_to.is_some() {
                self.pieces[p].x = moved_to;
            }
        }
        self.runs[run].text = text.into_iter().collect();
        Ok(())
    }

    /// The start that keeps piece `p` aligned as its column is once it shows `new` (written
    /// as `start` says): its right edge where another money string of its page, of another start,
    /// ends where it ends (Safaricom's amount and balance columns), else its centre where
    /// another is centred where it is (Safaricom's SUMMARY). `None` elsewhere, or where the
    /// width is unchanged.
    fn aligned_start(&self, p: usize, new: &[char], start: NewStart) -> Option<f64> {
        let piece = &self.pieces[p];
        let x = piece.x?;
        let (old, new) = (self.width(piece, &piece.chars)?, self.width(piece, new)?);
        if (new - old).abs() < 1e-9 {
            return None;
        }
        let others: Vec<(f64, f64)> = self
            .runs
            .iter()
            .filter(|r| r.pieces.len() == 1 && money_in(&r.text).is_some())
            .map(|r| &self.pieces[r.pieces[0]])
            .filter(|q| q.page == piece.page)
            .filter_map(|q| Some((q.x?, self.width(q, &q.chars)?)))
            .filter(|(qx, _)| (qx - x).abs() > 0.05)
            .collect();
        // The share of its width a cell's anchor sits at: 1 right-aligned, ½ centred.
        let anchored = |share: f64| {
            others
                .iter()
                .any(|(qx, w)| (qx + share * w - (x + share * old)).abs() < 0.05)
        };
        let share = [1.0, 0.5].into_iter().find(|share| anchored(*share))?;
        let moved = x - share * (new - old);
        Some(match start {
            NewStart::Hundredths => (moved * 100.0).round() / 100.0,
            NewStart::Computed => moved,
        })
    }

    /// The width of `chars` in piece `piece`'s font at its size (text space units), by the
    /// font's widths; `None` where the font lacks one.
    fn width(&self, piece: &Piece, chars: &[char]) -> Option<f64> {
        let font = &self.fonts[piece.font];
        chars.iter().try_fold(0.0, |sum, c| {
            Some(sum + advance_of(font, font.code_of(*c)?, piece.size)?)
        })
    }

    /// The page's content with the edited strings patched in, every other byte as it was.
    fn patched(&self, page: usize) -> Result<Vec<u8>, String> {
        Ok(self.patched_part(page, 0..self.pages[page].1.len())?.0)
    }

    /// [`Text::patched`] for the `part` of the page's content that one of its content streams
    /// holds (a page may draw from several, one after the other), with how many edits start in
    /// it.
    fn patched_part(
        &self,
        page: usize,
        part: std::ops::Range<usize>,
    ) -> Result<(Vec<u8>, usize), String> {
        let content = &self.pages[page].1;
        let spans = string_spans(content);
        let mut out = Vec::with_capacity(part.len());
        let mut at = part.start;
        let mut edits = self.edits[page].clone();
        edits.sort_by_key(|e| e.from);
        let mut applied = 0;
        for Edit {
            from: string,
            through,
            strings,
            moved_to,
        } in edits
        {
            let (start, _) = *spans.get(string).ok_or("string not found in the stream")?;
            let (_, end) = *spans.get(through).ok_or("string not found in the stream")?;
            if !part.contains(&start) {
                continue;
            }
            if end > part.end {
                return Err("an edited run spans two content streams".to_owned());
            }
            applied += 1;
            match moved_to {
                Some(x) => out.extend(with_start(&content[at..start], x)?),
                None => out.extend_from_slice(&content[at..start]),
            }
            let hex = content.get(start) == Some(&b'<');
            for (i, (moved, bytes)) in strings.iter().enumerate() {
                if i > 0 {
                    out.extend_from_slice(format!(" Tj\n{moved:.8} 0 Td ").as_bytes());
                }
                out.extend_from_slice(&encode_string(bytes, hex));
            }
            at = end;
        }
        out.extend_from_slice(&content[at..part.end]);
        Ok((out, applied))
    }

    /// The document with the patched contents (re-compressed), for a `lopdf` save.
    fn apply(&self, mut doc: Document) -> Result<Document, String> {
        for (page, (page_id, _)) in self.pages.iter().enumerate() {
            if self.edits[page].is_empty() {
                continue;
            }
            let bytes = self.patched(page)?;
            doc.change_page_content(*page_id, bytes)
                .map_err(|e| e.to_string())?;
        }
        doc.compress();
        Ok(doc)
    }
}

/// The advance of glyph `code` of `font` drawn at `size` (text space units), by the font's
/// `/W` widths (thousandths of a unit); `None` where the font lacks the glyph.
fn advance_of(font: &Font, code: u32, size: f64) -> Option<f64> {
    let (width, _) = font.glyph(code).ok()?;
    Some(width / 1000.0 * size)
}

/// `segment` (the content before a string) with the x operand of its last `Tm` (`e`) or `Td`
/// (`tx`) set to `x`, written with at most 4 decimals (trailing zeros trimmed, as `OpenPDF`
/// writes coordinates).
fn with_start(segment: &[u8], x: f64) -> Result<Vec<u8>, String> {
    let missing = || "no Tm or Td before the moved string".to_owned();
    let at = segment
        .windows(2)
        .rposition(|w| w == b"Tm" || w == b"Td")
        .ok_or_else(missing)?;
    // The two operands before it, last first: x is the second to last of both.
    let mut spans = Vec::new();
    let mut end = at;
    while spans.len() < 2 {
        while end > 0 && segment[end - 1].is_ascii_whitespace() {
            end -= 1;
        }
        let mut start = end;
        while start > 0 && !segment[start - 1].is_ascii_whitespace() {
            start -= 1;
        }
        if start == end {
            return Err(missing());
        }
        spans.push((start, end));
        end = start;
    }
    let (start, end) = spans[1];
    let text = format!("{x:.4}");
    let text = match text.trim_end_matches('0').trim_end_matches('.') {
        "" | "-" => "0",
        trimmed => trimmed,
    };
    let mut out = segment[..start].to_vec();
    out.extend_from_slice(text.as_bytes());
    out.extend_from_slice(&segment[end..]);
    Ok(out)
}

fn string_operands(operands: &[Object]) -> Vec<&Object> {
    let mut out = Vec::new();
    for o in operands {
        match o {
            Object::String(..) => out.push(o),
            Object::Array(items) => {
                out.extend(items.iter().filter(|i| matches!(i, Object::String(..))));
            }
            _ => {}
        }
    }
    out
}

/// The fonts of page `page_id` that load, pushed onto `fonts`: their resource names with their
/// indexes there.
fn load_fonts(
    doc: &Document,
    page_id: ObjectId,
    fonts: &mut Vec<Font>,
) -> Result<Vec<(Vec<u8>, usize)>, String> {
    let mut by_name = Vec::new();
    for (name, dict) in doc.get_page_fonts(page_id).map_err(|e| e.to_string())? {
        if let Ok(font) = Font::load(doc, dict, 1 << 24) {
            fonts.push(font);
            by_name.push((name, fonts.len() - 1));
        }
    }
    Ok(by_name)
}

/// The font (index, by the page's resource names `by_name`) and size a `Tf` sets.
fn font_of(operands: &[Object], by_name: &[(Vec<u8>, usize)]) -> (Option<usize>, f64) {
    let font = operands
        .first()
        .and_then(|n| n.as_name().ok())
        .and_then(|n| by_name.iter().find(|(k, _)| k == n))
        .map(|(_, i)| *i);
    let size = operands
        .get(1)
        .and_then(|n| n.as_float().ok())
        .map_or(0.0, f64::from);
    (font, size)
}

/// Byte spans of the string tokens of a content stream (`(…)` and `<…>`, not `<<`), in order.
fn string_spans(content: &[u8]) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let mut i = 0;
    while i < content.len() {
        match content[i] {
            b'%' => {
                while i < content.len() && !matches!(content[i], b'\n' | b'\r') {
                    i += 1;
                }
            }
            b'<' if content.get(i + 1) == Some(&b'<') => i += 2,
            b'<' => {
                let end = content[i..]
                    .iter()
                    .position(|b| *b == b'>')
                    .map_or(content.len(), |e| i + e + 1);
                spans.push((i, end));
                i = end;
            }
            b'(' => {
                let start = i;
                let mut depth = 0;
                while i < content.len() {
                    match content[i] {
                        b'\\' => i += 1,
                        b'(' => depth += 1,
                        b')' => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        _ => {}
                    }
                    i += 1;
                }
                i += 1;
                spans.push((start, i.min(content.len())));
            }
            _ => i += 1,
        }
    }
    spans
}

fn encode_string(bytes: &[u8], hex: bool) -> Vec<u8> {
    if hex {
        let mut out = vec![b'<'];
        for b in bytes {
            out.extend_from_slice(format!("{b:02x}").as_bytes());
        }
        out.push(b'>');
        return out;
    }
    let mut out = vec![b'('];
    for b in bytes {
        if matches!(b, b'(' | b')' | b'\\') {
            out.push(b'\\');
        }
        out.push(*b);
    }
    out.push(b')');
    out
}

/// Table rows matched to runs: for each listed row with a balance, its balance run and (when
/// found between the previous row's balance and its own) its amount run.
fn rows_to_runs(text: &Text, statement: &Statement) -> Vec<(usize, usize, Option<usize>)> {
    let money = text.money_runs();
    let mut out = Vec::new();
    let mut at = 0;
    for (index, row) in statement.transactions.iter().enumerate() {
        let Some(balance) = row.balance else {
            continue;
        };
        let Some(mut j) = (at..money.len()).find(|j| money[*j].2 == balance) else {
            continue;
        };
        let amount = row.paid_in.max(row.withdrawn);
        // A row whose amount is its balance (a credit into an empty wallet) prints the value
        // twice, the amount first.
        if amount == balance && money.get(j + 1).is_some_and(|m| m.2 == balance) {
            j += 1;
        }
        let amount_run = (at..j)
            .rev()
            .find(|k| money[*k].2 == amount)
            .map(|k| money[k].0);
        out.push((index, money[j].0, amount_run));
        at = j + 1;
    }
    out
}

/// The figure a naive forger types one digit over.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Typed {
    /// Any digit of a credit's amount.
    Credit,
    /// A digit in the tens or higher of a credit of 10 or more.
    CreditTens,
    /// Any digit of a row's balance.
    Balance,
}

/// One digit of one figure changed, as `typed` says.
fn naive(
    text: &Text,
    statement: &Statement,
    typed: Typed,
    rng: &mut SplitMix64,
) -> Result<Vec<(usize, String)>, String> {
    let rows = rows_to_runs(text, statement);
    let tens = typed == Typed::CreditTens;
    let least = if tens {
        Decimal::TEN
    } else {
        Decimal::ONE / Decimal::ONE_HUNDRED
    };
    let credits: Vec<usize> = if typed == Typed::Balance {
        rows.iter().map(|(_, b, _)| *b).collect()
    } else {
        rows.iter()
            .filter(|(i, _, a)| a.is_some() && statement.transactions[*i].paid_in >= least)
            .filter_map(|(_, _, a)| *a)
            .collect()
    };
    if credits.is_empty() {
        return Err("no figure found among the runs".to_owned());
    }
    let run = credits[rng.below(credits.len())];
    let (start, _) = money_in(&text.runs[run].text).ok_or("not money")?;
    let old: Vec<char> = text.runs[run].text.chars().skip(start).collect();
    // The digits of the whole part but its last (tens and higher), when `tens`.
    let point = old.iter().position(|c| *c == '.').unwrap_or(old.len());
    let digits: Vec<usize> = (0..old.len())
        .filter(|i| old[*i].is_ascii_digit())
        .filter(|i| !tens || *i + 1 < point)
        .collect();
    if digits.is_empty() {
        return Err("no digit to type over".to_owned());
    }
    let at = digits[rng.below(digits.len())];
    let mut new = old.clone();
    let d = old[at].to_digit(10).unwrap_or(0);
    new[at] = char::from_digit((d + 1 + u32::try_from(rng.below(8)).unwrap_or(0)) % 10, 10)
        .unwrap_or('1');
    if at == 0 && new[at] == '0' {
        // A leading zero would change the length: another non-zero digit than the old one.
        new[at] = if d == 9 { '8' } else { '9' };
    }
    Ok(vec![(run, new.into_iter().collect())])
}

/// Raises (in cents) that may keep lengths: whole units first, then cents (Lesotho's latest
/// balances are often a few maloti, where any whole raise soon adds a digit).
const SAME: [i64; 16] = [
    100, 200, 300, 500, 1_000, 2_000, 3_000, 5_000, 10_000, 20_000, 1, 2, 5, 10, 20, 50,
];

/// The careful forger's changes: a credit raised and every figure that must agree (the
/// balances only where `balances`: else the credit and the SUMMARY's total credit).
fn careful(
    text: &Text,
    statement: &Statement,
    longer: bool,
    balances: bool,
    rng: &mut SplitMix64,
) -> Result<Vec<(usize, String)>, String> {
    let rows = rows_to_runs(text, statement);
    let reading = statement.reading();
    let position = |t: &Transaction| reading.rows.iter().position(|r| std::ptr::eq(*r, t));
    let fmt = |run: usize, v: Decimal| styled(&text.runs[run].text, v, text.commas);
    let mut credits: Vec<&(usize, usize, Option<usize>)> = rows
        .iter()
        .filter(|(i, _, a)| a.is_some() && !statement.transactions[*i].paid_in.is_zero())
        .collect();
    if credits.is_empty() {
        return Err("no credit found among the runs".to_owned());
    }
    // The latest credits first: fewer later balances, so the lengths can be kept.
    credits.sort_by_key(|(i, _, _)| std::cmp::Reverse(position(&statement.transactions[*i])));
    for attempt in 0..160 {
        let pool = if attempt < 80 {
            credits.len().min(8)
        } else {
            credits.len()
        };
        let (index, _, amount_run) = *credits[rng.below(pool)];
        let row = &statement.transactions[index];
        let amount = row.paid_in;
        let digits = u32::try_from(amount.trunc().to_string().len()).unwrap_or(1);
        // What a borrower raising income types: the credit's leading digit raised (300 → 900)
        // or a digit put in front (300 → 2,300), by a seeded 1 to 9; where no such raise
        // keeps every figure's length, the small raises of `SAME`.
        let lead = i64::try_from(rng.below(9) + 1).unwrap_or(1);
        let delta = if longer {
            Decimal::from(lead * 10_i64.pow(digits))
        } else if attempt < 40 {
            Decimal::from(lead * 10_i64.pow(digits.saturating_sub(1)))
        } else {
            Decimal::new(SAME[attempt % SAME.len()], 2)
        };
        let amount_run = amount_run.ok_or("no amount run")?;
        let mut changes = vec![(amount_run, fmt(amount_run, amount + delta))];
        let from = position(row).ok_or("row not in the reading")?;
        for (i, balance_run, _) in rows.iter().filter(|_| balances) {
            let t = &statement.transactions[*i];
            if position(t).is_some_and(|p| p >= from) {
                let b = t.balance.unwrap_or_default();
                changes.push((*balance_run, fmt(*balance_run, b + delta)));
            }
        }
        let used: Vec<usize> = changes.iter().map(|(r, _)| *r).collect();
        let money = text.money_runs();
        let summary = |value: Decimal, changes: &mut Vec<(usize, String)>| {
            if let Some((run, _, v)) = money.iter().find(|(r, _, v)| {
                *v == value && !used.contains(r) && !changes.iter().any(|(c, _)| c == r)
            }) {
                changes.push((*run, fmt(*run, *v + delta)));
            }
        };
        if let Some(s) = &statement.summary {
            summary(s.total.paid_in, &mut changes);
        }
        if let Some(b) = statement.balances.as_ref().filter(|_| balances) {
            summary(b.closing, &mut changes);
        }
        let same = changes.iter().all(|(run, new)| {
            money_in(&text.runs[*run].text).is_some_and(|(s, _)| {
                text.runs[*run].text.chars().count() - s == new.chars().count()
            })
        });
        let amount_same = changes.first().is_some_and(|(run, new)| {
            money_in(&text.runs[*run].text).is_some_and(|(s, _)| {
                text.runs[*run].text.chars().count() - s == new.chars().count()
            })
        });
        if (longer && !amount_same) || (!longer && same) {
            return Ok(changes);
        }
    }
    Err("no credit whose raise keeps the lengths asked for".to_owned())
}

/// `text`'s edits written back into `original`: each changed page content stream's data and
/// length replaced in place, the cross-reference offsets moved by as much; nothing else.
fn write_back(original: &[u8], doc: &Document, text: &Text) -> Result<Vec<u8>, String> {
    // (start, end, replacement) in the original bytes.
    let mut splices: Vec<(usize, usize, Vec<u8>)> = Vec::new();
    for (page, (page_id, _)) in text.pages.iter().enumerate() {
        if text.edits[page].is_empty() {
            continue;
        }
        // The page's content is its streams' contents, each followed by a line feed
        // (`Document::get_page_content`): each stream holding an edit is patched on its own.
        let mut from = 0;
        let mut written = 0;
        for contents in doc.get_page_contents(*page_id) {
            let stream = doc
                .get_object(contents)
                .and_then(Object::as_stream)
                .map_err(|e| e.to_string())?;
            let length = stream
                .decompressed_content()
                .map_or(stream.content.len(), |c| c.len());
            let part = from..from + length;
            from += length + 1;
            let (data, edits) = text.patched_part(page, part)?;
            if edits > 0 {
                written += edits;
                splices.extend(write_back_stream(original, doc, contents, stream, data)?);
            }
        }
        if written != text.edits[page].len() {
            return Err("an edit lies in no content stream of its page".to_owned());
        }
    }
    splices.sort_by_key(|s| s.0);
    if splices.windows(2).any(|w| w[0].1 > w[1].0) {
        return Err("two edits write over the same bytes (a stream shared by pages)".to_owned());
    }
    let moved = |offset: usize| -> usize {
        let mut o = offset.cast_signed();
        for (a, b, r) in &splices {
            if *b <= offset {
                o += r.len().cast_signed() - (b - a).cast_signed();
            }
        }
        o.cast_unsigned()
    };
    let mut out = Vec::with_capacity(original.len());
    let mut at = 0;
    for (a, b, r) in &splices {
        out.extend_from_slice(&original[at..*a]);
        out.extend_from_slice(r);
        at = *b;
    }
    out.extend_from_slice(&original[at..]);
    fix_xref(&mut out, moved)?;
    Ok(out)
}

/// The splices (start, end, replacement in `original`) that write `data`, the new decoded
/// content of the stream `contents`, back in place: compressed as the original was, encrypted
/// with the file's own key where it is encrypted, and its `/Length` (direct or indirect).
fn write_back_stream(
    original: &[u8],
    doc: &Document,
    contents: ObjectId,
    stream: &lopdf::Stream,
    mut data: Vec<u8>,
) -> Result<[(usize, usize, Vec<u8>); 2], String> {
    let filters = stream.filters().map_err(|e| e.to_string())?;
    if !filters.is_empty() {
        if filters != [b"FlateDecode".as_slice()] {
            return Err("a content stream filtered otherwise than by Flate alone".to_owned());
        }
        let mut s = lopdf::Stream::new(lopdf::Dictionary::new(), data);
        s.compress().map_err(|e| e.to_string())?;
        // (lopdf leaves a stream that compression would not shorten as it is.)
        if !s.dict.has(b"Filter") {
            return Err("a content stream too short to compress as the original".to_owned());
        }
        data = s.content;
        // The zlib header's level bits as the original's (no reader checks them): a
        // careful forger copies every byte a check could compare.
        if let (Some(old), Some(new)) = (stream.content.get(..2), data.get_mut(..2))
            && old[0] == new[0]
        {
            new.copy_from_slice(old);
        }
    }
    // Encrypted again with the file's own key, as the original's other streams are.
    if let Some(state) = &doc.encryption_state {
        let mut object = Object::Stream(lopdf::Stream::new(stream.dict.clone(), data));
        lopdf::encryption::encrypt_object(state, contents, &mut object)
            .map_err(|e| e.to_string())?;
        let Object::Stream(encrypted) = object else {
            return Err("the encrypted stream is no stream".to_owned());
        };
        data = encrypted.content;
    }
    let start = offset_of(doc, contents)?;
    let body = &original[start..];
    let s = memchr::memmem::find(body, b"stream").ok_or("no stream keyword")? + 6;
    let s = s + match body.get(s..s + 2) {
        Some(b"\r\n") => 2,
        _ => 1,
    };
    let new_len = data.len().to_string().into_bytes();
    // `/Length 123` in the dictionary, or `/Length 13 0 R` and the number in object 13: the
    // stored length (the decrypted content of an encrypted file is not as long).
    let dict = &body[..s];
    let l = memchr::memmem::find(dict, b"/Length").ok_or("no /Length")? + 7;
    let (n0, n1) = number_at(dict, l).ok_or("no length")?;
    let (g0, g1) = number_at(dict, n1).unwrap_or((n1, n1));
    let indirect = dict[g1..].iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'R') && g1 > g0;
    let (at, m0, m1) = if indirect {
        let number = |a: usize, b: usize| -> Option<u32> {
            std::str::from_utf8(&dict[a..b]).ok()?.parse().ok()
        };
        let id = number(n0, n1).ok_or("bad length reference")?;
        let generation = number(g0, g1)
            .and_then(|g| u16::try_from(g).ok())
            .ok_or("bad length reference")?;
        let at = offset_of(doc, (id, generation))?;
        let obj = &original[at..];
        let o = memchr::memmem::find(obj, b"obj").ok_or("no obj")? + 3;
        let (m0, m1) = number_at(obj, o).ok_or("no length")?;
        (at, m0, m1)
    } else {
        (start, n0, n1)
    };
    let old_len: usize = std::str::from_utf8(&original[at + m0..at + m1])
        .ok()
        .and_then(|n| n.parse().ok())
        .ok_or("bad length")?;
    // The stored length must end where the stream does (a reader recovers from a wrong one).
    let after = body
        .get(s + old_len..)
        .ok_or("a length past the file's end")?;
    let after = after
        .strip_prefix(b"\r\n")
        .or_else(|| after.strip_prefix(b"\n"))
        .or_else(|| after.strip_prefix(b"\r"))
        .unwrap_or(after);
    if !after.starts_with(b"endstream") {
        return Err("the stored /Length does not end at `endstream`".to_owned());
    }
    Ok([
        (start + s, start + s + old_len, data),
        (at + m0, at + m1, new_len),
    ])
}

/// Moves every in-use entry of the file's classic cross-reference table by `moved` and points
/// `startxref` at the table.
fn fix_xref(out: &mut Vec<u8>, moved: impl Fn(usize) -> usize) -> Result<(), String> {
    // The classic cross-reference table: every in-use entry's offset moved.
    let xref = memchr::memmem::rfind(out, b"\nxref").ok_or("no classic cross-reference table")? + 1;
    let trailer = memchr::memmem::find(&out[xref..], b"trailer").ok_or("no trailer")? + xref;
    let mut i = xref + 4;
    while i + 20 <= trailer {
        let line = &out[i..i + 20];
        if line[10] == b' ' && line[16] == b' ' && matches!(line[17], b'n' | b'f') {
            if line[17] == b'n' {
                let old: usize = std::str::from_utf8(&line[..10])
                    .ok()
                    .and_then(|s| s.parse().ok())
                    .unwrap_or(0);
                let new = format!("{:010}", moved(old));
                out[i..i + 10].copy_from_slice(new.as_bytes());
            }
            i += 20;
        } else {
            i += 1;
        }
    }
    let sx = memchr::memmem::rfind(out, b"startxref").ok_or("no startxref")? + 9;
    let n0 = sx
        + out[sx..]
            .iter()
            .position(u8::is_ascii_digit)
            .ok_or("no startxref offset")?;
    let n1 = n0
        + out[n0..]
            .iter()
            .position(|b| !b.is_ascii_digit())
            .unwrap_or(0);
    out.splice(n0..n1, xref.to_string().into_bytes());
    Ok(())
}

/// The span of the first run of digits at or after `from` (white space before it only).
fn number_at(bytes: &[u8], from: usize) -> Option<(usize, usize)> {
    let n0 = from
        + bytes
            .get(from..)?
            .iter()
            .position(|b| !b.is_ascii_whitespace())?;
    let n1 = n0
        + bytes[n0..]
            .iter()
            .position(|b| !b.is_ascii_digit())
            .unwrap_or(bytes.len() - n0);
    (n1 > n0).then_some((n0, n1))
}

fn offset_of(doc: &Document, id: ObjectId) -> Result<usize, String> {
    match doc.reference_table.entries.get(&id.0) {
        Some(lopdf::xref::XrefEntry::Normal { offset, generation }) if *generation == id.1 => {
            usize::try_from(*offset).map_err(|e| e.to_string())
        }
        _ => Err("object not in a classic cross-reference table".to_owned()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn money_is_read_at_the_end_of_a_run_and_formatted_back() {
        assert_eq!(
            money_in("Ugx 25,111.80").map(|(s, v)| (s, v.to_string())),
            Some((4, "25111.80".to_owned()))
        );
        assert_eq!(money_in("300.00").map(|(s, _)| s), Some(0));
        assert!(money_in("Total").is_none());
        assert_eq!(format_money(Decimal::new(2_511_180, 2), true), "25,111.80");
        assert_eq!(format_money(Decimal::from(300), false), "300.00");
        assert_eq!(
            string_spans(b"<< /MCID 0 >> BDC <0001> Tj (a\\)b) Tj"),
            vec![(18, 24), (28, 34)]
        );
    }

    #[test]
    fn a_moved_string_gets_a_new_start_in_its_tm_or_td() {
        let tm = with_start(b"ET\nBT\n1 0 0 1 467.94 753 Tm\n/F1 6 Tf\n", 461.30);
        assert_eq!(
            tm.as_deref(),
            Ok(&b"ET\nBT\n1 0 0 1 461.3 753 Tm\n/F1 6 Tf\n"[..])
        );
        // A start as computed (467.94 less two digits of 3.336 pt) keeps its thousandths.
        let computed = with_start(b"1 0 0 1 467.94 753 Tm\n", 467.94 - 2.0 * 3.336);
        assert_eq!(computed.as_deref(), Ok(&b"1 0 0 1 461.268 753 Tm\n"[..]));
        let td = with_start(b"BT\n530.3 492 Td\n", 526.0);
        assert_eq!(td.as_deref(), Ok(&b"BT\n526 492 Td\n"[..]));
        assert!(with_start(b"BT\n/F1 6 Tf\n", 1.0).is_err());
    }
}
