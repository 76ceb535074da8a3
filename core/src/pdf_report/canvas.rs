//! A small drawing layer: pages of display operations in points (1/72 inch, origin at the top
//! left, y growing downwards), text measurement with the embedded fonts, and the conversion of
//! the finished pages into PDF bytes with krilla.
//!
//! (Over 400 lines: one drawing layer, its operations beside their krilla rendering, so that a
//! new shape or style is added in one place.)

// Geometry reads best with its usual one-letter names (x, y, w, h, r).
#![allow(clippy::many_single_char_names)]

use std::f32::consts::FRAC_PI_2;
use std::sync::LazyLock;

use krilla::Document;
use krilla::color::rgb;
use krilla::geom::{PathBuilder, Point};
use krilla::metadata::Metadata;
use krilla::num::NormalizedF32;
use krilla::page::PageSettings;
use krilla::paint::{Fill, FillRule, LineCap, LineJoin, Stroke, StrokeDash};
use krilla::text::{Font, TextDirection};

use crate::error::{Error, ErrorKind, Result};

/// A4 width in points.
pub(crate) const PAGE_W: f32 = 595.28;
/// A4 height in points.
pub(crate) const PAGE_H: f32 = 841.89;

/// `DejaVu` Sans (Bitstream Vera licence, see `core/assets/fonts/LICENSE`).
static REGULAR_TTF: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");
/// `DejaVu` Sans Bold.
static BOLD_TTF: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans-Bold.ttf");

/// The two faces, parsed once per process: krilla's handles for drawing (it embeds a subset of
/// each) and ttf-parser's for measuring.
pub(crate) struct Fonts {
    regular: Font,
    bold: Font,
    regular_face: ttf_parser::Face<'static>,
    bold_face: ttf_parser::Face<'static>,
}

static FONTS: LazyLock<Option<Fonts>> = LazyLock::new(|| {
    Some(Fonts {
        regular: Font::new(REGULAR_TTF.into(), 0)?,
        bold: Font::new(BOLD_TTF.into(), 0)?,
        regular_face: ttf_parser::Face::parse(REGULAR_TTF, 0).ok()?,
        bold_face: ttf_parser::Face::parse(BOLD_TTF, 0).ok()?,
    })
});

/// The embedded fonts.
///
/// # Errors
/// `ErrorKind::Io` if the embedded font files cannot be read (a broken build).
pub(crate) fn fonts() -> Result<&'static Fonts> {
    FONTS
        .as_ref()
        .ok_or_else(|| Error::new(ErrorKind::Io, "the embedded report font cannot be read"))
}

/// Font weight of a text run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Weight {
    /// `DejaVu` Sans.
    Regular,
    /// `DejaVu` Sans Bold.
    Bold,
}

/// An sRGB colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Rgb(pub u8, pub u8, pub u8);

impl Rgb {
    /// `0xRRGGBB`.
    pub(crate) const fn hex(v: u32) -> Self {
        Self((v >> 16) as u8, (v >> 8) as u8, v as u8)
    }

    /// This colour mixed with white: `amount` 0 = unchanged, 1 = white.
    pub(crate) fn tint(self, amount: f32) -> Self {
        let mix = |c: u8| (f32::from(c) + (255.0 - f32::from(c)) * amount.clamp(0.0, 1.0)) as u8;
        Self(mix(self.0), mix(self.1), mix(self.2))
    }
}

/// A geometric shape, in points.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Shape {
    /// A rectangle with corner radius `r` (0 for square corners).
    Rect {
        x: f32,
        y: f32,
        w: f32,
        h: f32,
        r: f32,
    },
    /// A straight segment.
    Line { x1: f32, y1: f32, x2: f32, y2: f32 },
    /// A circular arc, angles in radians counter-clockwise from 3 o'clock (as on paper, not
    /// as in y-down coordinates), from `start` to `end`.
    Arc {
        cx: f32,
        cy: f32,
        r: f32,
        start: f32,
        end: f32,
    },
    /// A closed polygon.
    Polygon(Vec<(f32, f32)>),
}

