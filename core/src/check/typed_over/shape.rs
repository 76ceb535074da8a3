//! What [`super::in_group`] reads of a group once ([`Shape`]): where it may end, whether a
//! row printing 0 or a payment's charge row holds its units and cents back, what a row's own
//! step shows; and the ways of reading it ([`Reading`]).

use rust_decimal::Decimal;

use super::order::{charge_shown, reached, takes_charge, withdrawal_unpaired};
use super::{TENS, principal};
use crate::Category;
use crate::statement::Transaction;

/// Whether a `group` is a payment printed with its charge row (Vodacom Lesotho's two-part
/// payments print the principal, the charge or the total on either row, not always what
/// moved): its units and cents digits are held back. A withdrawal or a send with its charge row
/// is read to the digit: on the genuine sample every one prints what moved. So is a two-part
/// payment's total beside its principal ([`principal::paired_principal`]: a charge row printing
/// the principal, not a charge; the sample's five print what moved).
pub(super) fn payment_with_charge(group: &[&Transaction]) -> bool {
    group
        .iter()
        .any(|t| t.category == Category::Charges && !principal::paired_principal(group, t))
        && group.iter().any(|t| {
            matches!(
                t.category,
                Category::Paybill | Category::BuyGoods | Category::Utilities
            )
        })
}

/// Whether a `group` holds more withdrawals and sends (`AgentWithdrawal`, `SendMoney`; not a
/// two-part payment's total, whose charge is in its amount) than charge rows that take money
/// (not a two-part payment's principal): one of its charges was taken without a row (the
/// sample's withdrawal of 270, whose 6.32 shows only in a later balance), and its rows may read
/// off by it.
pub(super) fn uncharged(group: &[&Transaction]) -> bool {
    let count = |f: &dyn Fn(&Transaction) -> bool| group.iter().filter(|t| f(t)).count();
    count(&|t| wants_charge_row(group, t)) > count(&|t| takes_charge(group, t))
        || withdrawal_unpaired(group)
}

/// Whether row `t` of a `group` is a withdrawal or send (`AgentWithdrawal`, `SendMoney`) that
/// Vodacom prints with a charge row of its own: not a two-part payment's total, whose charge is
/// in its amount.
pub(super) fn wants_charge_row(group: &[&Transaction], t: &Transaction) -> bool {
    matches!(t.category, Category::AgentWithdrawal | Category::SendMoney)
        && t.net() < Decimal::ZERO
        && !principal::paired_total(group, t)
}

/// Whether `t` is a charge row (`Category::Charges`) taking money below [`TENS`]: a charge,
/// not a two-part payment's principal (Vodacom Lesotho prints a principal on a charge row of ten
/// units or more; its sample's charges run from 1.16 to 9.56).
pub(in crate::check) fn small_charge(t: &Transaction) -> bool {
    t.category == Category::Charges && t.withdrawn > Decimal::ZERO && t.withdrawn < TENS
}

/// Whether `t` is a debit that takes no charge: an airtime purchase, a Fuliza or loan repayment
/// (on the Vodacom sample, none of its 32 is followed by a charge taken without a row; see
/// `Silent`'s `after_uncharged_debit`).
pub(super) fn takes_no_charge(t: &Transaction) -> bool {
    matches!(
        t.category,
        Category::AirtimeAndBundles | Category::FulizaRepayment | Category::MobileLoanRepayment
    )
}

/// Whether `t` is a send (`SendMoney`) of money out.
pub(super) fn is_send(t: &Transaction) -> bool {
    t.category == Category::SendMoney && t.net() < Decimal::ZERO
}

/// What [`super::in_group`] reads of a group once, for every [`Reading`]: its rows, the balances it
/// may end on, whether a row printing 0 sits beside the others, whether it is a payment printed
/// with its charge row ([`payment_with_charge`]; neither where breaks are evidence).
pub(super) struct Shape<'a> {
    pub(super) rows: &'a [&'a Transaction],
    pub(super) ends: Vec<Decimal>,
    pub(super) unprinted: bool,
    pub(super) payment: bool,
    /// Whether the group holds a send (`SendMoney`) with fewer than two charge rows: a charge row
    /// may have fallen by a second charge of the send without a row of its own (a send paying
    /// the recipient's withdrawal charge, whose transfer charge has no row: the sample's 2.78
    /// row falling by 4.51; [`super::Silent::may_explain`]). A send prints no more than two (the
    /// recipient's withdrawal charge and its transfer charge: the sample's 1.84 and 1.16 beside
    /// a send of 30); where it prints both, none was taken without a row; nor where its one
    /// charge row fell from the send's balance by its own amount (the sample's sends of 60 to
    /// 100 beside their 1.73).
    pub(super) send: bool,
}

