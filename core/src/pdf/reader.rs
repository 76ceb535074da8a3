//! The statement's own text reader: each page's content stream read once, straight from the
//! opened document, for the operators that place text (`BT ET q Q cm Tm Td TD T* Tc Tw Tz TL
//! Ts Tf Tj TJ ' "`), with each font read once per document ([`fonts`](super::fonts)).
//!
//! It computes every character's position with the same arithmetic as `pdf-extract` 0.12's
//! interpreter (ISO 32000-1 §9.4.4: `Trm = Tsm × Tm × CTM`, advances `tx = Th · (w0 · Tfs +
//! Tc + Tw)`), operator for operator (the engine read through `pdf-extract` until issue 37,
//! and a test compared both readers to the bit on every real statement before it was
//! removed); what it does not read (a font kind outside [`fonts`](super::fonts), a Form
//! `XObject`, an inline image, a string it cannot lex) makes [`extract`] return `Ok(false)`
//! and the caller refuses the document. Pages are read in parallel
//! (`crate::parallel`), in batches.
//!
//! Operators with malformed operands are skipped; `q` nesting deeper than
//! [`MAX_STATE_DEPTH`] is ignored with its `Q`. How the glyphs were placed, against the way
//! Airtel's writer places them, is [`super::placement`]'s.
//!
//! One file over the usual 400 lines: the interpreter is one state machine whose operators
//! share its state, read as a whole against §9.4.

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use lopdf::{Dictionary, Document, Object, ObjectId};

use super::fonts::{Font, Unsupported};
use super::glyphs::{
    Glyph, MAX_GLYPHS_PER_PAGE, MAX_GLYPHS_TOTAL, Page, PageFull, group_lines, place,
    too_many_glyphs,
};
use super::lexer::{Lexer, Token};
use super::load::{
    has_subtype, inherited, media_box_numbers, resolve, sub_dict, too_large_stream, too_large_total,
};
use super::placement::Placement;
use crate::error::{Error, Result};
use crate::parallel;

/// Deepest `q` nesting kept.
const MAX_STATE_DEPTH: usize = 64;

/// A 2-D affine matrix `[a b c d e f]`, row-vector convention (`euclid`'s `Transform2D`).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Matrix([f64; 6]);

impl Matrix {
    const IDENTITY: Matrix = Matrix([1.0, 0.0, 0.0, 1.0, 0.0, 0.0]);

    fn translation(x: f64, y: f64) -> Matrix {
        Matrix([1.0, 0.0, 0.0, 1.0, x, y])
    }

    /// `self × m`, with `euclid` 0.20's `post_transform` arithmetic.
    fn then(&self, m: &Matrix) -> Matrix {
        let [a11, a12, a21, a22, a31, a32] = self.0;
        let [b11, b12, b21, b22, b31, b32] = m.0;
        Matrix([
            a11 * b11 + a12 * b21,
            a11 * b12 + a12 * b22,
            a21 * b11 + a22 * b21,
            a21 * b12 + a22 * b22,
            a31 * b11 + a32 * b21 + b31,
            a31 * b12 + a32 * b22 + b32,
        ])
    }
}

/// Text state (§9.3) and the CTM: what `q` saves and `Q` restores.
#[derive(Debug, Clone)]
struct State {
    ctm: Matrix,
    tm: Matrix,
    font: Option<usize>,
    size: f64,
    char_spacing: f64,
    word_spacing: f64,
    scaling: f64,
    leading: f64,
    rise: f64,
}

/// The fonts of a document, loaded once, and each page's font names.
struct Fonts {
    loaded: Vec<Font>,
    by_id: HashMap<ObjectId, usize>,
}

/// Page height in points, from `/MediaBox` (`f32` numbers, as `pdf-extract` read it).
fn page_height(doc: &Document, page_id: ObjectId) -> f64 {
    let [_, lly, _, ury] = media_box_numbers(doc, page_id);
    f64::from(ury) - f64::from(lly)
}