/// How a shape's outline is drawn.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Pen {
    /// Line width in points.
    pub width: f32,
    /// Colour.
    pub color: Rgb,
    /// Round caps instead of butt caps.
    pub round: bool,
    /// Dashed (2 on, 2 off).
    pub dashed: bool,
}

impl Pen {
    /// A solid pen with butt caps.
    pub(crate) fn solid(width: f32, color: Rgb) -> Self {
        Self {
            width,
            color,
            round: false,
            dashed: false,
        }
    }
}

/// One drawing operation.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Op {
    /// Fill a shape.
    Fill(Shape, Rgb),
    /// Stroke a shape.
    Stroke(Shape, Pen),
    /// One line of text; `y` is the baseline.
    Text {
        x: f32,
        y: f32,
        size: f32,
        weight: Weight,
        color: Rgb,
        text: String,
    },
}

/// Horizontal alignment of a text run relative to its `x`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Align {
    /// `x` is the left edge.
    Left,
    /// `x` is the centre.
    Center,
    /// `x` is the right edge.
    Right,
}

/// A text style.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Style {
    /// Size in points.
    pub size: f32,
    /// Weight.
    pub weight: Weight,
    /// Colour.
    pub color: Rgb,
}

impl Style {
    /// A regular style.
    pub(crate) const fn regular(size: f32, color: Rgb) -> Self {
        Self {
            size,
            weight: Weight::Regular,
            color,
        }
    }

    /// A bold style.
    pub(crate) const fn bold(size: f32, color: Rgb) -> Self {
        Self {
            size,
            weight: Weight::Bold,
            color,
        }
    }
}

/// Pages of operations plus the fonts to measure with.
pub(crate) struct Canvas {
    fonts: &'static Fonts,
    pages: Vec<Vec<Op>>,
}

impl Canvas {
    /// An empty canvas with one page.
    pub(crate) fn new(fonts: &'static Fonts) -> Self {
        Self {
            fonts,
            pages: vec![Vec::new()],
        }
    }

    /// Starts a new page; later operations go to it.
    pub(crate) fn new_page(&mut self) {
        self.pages.push(Vec::new());
    }

    /// Number of pages so far.
    pub(crate) fn page_count(&self) -> usize {
        self.pages.len()
    }

    /// Appends operations to page `index` (0-based); ignored for a page that does not exist.
    pub(crate) fn push_to(&mut self, index: usize, op: Op) {
        if let Some(page) = self.pages.get_mut(index) {
            page.push(op);
        }
    }

    fn push(&mut self, op: Op) {
        if let Some(page) = self.pages.last_mut() {
            page.push(op);
        }
    }

    /// Fills a shape.
    pub(crate) fn fill(&mut self, shape: Shape, color: Rgb) {
        self.push(Op::Fill(shape, color));
    }

    /// Strokes a shape.
    pub(crate) fn stroke(&mut self, shape: Shape, pen: Pen) {
        self.push(Op::Stroke(shape, pen));
    }

    /// Fills a rectangle with corner radius `r`.
    pub(crate) fn rect(&mut self, (x, y, w, h): (f32, f32, f32, f32), r: f32, color: Rgb) {
        if w > 0.0 && h > 0.0 {
            self.fill(Shape::Rect { x, y, w, h, r }, color);
        }
    }

    /// A horizontal rule.
    pub(crate) fn hline(&mut self, x1: f32, x2: f32, y: f32, pen: Pen) {
        self.stroke(
            Shape::Line {
                x1,
                y1: y,
                x2,
                y2: y,
            },
            pen,
        );
    }