impl<'a> Shape<'a> {
    /// The shape of `group`; `next_before`: the balance the row after it prints before it.
    pub(super) fn of(
        group: &'a [&'a Transaction],
        next_before: Option<Decimal>,
        breaks_are_evidence: bool,
    ) -> Self {
        // Where the group may end: its printed balances, its last row's first (where the group
        // ends when the typed-over row is not its last: an earlier row's balance would leave the
        // next group a break), then the balance the next row prints before it (MTN's rows whose
        // own balances are another account's).
        let mut ends: Vec<Decimal> = group.iter().rev().filter_map(|t| t.balance).collect();
        ends.extend(next_before.filter(|b| !ends.contains(b)));
        let unprinted =
            !breaks_are_evidence && group.len() > 1 && group.iter().any(|t| t.net().is_zero());
        let sends: Vec<&Transaction> = group.iter().copied().filter(|t| is_send(t)).collect();
        let charge_rows: Vec<&Transaction> = group
            .iter()
            .copied()
            .filter(|t| takes_charge(group, t))
            .collect();
        // A send's one charge row that fell from the send's balance by its own amount fell by
        // no second charge.
        let fell_by_its_own = match (sends.as_slice(), charge_rows.as_slice()) {
            ([send], [charge]) => send
                .balance
                .is_some_and(|b| charge.balance == Some(b + charge.net())),
            _ => false,
        };
        Self {
            rows: group,
            ends,
            unprinted,
            payment: !breaks_are_evidence && payment_with_charge(group),
            send: charge_rows.len() < 2 * sends.len() && !fell_by_its_own,
        }
    }

    /// Whether the group's shape holds `row`'s units and cents digits back: a row printing 0
    /// beside the others, or a payment printed with its charge row ([`Shape::payment_holds`]).
    pub(super) fn held_back(&self, row: &Transaction) -> bool {
        self.unprinted || self.payment_holds(row)
    }

    /// Whether the group is a payment printed with its charge row and `row` is not that charge
    /// row: the payment's own row may print one amount and move another (the sample's
    /// two-part payment printing 51.00 for a 50.00 step), but every charge row of the sample's
    /// five prints what it moved from the payment's balance, and one that does is explained
    /// by that step whatever the payment's row prints.
    fn payment_holds(&self, row: &Transaction) -> bool {
        self.payment && !(row.category == Category::Charges && row.withdrawn < TENS)
    }

    /// Whether `row`'s own step (its printed balance `own` less the balance before the group)
    /// may show a digit typed over: whether its units and cents are then held back, and whether
    /// only they may show. Only where every other row of the group is a charge row (below ten
    /// units) or prints 0, or moves from a balance reached from `own` ([`reached`]: it provably
    /// came after the row; then only units and cents show, the balance before the group being
    /// trusted further than elsewhere): a movement of its own listed beside it may have come
    /// first, and the step would be the sum of the two. Units and cents are held back in a
    /// payment printed with its charge row, and beside a charge row or a row printing 0 that may
    /// have come first: unless the charge row prints `own` less its charge, or the row printing
    /// 0 prints `own` and a charge the statement prints, either way (a receipt whose sender paid
    /// its withdrawal charge, credited after it).
    pub(super) fn own_step(
        &self,
        row: &Transaction,
        own: Decimal,
        charges: &[Decimal],
    ) -> Option<(bool, bool)> {
        let mut held_back = self.payment_holds(row);
        let mut below_tens = false;
        let after = reached(self.rows, Some(row), own, charges);
        for t in self.rows.iter().filter(|t| !std::ptr::eq(**t, row)) {
            if t.net().is_zero() {
                let after_both = t
                    .balance
                    .is_some_and(|b| charges.iter().any(|c| b == own + c || b == own - c));
                held_back |= !after_both;
            } else if t.category == Category::Charges && t.net().abs() < TENS {
                held_back |= t.balance != Some(own + t.net());
            } else if t.balance.is_some_and(|b| after.contains(&(b - t.net()))) {
                below_tens = true;
            } else {
                return None;
            }
        }
        Some((held_back, below_tens))
    }

    /// Whether `row`, read as moving `moved` from the running balance (not from another
    /// balance of the group before, which may have ended elsewhere), went the other way from
    /// every movement the group may hold without a row: its units and cents are then not held
    /// back by the group's rows printing 0 or charge rows.
    /// - In a group of money in only, a row printing 0 is money in too (a receipt, or the
    ///   withdrawal charge its sender paid, credited: Vodacom's "Customer Transfer of Funds
    ///   with withdrawal Charge paid From …"): it may raise a balance, never leave it short.
    /// - Among debits only, a charge row printing 0 is a charge taken (the sample's withdrawal
    ///   charge printing 0 beside a balance of 72,238.63), and taken before a debit it
    ///   lengthens the debit's step, never shortens it. A payment's own row stays held back
    ///   ([`Shape::payment_holds`]: the sample's 51.00 printed for a 50.00 step).
    pub(super) fn against_its_unknowns(
        &self,
        reading: &Reading<'_>,
        row: &Transaction,
        moved: Decimal,
    ) -> bool {
        let credits = moved < row.net() && self.rows.iter().all(|t| t.net() >= Decimal::ZERO);
        let debits = moved > row.net()
            && !self.payment_holds(row)
            && self.rows.iter().all(|t| {
                t.net() < Decimal::ZERO || (t.net().is_zero() && t.category == Category::Charges)
            });
        !reading.other() && (credits || debits)
    }

    /// The charges that may have been credited in a group of money in (and of debits that take
    /// no charge: airtime, Fuliza and loan repayments, as `Silent`'s `after_uncharged_debit`
    /// reads them) whose rows printing 0 are all charge rows (the withdrawal charge a receipt's
    /// sender paid, credited: Vodacom's
    /// "Customer Transfer of Funds with withdrawal Charge paid From …"): the charge a row shows
    /// ([`charge_shown`]: beside the receipt's balance plus a charge the statement prints), else,
    /// beside another account's balance or another row's, any charge the statement prints
    /// (`charges`). `None` for any other group. A credited charge raised a balance by its
    /// amount, and left none short (the sample's receipt of 110 printing 158.11, its charge row 0
    /// beside 162.33).
    pub(super) fn charges_credited(&self, charges: &[Decimal]) -> Option<Vec<Decimal>> {
        let mut credited = Vec::new();
        for t in self.rows {
            if (t.net() < Decimal::ZERO && !takes_no_charge(t))
                || (t.net().is_zero() && t.category != Category::Charges)
            {
                return None;
            }
            if t.net().is_zero() {
                match charge_shown(self.rows, t, charges) {
                    Some(c) if c > Decimal::ZERO => credited.push(c),
                    Some(_) => return None,
                    None => credited.extend_from_slice(charges),
                }
            }
        }
        Some(credited)
    }

    /// Whether money in of an unknown amount may have landed on the group's rows under
    /// `reading`: a receipt, deposit or advance printed as 0 in the group, or beside another
    /// account's balance in the group before (the sample's receipt of 204.22).
    pub(super) fn credit_unknown(&self, reading: &Reading<'_>) -> bool {
        reading.after_unknown_credit
            || self
                .rows
                .iter()
                .any(|t| t.net().is_zero() && t.category != Category::Charges)
    }
}

