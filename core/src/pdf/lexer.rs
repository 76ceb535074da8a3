//! Tokens of a PDF content stream (ISO 32000-1 §7.2–7.3, §7.8.2), without building objects:
//! numbers, names, strings (decoded into a caller's buffer), array brackets, operators.
//!
//! Reals parse as `f32` and integers as `i64`, then widen to `f64`, as `lopdf` 0.47 reads them
//! (and as `pdf-extract` 0.12, the engine's reader before issue 37, read them). Anything this
//! lexer cannot read with certainty (an unterminated string, a stray delimiter, an inline
//! image) ends the stream with [`Unsupported`]: the document is then refused.

use super::fonts::Unsupported;

/// One token; every kind but `Operator` is also an operand on the reader's stack. Strings are
/// appended to the buffer given to [`Lexer::next`] and named by their range in it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Token<'a> {
    Number(f64),
    Name(&'a [u8]),
    /// A string's bytes: `buffer[start..end]`.
    String(usize, usize),
    ArrayStart,
    ArrayEnd,
    /// `<<`, `>>`, `true`, `false`, `null`: operands no text operator takes.
    Other,
    Operator(&'a [u8]),
}

fn is_white(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n' | b'\x0c' | b'\0')
}

fn is_delimiter(b: u8) -> bool {
    matches!(
        b,
        b'(' | b')' | b'<' | b'>' | b'[' | b']' | b'{' | b'}' | b'/' | b'%'
    )
}

fn is_regular(b: u8) -> bool {
    !is_white(b) && !is_delimiter(b)
}

/// A content-stream tokenizer over `data`.
pub(super) struct Lexer<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Lexer<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        Lexer { data, pos: 0 }
    }

    fn skip_white_and_comments(&mut self) {
        while let Some(&b) = self.data.get(self.pos) {
            if is_white(b) {
                self.pos += 1;
            } else if b == b'%' {
                while self
                    .data
                    .get(self.pos)
                    .is_some_and(|b| *b != b'\n' && *b != b'\r')
                {
                    self.pos += 1;
                }
            } else {
                break;
            }
        }
    }

    fn regular_run(&mut self) -> &'a [u8] {
        let start = self.pos;
        while self.data.get(self.pos).is_some_and(|b| is_regular(*b)) {
            self.pos += 1;
        }
        &self.data[start..self.pos]
    }

    /// The next token, `None` at the end.
    ///
    /// # Errors
    /// [`Unsupported`] for what this lexer does not read (see the module documentation).
    pub fn next(&mut self, strings: &mut Vec<u8>) -> Result<Option<Token<'a>>, Unsupported> {
        self.skip_white_and_comments();
        let Some(&b) = self.data.get(self.pos) else {
            return Ok(None);
        };
        let token = match b {
            b'[' => {
                self.pos += 1;
                Token::ArrayStart
            }
            b']' => {
                self.pos += 1;
                Token::ArrayEnd
            }
            b'(' => {
                self.pos += 1;
                let start = strings.len();
                self.literal(strings)?;
                Token::String(start, strings.len())
            }
            b'<' if self.data.get(self.pos + 1) == Some(&b'<') => {
                self.pos += 2;
                Token::Other
            }
            b'>' if self.data.get(self.pos + 1) == Some(&b'>') => {
                self.pos += 2;
                Token::Other
            }
            b'<' => {
                self.pos += 1;
                let start = strings.len();
                self.hex(strings)?;
                Token::String(start, strings.len())
            }
            b'/' => {
                self.pos += 1;
                Token::Name(self.regular_run())
            }
            b')' | b'>' | b'{' | b'}' => return Err(Unsupported),
            _ => {
                let word = self.regular_run();
                match number(word) {
                    Some(n) => Token::Number(n),
                    None => match word {
                        b"true" | b"false" | b"null" => Token::Other,
                        // Inline images carry binary data the lexer would misread.
                        b"BI" | b"ID" | b"EI" => return Err(Unsupported),
                        w if w.first().is_some_and(|c| {
                            c.is_ascii_alphabetic() || *c == b'\'' || *c == b'"'
                        }) =>
                        {
                            Token::Operator(w)
                        }
                        _ => return Err(Unsupported),
                    },
                }
            }
        };
        Ok(Some(token))
    }

    /// A literal string after its `(`: escapes decoded, balanced parentheses kept.
    fn literal(&mut self, out: &mut Vec<u8>) -> Result<(), Unsupported> {
        let mut depth = 0usize;
        loop {
            let &b = self.data.get(self.pos).ok_or(Unsupported)?;
            self.pos += 1;
            match b {
                b'(' => {
                    depth += 1;
                    out.push(b);
                }
                b')' if depth == 0 => return Ok(()),
                b')' => {
                    depth -= 1;
                    out.push(b);
                }
                b'\\' => {
                    let &e = self.data.get(self.pos).ok_or(Unsupported)?;
                    self.pos += 1;
                    match e {
                        b'n' => out.push(b'\n'),
                        b'r' => out.push(b'\r'),
                        b't' => out.push(b'\t'),
                        b'b' => out.push(0x08),
                        b'f' => out.push(0x0c),
                        b'0'..=b'7' => {
                            let mut value = u32::from(e - b'0');
                            for _ in 0..2 {
                                match self.data.get(self.pos) {
                                    Some(d @ b'0'..=b'7') => {
                                        value = value * 8 + u32::from(d - b'0');
                                        self.pos += 1;
                                    }
                                    _ => break,
                                }
                            }
                            // High-order overflow is ignored (§7.3.4.2).
                            out.push(value.to_le_bytes()[0]);
                        }
                        // A backslash at the end of a line continues the string.
                        b'\r' => {
                            if self.data.get(self.pos) == Some(&b'\n') {
                                self.pos += 1;
                            }
                        }
                        b'\n' => {}
                        other => out.push(other),
                    }
                }
                _ => out.push(b),
            }
        }
    }

    /// A hexadecimal string after its `<`; an odd final digit is followed by 0 (§7.3.4.3).
    fn hex(&mut self, out: &mut Vec<u8>) -> Result<(), Unsupported> {
        let mut high: Option<u8> = None;
        loop {
            let &b = self.data.get(self.pos).ok_or(Unsupported)?;
            self.pos += 1;
            let digit = match b {
                b'>' => break,
                b'0'..=b'9' => b - b'0',
                b'a'..=b'f' => b - b'a' + 10,
                b'A'..=b'F' => b - b'A' + 10,
                b if is_white(b) => continue,
                _ => return Err(Unsupported),
            };
            match high.take() {
                Some(h) => out.push((h << 4) | digit),
                None => high = Some(digit),
            }
        }
        if let Some(h) = high {
            out.push(h << 4);
        }
        Ok(())
    }
}