    /// Draws one line of text aligned on `x`, baseline `y`. Returns its width.
    pub(crate) fn text(&mut self, x: f32, y: f32, align: Align, style: Style, text: &str) -> f32 {
        if text.is_empty() {
            return 0.0;
        }
        let w = self.width(text, style.size, style.weight);
        let x = match align {
            Align::Left => x,
            Align::Center => x - w / 2.0,
            Align::Right => x - w,
        };
        self.push(Op::Text {
            x,
            y,
            size: style.size,
            weight: style.weight,
            color: style.color,
            text: text.to_owned(),
        });
        w
    }

    /// Like [`Canvas::text`] but shortened with an ellipsis to fit `max_w`.
    pub(crate) fn text_fit(
        &mut self,
        x: f32,
        y: f32,
        align: Align,
        style: Style,
        text: &str,
        max_w: f32,
    ) -> f32 {
        let fitted = self.ellipsize(text, style.size, style.weight, max_w);
        self.text(x, y, align, style, &fitted)
    }

    /// Like [`Canvas::text_fit`], but first shrinks the size (down to `min_size`) to avoid
    /// cutting the text.
    pub(crate) fn text_shrink(
        &mut self,
        (x, y): (f32, f32),
        style: Style,
        text: &str,
        max_w: f32,
        min_size: f32,
    ) -> f32 {
        let mut style = style;
        while style.size > min_size && self.width(text, style.size, style.weight) > max_w {
            style.size = (style.size - 0.5).max(min_size);
        }
        self.text_fit(x, y, Align::Left, style, text, max_w)
    }

    /// Width of `text` in points (advance widths, no kerning).
    pub(crate) fn width(&self, text: &str, size: f32, weight: Weight) -> f32 {
        let face = match weight {
            Weight::Regular => &self.fonts.regular_face,
            Weight::Bold => &self.fonts.bold_face,
        };
        let upem = f32::from(face.units_per_em().max(1));
        let units: u32 = text
            .chars()
            .map(|c| {
                let glyph = face.glyph_index(c).unwrap_or(ttf_parser::GlyphId(0));
                u32::from(face.glyph_hor_advance(glyph).unwrap_or(0))
            })
            .sum();
        units as f32 * size / upem
    }

    /// `text` cut to fit `max_w`, with `…` when cut.
    pub(crate) fn ellipsize(&self, text: &str, size: f32, weight: Weight, max_w: f32) -> String {
        if self.width(text, size, weight) <= max_w {
            return text.to_owned();
        }
        let ellipsis_w = self.width("…", size, weight);
        let mut out = String::new();
        let mut w = 0.0;
        for c in text.chars() {
            let cw = self.width(c.encode_utf8(&mut [0; 4]), size, weight);
            if w + cw + ellipsis_w > max_w {
                break;
            }
            out.push(c);
            w += cw;
        }
        format!("{}…", out.trim_end())
    }

    /// Greedy word wrap of `text` into lines no wider than `max_w`; words longer than a line
    /// are broken between characters. At most `max_lines` lines; the last one is ellipsized if
    /// text remains.
    pub(crate) fn wrap(
        &self,
        text: &str,
        size: f32,
        weight: Weight,
        max_w: f32,
        max_lines: usize,
    ) -> Vec<String> {
        let mut lines: Vec<String> = Vec::new();
        let mut current = String::new();
        for word in text.split(' ').filter(|w| !w.is_empty()) {
            let candidate = if current.is_empty() {
                word.to_owned()
            } else {
                format!("{current} {word}")
            };
            if self.width(&candidate, size, weight) <= max_w {
                current = candidate;
                continue;
            }
            if !current.is_empty() {
                lines.push(std::mem::take(&mut current));
            }
            // The word alone: break it between characters if it is too long for a line.
            for c in word.chars() {
                let mut next = current.clone();
                next.push(c);
                if !current.is_empty() && self.width(&next, size, weight) > max_w {
                    lines.push(std::mem::take(&mut current));
                    current.push(c);
                } else {
                    current = next;
                }
            }
        }
        if !current.is_empty() {
            lines.push(current);
        }
        if lines.len() > max_lines.max(1) {
            let keep = max_lines.max(1);
            let rest = lines[keep - 1..].join(" ");
            lines.truncate(keep - 1);
            lines.push(self.ellipsize(&format!("{rest} …"), size, weight, max_w));
        }
        lines
    }