/// One way of reading a group in [`super::in_group`]: the balance before it, the balance it should end
/// on, the rows left out as not moving the balance, and whether a row printing 0 before it is
/// left unknown.
pub(super) struct Reading<'a> {
    pub(super) before: Decimal,
    pub(super) expected: Decimal,
    pub(super) skip: &'a [usize],
    pub(super) after_unprinted: bool,
    /// Whether that row printing 0 is money in ([`super::Silent::after_unknown_credit`]).
    pub(super) after_unknown_credit: bool,
    /// Where `before` comes from.
    pub(super) from: Before,
}

impl Reading<'_> {
    /// Whether `before` is another balance the group before prints, not the running balance
    /// ([`Before::Other`], [`Before::Passed`]).
    pub(super) fn other(&self) -> bool {
        matches!(self.from, Before::Other | Before::Passed)
    }

    /// Whether `before` is the running balance moved by the charge the group before took or
    /// credited without a row, the one the printed tariff allows ([`Before::Pinned`]).
    pub(super) fn pinned(&self) -> bool {
        self.from == Before::Pinned
    }
}

/// Where a [`Reading`]'s balance before the group comes from (see [`super::in_group`]).
#[derive(Clone, Copy, PartialEq, Eq, Default)]
pub(super) enum Before {
    /// The running balance.
    Running,
    /// The running balance moved by the one charge the printed tariff allows the group before
    /// to have taken or credited without a row ([`super::Silent::pinned`]).
    Pinned,
    /// Another balance the group before prints, where that group may have ended on it.
    #[default]
    Other,
    /// Another balance the group before prints, where that group chained to the running
    /// balance and left no row printing 0 unknown: it passed through it, and ended on the
    /// running balance. A reading from it only clears a row, never shows a digit.
    Passed,
}
