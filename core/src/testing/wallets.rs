//! Seeded synthetic statements in each wallet's own layout (its generator lives in the
//! wallet's place, `crate::wallets`), each with the [`Statement`](crate::Statement) its reader
//! must give back. Invented holders, numbers and names only; the layouts follow
//! docs/wallets.md, never a real file.

pub use crate::wallets::synthetic::Synthetic;
pub use crate::wallets::{airtel_statement, mtn_statement, vodacom_statement};

use crate::statement::Statement;

impl Synthetic {
    /// [`Synthetic::expected`] as `parse` returns it: categorised by its wallet's table, with the
    /// source format and the parsed document's facts (`document`, taken from `parsed`).
    pub fn expected_prepared(&self, parsed: &Statement) -> Statement {
        let mut expected = self.expected.clone();
        crate::parse::prepare(&mut expected);
        expected.document.clone_from(&parsed.document);
        expected.source = parsed.source;
        expected
    }
}