    /// Converts the pages into PDF bytes.
    ///
    /// # Errors
    /// `ErrorKind::Io` when krilla cannot write the document (font embedding).
    pub(crate) fn finish(self, metadata: Metadata) -> Result<Vec<u8>> {
        let mut document = Document::new();
        document.set_metadata(metadata);
        let settings = PageSettings::from_wh(PAGE_W, PAGE_H)
            .ok_or_else(|| Error::new(ErrorKind::Io, "invalid page size"))?;
        for ops in &self.pages {
            let mut page = document.start_page_with(settings.clone());
            let mut surface = page.surface();
            for op in ops {
                draw(&mut surface, op, self.fonts);
            }
            surface.finish();
            page.finish();
        }
        document
            .finish()
            .map_err(|e| Error::new(ErrorKind::Io, format!("cannot write the PDF report: {e:?}")))
    }
}

fn krilla_color(c: Rgb) -> rgb::Color {
    rgb::Color::new(c.0, c.1, c.2)
}

fn draw(surface: &mut krilla::surface::Surface<'_>, op: &Op, fonts: &Fonts) {
    match op {
        Op::Fill(shape, color) => {
            if let Some(path) = path_of(shape) {
                surface.set_stroke(None);
                surface.set_fill(Some(Fill {
                    paint: krilla_color(*color).into(),
                    opacity: NormalizedF32::ONE,
                    rule: FillRule::NonZero,
                }));
                surface.draw_path(&path);
            }
        }
        Op::Stroke(shape, pen) => {
            if let Some(path) = path_of(shape) {
                surface.set_fill(None);
                surface.set_stroke(Some(Stroke {
                    paint: krilla_color(pen.color).into(),
                    width: pen.width,
                    line_cap: if pen.round {
                        LineCap::Round
                    } else {
                        LineCap::Butt
                    },
                    line_join: LineJoin::Round,
                    dash: pen.dashed.then(|| StrokeDash {
                        array: vec![2.0, 2.0],
                        offset: 0.0,
                    }),
                    ..Stroke::default()
                }));
                surface.draw_path(&path);
            }
        }
        Op::Text {
            x,
            y,
            size,
            weight,
            color,
            text,
        } => {
            let font = match weight {
                Weight::Regular => fonts.regular.clone(),
                Weight::Bold => fonts.bold.clone(),
            };
            surface.set_stroke(None);
            surface.set_fill(Some(Fill {
                paint: krilla_color(*color).into(),
                opacity: NormalizedF32::ONE,
                rule: FillRule::NonZero,
            }));
            surface.draw_text(
                Point::from_xy(*x, *y),
                font,
                *size,
                text,
                false,
                TextDirection::Auto,
            );
        }
    }
}

/// Point on a circle at paper angle `a` (counter-clockwise from 3 o'clock) in y-down space.
fn on_circle(cx: f32, cy: f32, r: f32, a: f32) -> (f32, f32) {
    (cx + r * a.cos(), cy - r * a.sin())
}

fn path_of(shape: &Shape) -> Option<krilla::geom::Path> {
    let mut pb = PathBuilder::new();
    match shape {
        Shape::Rect { x, y, w, h, r } => rounded_rect(&mut pb, *x, *y, *w, *h, *r),
        Shape::Line { x1, y1, x2, y2 } => {
            pb.move_to(*x1, *y1);
            pb.line_to(*x2, *y2);
        }
        Shape::Arc {
            cx,
            cy,
            r,
            start,
            end,
        } => arc(&mut pb, *cx, *cy, *r, *start, *end, true),
        Shape::Polygon(points) => {
            let (first, rest) = points.split_first()?;
            pb.move_to(first.0, first.1);
            for p in rest {
                pb.line_to(p.0, p.1);
            }
            pb.close();
        }
    }
    pb.finish()
}