/// A page's fonts by resource name (`/F1` → index into [`Fonts::loaded`]), loading fonts not
/// seen before.
fn page_fonts(
    doc: &Document,
    resources: Option<&Dictionary>,
    fonts: &mut Fonts,
    max_stream: usize,
) -> std::result::Result<BTreeMap<Vec<u8>, usize>, Unsupported> {
    let mut names = BTreeMap::new();
    let Some(dict) = resources.and_then(|r| sub_dict(doc, r, b"Font")) else {
        return Ok(names);
    };
    for (name, value) in dict {
        let index = match value {
            Object::Reference(id) => match fonts.by_id.get(id) {
                Some(i) => Some(*i),
                None => match doc.get_dictionary(*id) {
                    Ok(font) => {
                        fonts.loaded.push(Font::load(doc, font, max_stream)?);
                        fonts.by_id.insert(*id, fonts.loaded.len() - 1);
                        Some(fonts.loaded.len() - 1)
                    }
                    Err(_) => None,
                },
            },
            Object::Dictionary(font) => {
                fonts.loaded.push(Font::load(doc, font, max_stream)?);
                Some(fonts.loaded.len() - 1)
            }
            _ => None,
        };
        if let Some(index) = index {
            names.insert(name.clone(), index);
        }
    }
    Ok(names)
}

/// A page to read: number, object, fonts by name, height, and the names of its
/// Form `XObject`s (drawing one ends the fast path).
struct PageJob {
    number: u32,
    page_id: ObjectId,
    fonts: BTreeMap<Vec<u8>, usize>,
    forms: Vec<Vec<u8>>,
    height: f64,
}

fn form_names(doc: &Document, resources: Option<&Dictionary>) -> Vec<Vec<u8>> {
    let Some(xobjects) = resources.and_then(|r| sub_dict(doc, r, b"XObject")) else {
        return Vec::new();
    };
    xobjects
        .iter()
        .filter(|(_, v)| {
            resolve(doc, v)
                .as_stream()
                .is_ok_and(|s| has_subtype(&s.dict, b"Form"))
        })
        .map(|(k, _)| k.clone())
        .collect()
}

/// A page's content streams, decoded (each bounded by `max_stream`) and joined by newlines.
fn page_content(
    doc: &Document,
    page_id: ObjectId,
    number: u32,
    max_stream: usize,
) -> Result<Vec<u8>> {
    let mut content = Vec::new();
    for id in doc.get_page_contents(page_id) {
        let Ok(stream) = doc.get_object(id).and_then(Object::as_stream) else {
            continue;
        };
        if stream.filters().is_ok_and(|f| !f.is_empty()) {
            match stream.decompressed_content_with_limit(max_stream) {
                Ok(data) => content.extend_from_slice(&data),
                Err(lopdf::Error::Decompress(lopdf::DecompressError::MemoryLimitExceeded {
                    limit,
                })) => return Err(too_large_stream(limit)),
                Err(e) => {
                    return Err(Error::malformed(
                        number,
                        0,
                        format!("a content stream of page {number} cannot be decoded: {e}"),
                    ));
                }
            }
        } else {
            content.extend_from_slice(&stream.content);
        }
        content.push(b'\n');
    }
    Ok(content)
}

/// Pages read at a time by [`extract`]: enough for both threads of the pool, few enough that
/// their characters (about 90 KB a page in Safaricom's layouts) stay small. Holding every
/// page's characters until the rows were read was 10 of the 18 MB a 117-page statement
/// needed at its peak (heaptrack, 2026-11-25).
pub(crate) const PAGES_PER_BATCH: usize = 16;

