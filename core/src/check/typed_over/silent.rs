//! The wallet's own movements without a row of its own ([`Silent`]), which hold a units or
//! cents digit back where they may be the difference (see [`super`]).

use rust_decimal::Decimal;

use super::TENS;
use crate::Category;
use crate::statement::Transaction;

/// What may have moved a balance without a row of its own on a wallet whose genuine chains
/// break for reasons not all explained, measured on Vodacom Lesotho's genuine sample (22
/// breaks of 0.63 to 20.02 maloti on the walk of 6f882ba, 12 once the walk goes on from the
/// balance the next group chains from; on it, the only rows one digit off are a two-part
/// payment and its charge row, held back below):
/// - the amount of a row printed as 0 whose balance is not the wallet's (a withdrawal charge
///   printing 0 beside a balance of 72,238.63): the amount lands on the next balance, and is
///   one of the charges the statement prints (1.84 there);
/// - the charge of a debit printed without its charge row (a withdrawal of 270, whose 6.32
///   shows only in the next balance);
/// - a payment printed with its charge row, printing one amount and moving another (a
///   two-part payment printing 51.00 for a 50.00 step, and its charge row 1.97 for a 0.97
///   step).
///
/// A break of a units or cents digit is the shape of a digit typed over only where none of
/// these can be it; a digit in the tens or higher always is.
#[derive(Default)]
pub(in crate::check) struct Silent {
    /// Every amount below ten units the statement prints on a charge row (`Category::Charges`;
    /// larger ones are the principals of two-part payments), major units, sorted.
    pub(super) charges: Vec<Decimal>,
    /// Whether the group read before holds a row printing 0 whose printed balance the chain
    /// did not go on from: its amount is not known.
    pub(super) after_unprinted: bool,
    /// The other balances the group read before prints, each with whether a row printing 0
    /// would then be left unknown: where that group did not chain, or chained only as far as
    /// its printed rows tell, it may have ended on any of them.
    pub(super) others: Vec<(Decimal, bool)>,
    /// Whether the group read before holds more debits than charge rows: a charge may have been
    /// taken without its row (a withdrawal printed without its charge row beside another
    /// debit's).
    after_uncharged_debit: bool,
}

impl Silent {
    /// The charges of the completed `rows` (see [`Silent::charges`]).
    pub(in crate::check) fn of(rows: &[&Transaction]) -> Self {
        let mut charges: Vec<Decimal> = rows
            .iter()
            .filter(|t| t.category == Category::Charges && !t.withdrawn.is_zero())
            .map(|t| t.withdrawn)
            .filter(|c| *c < TENS)
            .collect();
        charges.sort_unstable();
        charges.dedup();
        Self {
            charges,
            ..Self::default()
        }
    }

    /// Records the `group` just read, after which the chain went on from `balance`.
    pub(in crate::check) fn read(&mut self, group: &[&Transaction], balance: Decimal) {
        let unknown = |end: Decimal| {
            group
                .iter()
                .any(|t| t.net().is_zero() && t.balance != Some(end))
        };
        self.after_unprinted = unknown(balance);
        let charge_rows = group
            .iter()
            .filter(|t| t.category == Category::Charges && t.net().is_sign_negative())
            .count();
        let debits = group
            .iter()
            .filter(|t| t.category != Category::Charges && t.net().is_sign_negative())
            .count();
        self.after_uncharged_debit = debits > charge_rows;
        self.others.clear();
        for b in group.iter().filter_map(|t| t.balance) {
            if b != balance && !self.others.iter().any(|(o, _)| *o == b) {
                self.others.push((b, unknown(b)));
            }
        }
    }

    /// Whether a break of less than [`TENS`] on `row` (printed `row.net()`, its balances moving
    /// `moved`) may be one of the wallet's movements without a row (see [`Silent`]): a row
    /// printing 0 before it left unknown (`after_unprinted`), its own group's shape
    /// (`held_back`: see `Shape::held_back` and `Shape::own_step` in [`super`]), or a charge
    /// taken without its row, which leaves the balance short by the charge.
    pub(super) fn may_explain(
        &self,
        after_unprinted: bool,
        held_back: bool,
        row: &Transaction,
        moved: Decimal,
    ) -> bool {
        let hidden_charge =
            self.after_uncharged_debit && self.charges.binary_search(&(row.net() - moved)).is_ok();
        after_unprinted || held_back || hidden_charge
    }
}