fn rounded_rect(pb: &mut PathBuilder, x: f32, y: f32, w: f32, h: f32, r: f32) {
    let r = r.clamp(0.0, w.min(h) / 2.0);
    if r <= 0.0 {
        pb.move_to(x, y);
        pb.line_to(x + w, y);
        pb.line_to(x + w, y + h);
        pb.line_to(x, y + h);
        pb.close();
        return;
    }
    // Corners as quarter arcs (paper angles; y grows downwards, so "up" is -y).
    pb.move_to(x + r, y);
    pb.line_to(x + w - r, y);
    arc(pb, x + w - r, y + r, r, FRAC_PI_2, 0.0, false);
    pb.line_to(x + w, y + h - r);
    arc(pb, x + w - r, y + h - r, r, 0.0, -FRAC_PI_2, false);
    pb.line_to(x + r, y + h);
    arc(
        pb,
        x + r,
        y + h - r,
        r,
        -FRAC_PI_2,
        -std::f32::consts::PI,
        false,
    );
    pb.line_to(x, y + r);
    arc(pb, x + r, y + r, r, std::f32::consts::PI, FRAC_PI_2, false);
    pb.close();
}

/// Appends an arc as cubic Béziers of at most 90° each; `move_first` starts a new subpath.
fn arc(pb: &mut PathBuilder, cx: f32, cy: f32, r: f32, start: f32, end: f32, move_first: bool) {
    let sweep = end - start;
    let segments = (sweep.abs() / FRAC_PI_2).ceil().max(1.0) as u32;
    let step = sweep / segments as f32;
    let k = 4.0 / 3.0 * (step / 4.0).tan();
    let (x0, y0) = on_circle(cx, cy, r, start);
    if move_first {
        pb.move_to(x0, y0);
    }
    for i in 0..segments {
        let a0 = start + step * i as f32;
        let a1 = a0 + step;
        let (p0x, p0y) = on_circle(cx, cy, r, a0);
        let (p3x, p3y) = on_circle(cx, cy, r, a1);
        // Tangent of a paper-space circle at angle a, in y-down space: (-sin a, -cos a).
        let c1 = (p0x - k * r * a0.sin(), p0y - k * r * a0.cos());
        let c2 = (p3x + k * r * a1.sin(), p3y + k * r * a1.cos());
        pb.cubic_to(c1.0, c1.1, c2.0, c2.1, p3x, p3y);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn measures_and_wraps_text() {
        let canvas = Canvas::new(fonts().expect("fonts"));
        let w = canvas.width("Income stability", 10.0, Weight::Regular);
        assert!(w > 60.0 && w < 110.0, "{w}");
        assert!(canvas.width("W", 10.0, Weight::Bold) > canvas.width("i", 10.0, Weight::Bold));
        let lines = canvas.wrap(
            "the quick brown fox jumps over the lazy dog again and again",
            10.0,
            Weight::Regular,
            80.0,
            10,
        );
        assert!(lines.len() > 2);
        for l in &lines {
            assert!(canvas.width(l, 10.0, Weight::Regular) <= 80.0, "{l}");
        }
        let long = "x".repeat(500);
        let lines = canvas.wrap(&long, 10.0, Weight::Regular, 80.0, 2);
        assert_eq!(lines.len(), 2);
        assert!(lines[1].ends_with('…'));
        let cut = canvas.ellipsize(&long, 10.0, Weight::Regular, 50.0);
        assert!(canvas.width(&cut, 10.0, Weight::Regular) <= 50.0);
    }

    #[test]
    fn tints_towards_white() {
        assert_eq!(Rgb::hex(0x00_80_ff).tint(1.0), Rgb(255, 255, 255));
        assert_eq!(Rgb::hex(0x00_80_ff).tint(0.0), Rgb(0, 128, 255));
    }
}