/// Reads the characters of every page of `doc` (opened and decrypted) and hands each page to
/// `each`, in page order, a batch of [`PAGES_PER_BATCH`] pages at a time; `Ok(false)` when
/// the document is drawn in a way this reader does not read (see the module documentation),
/// after which `each` gets no further page (the pages it had are to be discarded). `max_stream` bounds each
/// decoded stream, `total_budget` all of them together.
///
/// # Errors
/// - `ErrorKind::TooLarge`: a stream or all of them decode beyond their bounds, or a page or
///   the document draws more characters than `MAX_GLYPHS_PER_PAGE` / `MAX_GLYPHS_TOTAL`.
/// - `ErrorKind::Malformed`: a content stream cannot be decoded.
pub(super) fn extract(
    doc: &Document,
    page_ids: &[ObjectId],
    max_stream: usize,
    total_budget: u64,
    mut each: impl FnMut(Page),
) -> Result<bool> {
    let mut fonts = Fonts {
        loaded: Vec::new(),
        by_id: HashMap::new(),
    };
    let mut jobs = Vec::with_capacity(page_ids.len());
    for (index, page_id) in page_ids.iter().enumerate() {
        let number = u32::try_from(index + 1).unwrap_or(u32::MAX);
        let resources =
            inherited(doc, *page_id, b"Resources").and_then(|r| resolve(doc, r).as_dict().ok());
        let Ok(page_fonts) = page_fonts(doc, resources, &mut fonts, max_stream) else {
            return Ok(false);
        };
        jobs.push(PageJob {
            number,
            page_id: *page_id,
            fonts: page_fonts,
            forms: form_names(doc, resources),
            height: page_height(doc, *page_id),
        });
    }
    let count = AtomicUsize::new(0);
    let decoded = AtomicU64::new(0);
    for batch in jobs.chunks(PAGES_PER_BATCH) {
        let pages = parallel::map(batch, |job| {
            let content = page_content(doc, job.page_id, job.number, max_stream)?;
            let total =
                decoded.fetch_add(content.len() as u64, Ordering::Relaxed) + content.len() as u64;
            if total > total_budget {
                return Err(too_large_total(total_budget));
            }
            read_page(job, &content, &fonts.loaded, &count)
        });
        for page in pages {
            match page? {
                Some(page) => each(page),
                None => return Ok(false),
            }
        }
    }
    Ok(true)
}

/// Reads one page; `Ok(None)` when it draws text in a way this reader does not read.
fn read_page(
    job: &PageJob,
    content: &[u8],
    fonts: &[Font],
    total: &AtomicUsize,
) -> Result<Option<Page>> {
    if total.load(Ordering::Relaxed) > MAX_GLYPHS_TOTAL {
        return Err(too_many_glyphs("the PDF", MAX_GLYPHS_TOTAL));
    }
    let mut page = PageReader {
        fonts,
        page_fonts: &job.fonts,
        forms: &job.forms,
        height: job.height,
        // About one character per 16 bytes of content in Safaricom's layouts.
        glyphs: Vec::with_capacity((content.len() / 16).min(MAX_GLYPHS_PER_PAGE)),
        number: job.number,
        placement: Placement::default(),
    };
    match page.run(content) {
        Ok(()) => {}
        Err(Stop::Unsupported) => return Ok(None),
        Err(Stop::Error(e)) => return Err(e),
    }
    let count = page.glyphs.len();
    if total.fetch_add(count, Ordering::Relaxed) + count > MAX_GLYPHS_TOTAL {
        return Err(too_many_glyphs("the PDF", MAX_GLYPHS_TOTAL));
    }
    Ok(Some(Page {
        number: job.number,
        lines: group_lines(page.glyphs),
        joined_glyph_strings: page.placement.joined(),
        placed_otherwise: page.placement.otherwise(),
        first_drawn: page.placement.first_drawn(),
    }))
}

/// The states `q` saved, and how many `q` beyond [`MAX_STATE_DEPTH`] were ignored.
#[derive(Default)]
struct Saved {
    states: Vec<State>,
    skipped: usize,
}

/// Why a page stopped early.
enum Stop {
    Unsupported,
    Error(Error),
}

impl From<Unsupported> for Stop {
    fn from(_: Unsupported) -> Self {
        Stop::Unsupported
    }
}

struct PageReader<'a> {
    fonts: &'a [Font],
    page_fonts: &'a BTreeMap<Vec<u8>, usize>,
    forms: &'a [Vec<u8>],
    height: f64,
    glyphs: Vec<Glyph>,
    number: u32,
    /// How its glyphs were placed, against Qt's way (see [`Page::joined_glyph_strings`] and
    /// [`Page::placed_otherwise`]).
    placement: Placement,
}