/// A PDF number: an integer (`i64`) or a real (`f32`), widened to `f64`. `None` for anything
/// else, including forms `lopdf` reads differently (a sign inside the fraction).
fn number(word: &[u8]) -> Option<f64> {
    let digits = word
        .strip_prefix(b"+")
        .or_else(|| word.strip_prefix(b"-"))
        .unwrap_or(word);
    if digits.is_empty() || !digits.iter().all(|b| b.is_ascii_digit() || *b == b'.') {
        return None;
    }
    let text = std::str::from_utf8(word).ok()?;
    match digits.split(|b| *b == b'.').count() - 1 {
        #[allow(clippy::cast_precision_loss)]
        0 => text.parse::<i64>().ok().map(|i| i as f64),
        1 if digits.len() > 1 => text.parse::<f32>().ok().map(f64::from),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(data: &[u8]) -> (Vec<String>, Vec<u8>) {
        let mut lexer = Lexer::new(data);
        let mut strings = Vec::new();
        let mut out = Vec::new();
        while let Some(t) = lexer.next(&mut strings).expect("lexes") {
            out.push(match t {
                Token::Number(n) => format!("{n}"),
                Token::Name(n) => format!("/{}", String::from_utf8_lossy(n)),
                Token::String(a, b) => format!("({})", String::from_utf8_lossy(&strings[a..b])),
                Token::ArrayStart => "[".to_owned(),
                Token::ArrayEnd => "]".to_owned(),
                Token::Other => "_".to_owned(),
                Token::Operator(o) => String::from_utf8_lossy(o).into_owned(),
            });
        }
        (out, strings)
    }

    #[test]
    fn reads_the_text_operators_and_their_operands() {
        let (t, _) = tokens(
            b"BT /F1 7.5 Tf 1 0 0 1 38.5 -.5 Tm (a\\(b\\) \\101\\n) Tj [(x) -20 <41 4>] TJ \
              % comment\n<</MCID 0>> BDC T* ET",
        );
        assert_eq!(
            t,
            [
                "BT",
                "/F1",
                "7.5",
                "Tf",
                "1",
                "0",
                "0",
                "1",
                "38.5",
                "-0.5",
                "Tm",
                "(a(b) A\n)",
                "Tj",
                "[",
                "(x)",
                "-20",
                "(A@)",
                "]",
                "TJ",
                "_",
                "/MCID",
                "0",
                "_",
                "BDC",
                "T*",
                "ET"
            ]
        );
    }

    #[test]
    fn reals_are_read_as_f32() {
        assert_eq!(number(b"0.1"), Some(f64::from(0.1_f32)));
        assert_eq!(number(b"-12"), Some(-12.0));
        assert_eq!(number(b"5."), Some(5.0));
        assert_eq!(number(b"."), None);
        assert_eq!(number(b"1.2.3"), None);
        assert_eq!(number(b"0.00-41"), None);
    }

    #[test]
    fn what_it_cannot_read_is_unsupported() {
        for data in [
            &b"(open"[..],
            b"<41",
            b")",
            b"BI /W 1 ID xx EI",
            b"{ }",
            b"<4G>",
        ] {
            let mut lexer = Lexer::new(data);
            let mut strings = Vec::new();
            let outcome = std::iter::from_fn(|| lexer.next(&mut strings).transpose())
                .collect::<Result<Vec<_>, _>>();
            assert_eq!(
                outcome,
                Err(Unsupported),
                "{}",
                String::from_utf8_lossy(data)
            );
        }
    }
}
