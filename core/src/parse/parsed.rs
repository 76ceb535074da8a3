//! What [`crate::parse()`] returns: a statement already prepared for scoring, read-only, so that
//! scoring it needs no copy of its rows and no second categorisation.
//!
//! Scoring a statement needs every row's category (from its Details) and amounts of two
//! decimal places ([`super::prepare`]). A [`Statement`] built or edited in code may carry no
//! categories, or stale ones, so [`crate::score`] prepares a copy of it; one that `parse` has
//! just prepared does not need that, and a [`ParsedStatement`] says so by its type: it can be
//! read (it dereferences to [`Statement`]) but not changed, so what `parse` prepared still
//! holds when it is scored. To edit one, take the statement out
//! ([`ParsedStatement::into_statement`]); scoring the edited statement prepares it again.
//!
//! (Until 2026-11 a process-wide memo of recent fingerprints let `score(&parse(x))` skip the
//! work instead; see `docs/performance-history.md`.)

use std::borrow::Cow;
use std::ops::Deref;

use chrono::NaiveDate;

use crate::statement::Statement;

/// A statement as [`crate::parse()`] returns it: rows in the order the source lists them,
/// categorised, amounts with at least two decimal places, [`Statement::source`] set.
///
/// Read it as a [`Statement`] (`parsed.transactions`, `parsed.to_json()`); score it with
/// [`crate::score`] or [`crate::score_with`] without the copy and categorisation a
/// [`Statement`] costs (a 5,000-row statement: 0.68–0.71 ms against 1.42–1.45 ms,
/// `stage_times`, 2026-11-27). [`Self::into_statement`] gives the statement to edit.
///
/// It also carries the day of analysis [`super::ParseOptions::as_of`] gave, which scoring it
/// judges the statement on.
#[derive(Debug, Clone, PartialEq)]
pub struct ParsedStatement(Statement, Option<NaiveDate>);

impl ParsedStatement {
    /// `statement`, which [`super::prepare`] has just prepared, to be judged on `as_of`.
    pub(super) fn from_prepared(statement: Statement, as_of: Option<NaiveDate>) -> Self {
        Self(statement, as_of)
    }

    /// The statement, to edit or keep; scoring it again prepares a copy of it (and judges it
    /// on no particular day).
    pub fn into_statement(self) -> Statement {
        self.0
    }

    /// The day of analysis the statement is judged on, when its options gave one.
    pub fn as_of(&self) -> Option<NaiveDate> {
        self.1
    }
}

impl Deref for ParsedStatement {
    type Target = Statement;

    fn deref(&self) -> &Statement {
        &self.0
    }
}

impl AsRef<Statement> for ParsedStatement {
    fn as_ref(&self) -> &Statement {
        &self.0
    }
}

impl From<ParsedStatement> for Statement {
    fn from(parsed: ParsedStatement) -> Self {
        parsed.0
    }
}

impl PartialEq<Statement> for ParsedStatement {
    fn eq(&self, other: &Statement) -> bool {
        &self.0 == other
    }
}

impl PartialEq<ParsedStatement> for Statement {
    fn eq(&self, other: &ParsedStatement) -> bool {
        self == &other.0
    }
}

/// What [`crate::score`] takes: a [`Statement`] (a prepared copy of it is scored) or a
/// [`ParsedStatement`] (scored as it is). Sealed: no other type implements it.
pub trait Scorable: sealed::Sealed {
    /// The statement, as given.
    fn statement(&self) -> &Statement;

    /// The statement prepared for scoring ([`super::prepare`]): borrowed when it is one `parse`
    /// prepared, else a prepared copy.
    fn prepared(&self) -> Cow<'_, Statement>;

    /// The day of analysis it is judged on: the one its parse options gave, none for a
    /// statement built in code.
    fn as_of(&self) -> Option<NaiveDate>;
}

impl Scorable for Statement {
    fn statement(&self) -> &Statement {
        self
    }

    fn prepared(&self) -> Cow<'_, Statement> {
        let mut copy = self.clone();
        super::prepare(&mut copy);
        Cow::Owned(copy)
    }

    fn as_of(&self) -> Option<NaiveDate> {
        None
    }
}

impl Scorable for ParsedStatement {
    fn statement(&self) -> &Statement {
        &self.0
    }

    fn prepared(&self) -> Cow<'_, Statement> {
        Cow::Borrowed(&self.0)
    }

    fn as_of(&self) -> Option<NaiveDate> {
        self.1
    }
}

mod sealed {
    /// Only the engine's statement types are [`super::Scorable`].
    pub trait Sealed {}
    impl Sealed for crate::statement::Statement {}
    impl Sealed for super::ParsedStatement {}
}