fn numbers<const N: usize>(operands: &[Token<'_>]) -> Option<[f64; N]> {
    if operands.len() != N {
        return None;
    }
    let mut out = [0.0; N];
    for (o, v) in out.iter_mut().zip(operands) {
        match v {
            Token::Number(n) if n.is_finite() => *o = *n,
            _ => return None,
        }
    }
    Some(out)
}

impl PageReader<'_> {
    fn run(&mut self, content: &[u8]) -> std::result::Result<(), Stop> {
        let mut lexer = Lexer::new(content);
        let mut strings: Vec<u8> = Vec::new();
        let mut operands: Vec<Token<'_>> = Vec::new();
        let mut state = State {
            ctm: Matrix::IDENTITY,
            tm: Matrix::IDENTITY,
            font: None,
            size: f64::NAN,
            char_spacing: 0.0,
            word_spacing: 0.0,
            scaling: 1.0,
            leading: 0.0,
            rise: 0.0,
        };
        let mut saved = Saved::default();
        let mut tlm = Matrix::IDENTITY;
        while let Some(token) = lexer.next(&mut strings)? {
            if let Token::Operator(op) = token {
                self.operator(op, &operands, &strings, &mut state, &mut saved, &mut tlm)?;
                operands.clear();
                strings.clear();
            } else {
                operands.push(token);
            }
        }
        Ok(())
    }

    /// Applies one operator to the state (see the module documentation for which).
    fn operator(
        &mut self,
        operator: &[u8],
        operands: &[Token<'_>],
        strings: &[u8],
        state: &mut State,
        saved: &mut Saved,
        tlm: &mut Matrix,
    ) -> std::result::Result<(), Stop> {
        let td = (operator == b"Td")
            .then(|| numbers::<2>(operands))
            .flatten()
            .map(|[tx, ty]| (tx, ty));
        self.placement.operator(operator, td);
        match operator {
            b"BT" | b"ET" => {
                *tlm = Matrix::IDENTITY;
                state.tm = *tlm;
            }
            b"q" if saved.states.len() < MAX_STATE_DEPTH => saved.states.push(state.clone()),
            b"q" => saved.skipped += 1,
            b"Q" if saved.skipped > 0 => saved.skipped -= 1,
            b"Q" => {
                if let Some(previous) = saved.states.pop() {
                    *state = previous;
                }
            }
            b"cm" => {
                if let Some(m) = numbers::<6>(operands) {
                    state.ctm = Matrix(m).then(&state.ctm);
                }
            }
            b"Tm" => {
                if let Some(m) = numbers::<6>(operands) {
                    *tlm = Matrix(m);
                    state.tm = *tlm;
                }
            }
            b"Td" | b"TD" => {
                if let Some([tx, ty]) = numbers::<2>(operands) {
                    if operator == b"TD" {
                        state.leading = -ty;
                    }
                    *tlm = Matrix::translation(tx, ty).then(tlm);
                    state.tm = *tlm;
                }
            }
            b"T*" => next_line(state, tlm),
            b"Tc" | b"Tw" | b"Tz" | b"TL" | b"Ts" => {
                if let Some([v]) = numbers::<1>(operands) {
                    match operator {
                        b"Tc" => state.char_spacing = v,
                        b"Tw" => state.word_spacing = v,
                        b"Tz" => state.scaling = v / 100.0,
                        b"TL" => state.leading = v,
                        _ => state.rise = v,
                    }
                }
            }
            b"Tf" => self.set_font(state, operands),
            b"Tj" => {
                if let (Some(font), [Token::String(a, b)]) = (state.font, operands) {
                    self.show(state, font, &strings[*a..*b])?;
                }
            }
            b"'" => {
                if let (Some(font), [Token::String(a, b)]) = (state.font, operands) {
                    next_line(state, tlm);
                    self.show(state, font, &strings[*a..*b])?;
                }
            }
            b"\"" => {
                if let (Some(font), [Token::Number(w), Token::Number(c), Token::String(a, b)]) =
                    (state.font, operands)
                    && w.is_finite()
                    && c.is_finite()
                {
                    state.word_spacing = *w;
                    state.char_spacing = *c;
                    next_line(state, tlm);
                    self.show(state, font, &strings[*a..*b])?;
                }
            }
            b"TJ" => {
                if let Some(font) = state.font {
                    self.show_array(state, font, operands, strings)?;
                }
            }
            // A Form XObject is drawn with its own resources and state: not read.
            // (Images draw no text.)
            b"Do" => {
                if let [Token::Name(name)] = operands
                    && self.forms.iter().any(|f| f == name)
                {
                    return Err(Stop::Unsupported);
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// `Tf`: a font of the page's resources and its size; a font name the page does not
    /// have leaves no font (what follows draws nothing until the next good `Tf`).
    fn set_font(&self, state: &mut State, operands: &[Token<'_>]) {
        state.font = match operands {
            [Token::Name(name), Token::Number(size)] if size.is_finite() => {
                let font = self.page_fonts.get(*name).copied();
                if font.is_some() {
                    state.size = *size;
                }
                font
            }
            _ => None,
        };
    }

    /// `TJ`: strings shown, numbers moving the text matrix; other items ignored. Exactly one
    /// array operand, else nothing happens.
    fn show_array(
        &mut self,
        state: &mut State,
        font: usize,
        operands: &[Token<'_>],
        strings: &[u8],
    ) -> std::result::Result<(), Stop> {
        let Some((Token::ArrayStart, rest)) = operands.split_first() else {
            return Ok(());
        };
        let Some((Token::ArrayEnd, items)) = rest.split_last() else {
            return Ok(());
        };
        // One well-formed array: nested arrays balanced, never closing the outer one.
        let mut depth = 0usize;
        for item in items {
            match item {
                Token::ArrayStart => depth += 1,
                Token::ArrayEnd if depth == 0 => return Ok(()),
                Token::ArrayEnd => depth -= 1,
                _ => {}
            }
        }
        if depth != 0 {
            return Ok(());
        }
        for item in items {
            match item {
                Token::ArrayStart => depth += 1,
                Token::ArrayEnd => depth -= 1,
                _ if depth > 0 => {}
                Token::String(a, b) => self.show(state, font, &strings[*a..*b])?,
                Token::Number(n) if n.is_finite() => {
                    let tx = state.scaling * ((0.0 - n / 1000.0) * state.size);
                    state.tm = Matrix::translation(tx, 0.0).then(&state.tm);
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// Shows `bytes` in `font` (§9.4.4), one [`Glyph`] per character.
    fn show(
        &mut self,
        state: &mut State,
        font: usize,
        bytes: &[u8],
    ) -> std::result::Result<(), Stop> {
        let index = font;
        let font = &self.fonts[font];
        let mut shown: (usize, u32, &[char]) = (0, 0, &[]);
        for (code, single_byte) in font.codes(bytes) {
            let (width, text) = font.glyph(code)?;
            let tsm = Matrix([state.scaling, 0.0, 0.0, 1.0, 0.0, state.rise]);
            let trm = tsm.then(&state.tm.then(&state.ctm));
            let w0 = width / 1000.0;
            let mut spacing = state.char_spacing;
            if code == 32 && single_byte {
                spacing += state.word_spacing;
            }
            self.output(&trm, w0, state.size, text)?;
            let tx = state.scaling * (w0 * state.size + spacing);
            state.tm = Matrix::translation(tx, 0.0).then(&state.tm);
            shown = (shown.0 + 1, code, text);
        }
        let (codes, last, text) = shown;
        if font.is_two_byte() && codes == 1 {
            self.placement.drawn(index, last);
        }
        self.placement
            .shown(font.is_two_byte(), codes, (index, last, state.size), text);
        Ok(())
    }

    /// Keeps one drawn glyph's characters (see [`place`]).
    fn output(
        &mut self,
        trm: &Matrix,
        width: f64,
        font_size: f64,
        text: &[char],
    ) -> std::result::Result<(), Stop> {
        place(
            &mut self.glyphs,
            self.height,
            trm.0,
            width,
            font_size,
            text.iter().copied(),
        )
        .map_err(|PageFull| {
            let number = self.number;
            Stop::Error(too_many_glyphs(
                &format!("page {number}"),
                MAX_GLYPHS_PER_PAGE,
            ))
        })
    }
}

/// `T*`: the start of the next line, `leading` below.
fn next_line(state: &mut State, tlm: &mut Matrix) {
    *tlm = Matrix::translation(0.0, -state.leading).then(tlm);
    state.tm = *tlm;
}
