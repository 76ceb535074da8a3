//! The withdrawal tariff a statement prints ([`Tariff`]), and the bounds it puts on a
//! withdrawal charge the statement does not print ([`Band`]; see [`super::Silent`]).

use rust_decimal::Decimal;

use super::order::charge_shown;
use super::shape::small_charge;
use super::{CENT, Shape, TENS, digit_typed_back, is_send, principal, uncharged};
use crate::Category;
use crate::statement::Transaction;

/// The charges a statement prints for one kind of debit (agent withdrawals, `AgentWithdrawal`,
/// or sends, `SendMoney`): each such debit that is the only debit (charge rows aside) of its
/// group, paired with the group's one charge row (`Category::Charges`, below [`TENS`]) that
/// takes money, where its balance is the debit's less that charge, as (amount, charge) in the
/// statement's currency, major units, sorted by amount. A send paying the recipient's
/// withdrawal charge prints two charge rows, the first the withdrawal charge: it pairs with none.
///
/// Every M-Pesa tariff charges by bands of the amount, never less for a larger amount (Vodacom
/// Lesotho's sample: withdrawals of 18 to 50 maloti 1.84, 80 2.78, 140 and 200 4.22, 450 6.32,
/// 600 9.56; sends of 38 to 50 1.16, 60 to 100 1.73, 113 to 200 2.60, 300 to 500 3.91; the
/// withdrawal charge a sender pays for the recipient, credited or taken without a row, follows
/// the withdrawal tariff too: 400 received, 6.32 landing on the next balance). A charge the
/// statement does not print for a debit of `a` is then at least the charge printed for any
/// smaller one and at most the charge printed for any larger one ([`Tariff::bounds`]). Where
/// the printed pairs do not rise with the amount, the pairs whose debit's balances moved by an
/// amount one digit of ten units or more away from it are left out (a debit typed over beside
/// its charge row); where the rest still do not rise (a tariff changed during the statement, or
/// a row paired by chance), the table is empty and bounds nothing.
#[derive(Default)]
pub(super) struct Tariff {
    pairs: Vec<(Decimal, Decimal)>,
}

impl Tariff {
    /// The tariff of `kind` (`AgentWithdrawal` or `SendMoney`) printed by the `groups` of
    /// completed rows (the listed chain's: rows at most the wallet's group window apart).
    pub(super) fn of<'a>(
        groups: impl Iterator<Item = &'a [&'a Transaction]>,
        kind: Category,
    ) -> Self {
        // Each pair, with whether its debit's balances moved by an amount one digit of ten units
        // or more away from its printed amount (give or take a charge below ten units taken or
        // credited without a row), from a balance the group before prints, and by no amount
        // near its own: the shape of a debit typed over beside its charge row.
        let mut pairs: Vec<(Decimal, Decimal, bool)> = Vec::new();
        let mut before: Option<&[&Transaction]> = None;
        for group in groups {
            let previous = before.replace(group);
            // Beside another debit, a charge row may be the other's, taken after this one (its
            // balance then this one's less that charge), or taken first.
            let mut debits = group
                .iter()
                .filter(|t| t.category != Category::Charges && t.net() < Decimal::ZERO);
            let (Some(w), None) = (debits.next(), debits.next()) else {
                continue;
            };
            let Some(balance) = w.balance.filter(|_| w.category == kind) else {
                continue;
            };
            let mut charges = group.iter().filter(|c| small_charge(c));
            if let (Some(c), None) = (charges.next(), charges.next())
                && c.balance == Some(balance - c.withdrawn)
            {
                let befores: Vec<Decimal> = previous
                    .into_iter()
                    .flatten()
                    .filter_map(|t| t.balance)
                    .collect();
                let moved_by = |a: Decimal| befores.iter().any(|b| (b - a - balance).abs() < TENS);
                let typed =
                    !moved_by(w.withdrawn) && digit_typed_back(w.withdrawn, TENS).any(moved_by);
                pairs.push((w.withdrawn, c.withdrawn, typed));
            }
        }
        pairs.sort_unstable();
        // Where the pairs do not rise, a debit typed over may be why (9.56 printed on 600, and
        // 6.32 beside a withdrawal of 297.15 typed to 797.15): without such pairs the rest
        // may, and bound the charges still (a forgery must not switch off the check that would
        // catch it). A table that rises keeps every pair.
        if !rising(&pairs) {
            pairs.retain(|(.., typed)| !typed);
        }
        if !rising(&pairs) {
            pairs.clear();
        }
        let pairs = pairs.into_iter().map(|(a, c, _)| (a, c)).collect();
        Self { pairs }
    }

    /// The least and the most a withdrawal charge on `amount` may be by the printed tariff:
    /// the largest charge printed for a smaller or equal amount (0 where none) and the smallest
    /// printed for a larger or equal amount (`None` where none).
    pub(super) fn bounds(&self, amount: Decimal) -> (Decimal, Option<Decimal>) {
        let least = self
            .pairs
            .iter()
            .filter(|(a, _)| *a <= amount)
            .map(|(_, c)| *c)
            .max()
            .unwrap_or(Decimal::ZERO);
        let most = self
            .pairs
            .iter()
            .filter(|(a, _)| *a >= amount)
            .map(|(_, c)| *c)
            .min();
        (least, most)
    }

    /// Whether a withdrawal of `amount` may cost `charge` by the printed tariff: within its
    /// [`Tariff::bounds`] (always where the tariff prints nothing to bound it by).
    pub(super) fn allows(&self, amount: Decimal, charge: Decimal) -> bool {
        let (least, most) = self.bounds(amount);
        within(charge, least, most)
    }

    /// Whether the one send (`SendMoney`) of `rows` may cost `charge` by this transfer tariff
    /// ([`Tariff::allows`]); always where `rows` hold no send or more than one.
    pub(super) fn allows_the_send(&self, rows: &[&Transaction], charge: Decimal) -> bool {
        the_send(rows).is_none_or(|send| self.allows(send.withdrawn, charge))
    }

    /// What a send's charge row (`row`, in a group of `shape` whose sends print fewer than two
    /// charge rows: [`Shape::send`]) moved once each charge this transfer tariff allows the
    /// group's one send is taken off its balances' `moved`, where it fell by more than it prints:
    /// the send's transfer charge taken with it, without a row (the sample's 2.78 row falling by
    /// 4.51 beside a send of 94, whose transfer charge is 1.73). Empty elsewhere, and where the
    /// printed `withdrawal` tariff allows the send the whole difference: the row may be the
    /// transfer charge's, the recipient's withdrawal charge the one taken without a row (not on
    /// the sample, whose two such rows print the withdrawal charge; a review's generator drew
    /// it, and 53 of its 12,000 genuine statements read 1.19 printed as 1.16).
    pub(super) fn send_readings(
        &self,
        withdrawal: &Tariff,
        shape: &Shape<'_>,
        row: &Transaction,
        moved: Decimal,
    ) -> Vec<Decimal> {
        match the_send(shape.rows) {
            Some(send)
                if shape.send
                    && row.category == Category::Charges
                    && moved < row.net()
                    && !withdrawal.allows(send.withdrawn, row.net() - moved) =>
            {
                let (least, most) = self.bounds(send.withdrawn);
                self.charges(least, most).map(|c| moved + c).collect()
            }
            _ => Vec::new(),
        }
    }

    /// The charges the tariff prints from `least` to `most` (no upper bound where `None`),
    /// ascending, each once.
    pub(super) fn charges(
        &self,
        least: Decimal,
        most: Option<Decimal>,
    ) -> impl Iterator<Item = Decimal> + '_ {
        let mut last = None;
        self.pairs.iter().filter_map(move |&(_, c)| {
            let new = last != Some(c) && within(c, least, most);
            last = Some(c);
            new.then_some(c)
        })
    }
}

/// Whether the (amount, charge, …) `pairs`, sorted, rise with the amount: never a smaller charge
/// for a larger amount, one charge per amount.
fn rising(pairs: &[(Decimal, Decimal, bool)]) -> bool {
    pairs.windows(2).all(|p| {
        let ((a, c, _), (b, d, _)) = (p[0], p[1]);
        c <= d && (a != b || c == d)
    })
}

/// The one send (`SendMoney`, money out) of `rows`; `None` where they hold none or more.
pub(super) fn the_send<'a>(rows: &[&'a Transaction]) -> Option<&'a Transaction> {
    let mut sends = rows.iter().filter(|t| is_send(t));
    match (sends.next(), sends.next()) {
        (Some(send), None) => Some(send),
        _ => None,
    }
}

/// Whether `charge` is from `least` to `most` (no upper bound where `None`).
fn within(charge: Decimal, least: Decimal, most: Option<Decimal>) -> bool {
    charge >= least && most.is_none_or(|m| charge <= m)
}

/// The bounds the printed [`Tariff`] puts on a withdrawal charge a group took or credited
/// without a row, where that charge is the only amount the group leaves unknown: the least and
/// the most it may be ([`Tariff::bounds`]), and whether it was credited (a receipt whose sender
/// paid it) or taken (an agent withdrawal).
#[derive(Clone, Copy)]
pub(super) struct Band {
    least: Decimal,
    most: Option<Decimal>,
    credited: bool,
}

impl Band {
    /// The band of a `group` whose one moving row is an agent withdrawal (its charge taken) or
    /// a receipt (`ReceivedMoney`: the charge its sender paid, credited), alone or beside one
    /// charge row printing 0 (Vodacom Lesotho's "Withdrawal Charge" and "Customer Transfer of
    /// Funds with withdrawal Charge paid From …" beside another account's balance). `None`
    /// for any other group: what it left unknown is not one withdrawal charge.
    pub(super) fn of(group: &[&Transaction], tariff: &Tariff) -> Option<Self> {
        let mut moving = group.iter().filter(|t| !t.net().is_zero());
        let (Some(row), None, true) = (moving.next(), moving.next(), group.len() <= 2) else {
            return None;
        };
        let beside_charges = group
            .iter()
            .all(|t| std::ptr::eq(*t, *row) || t.category == Category::Charges);
        let (amount, credited) = match row.category {
            Category::AgentWithdrawal if row.net() < Decimal::ZERO => (row.withdrawn, false),
            Category::ReceivedMoney if row.net() > Decimal::ZERO => (row.paid_in, true),
            _ => return None,
        };
        let (least, most) = tariff.bounds(amount);
        beside_charges.then_some(Self {
            least,
            most,
            credited,
        })
    }

    /// Whether a group's `shape` holds no movement without a row of its own, so that a row of
    /// it is off its printed amount by the charge before it alone: no send (a second charge
    /// taken with it), no payment printed with its charge row, no charge taken without its row,
    /// no row printing 0 that shows no charge (`charges`: those the statement prints), no
    /// two-part payment.
    pub(super) fn plain(shape: &Shape<'_>, charges: &[Decimal]) -> bool {
        !shape.send
            && !shape.payment
            && !uncharged(shape.rows)
            && shape
                .rows
                .iter()
                .all(|t| !t.net().is_zero() || charge_shown(shape.rows, t, charges).is_some())
            && !shape
                .rows
                .iter()
                .any(|t| principal::paired_principal(shape.rows, t))
    }

    /// The charge a row of net `net` (its printed amount, or a reading of it) is off by when its
    /// balances moved `moved`: taken (the balance short of it) or credited (beyond it).
    fn off(self, net: Decimal, moved: Decimal) -> Decimal {
        if self.credited {
            moved - net
        } else {
            net - moved
        }
    }

    /// The one charge the bounds allow, signed as it moved the balance (taken: negative;
    /// credited: positive), where the least and the most are the same printed charge (the
    /// sample's withdrawals of 30 and 50, between the 18 and the 50 printed beside 1.84).
    pub(super) fn pinned(self) -> Option<Decimal> {
        (self.most == Some(self.least) && self.least > Decimal::ZERO).then_some(if self.credited {
            self.least
        } else {
            -self.least
        })
    }

    /// Whether a group ending `short` of a balance it prints (negative: beyond it) is off it by
    /// a charge within the bounds, the way the charge went (taken: short; credited: beyond).
    /// Where the bounds have no upper end (a withdrawal above every one the statement prints
    /// with its charge row, or a statement printing none), a charge below [`TENS`] (the tariff
    /// pairs no larger one; the Vodacom sample's run from 1.16 to 9.56), not any amount.
    pub(super) fn allows_off(self, short: Decimal) -> bool {
        let off = if self.credited { -short } else { short };
        let most = self.most.or(Some(TENS - CENT));
        off > Decimal::ZERO && within(off, self.least, most)
    }

    /// Whether `row`, its balances moving `moved`, may be off its printed amount by the charge:
    /// within the bounds, or by whole units (a round amount taken without a row, not the
    /// tariff's: none is seen on the sample, but its tariff has cents, so a digit typed over
    /// leaves the row off by cents).
    pub(super) fn holds(self, row: &Transaction, moved: Decimal) -> bool {
        let off = self.off(row.net(), moved);
        within(off, self.least, self.most) || off.fract().is_zero()
    }

    /// Whether `row` is a receipt whose sender paid its withdrawal charge, the one movement of
    /// its group's `rows` beside a charge row printing 0 ([`Band::of`]: that charge credited
    /// without a row), and its balance rose beyond its printed amount (by `moved`) by more or
    /// less than the printed `tariff` allows that charge: the group's one unknown is then not the
    /// difference. A credited charge only: an agent withdrawal's balance may also be short by a
    /// debit the group before left unknown (a repayment printing 0 beside another account's
    /// balance, a review's shape), while nothing unknown before a receipt raises its balance
    /// unseen ([`super::Silent::least`] reads money in of an unknown amount first).
    pub(super) fn credit_off_own(
        rows: &[&Transaction],
        tariff: &Tariff,
        row: &Transaction,
        moved: Decimal,
    ) -> bool {
        Band::of(rows, tariff)
            .is_some_and(|b| b.credited && !within(b.off(row.net(), moved), b.least, b.most))
    }

    /// What `row` moved once each charge `tariff` prints within the bounds is taken off its
    /// balances' `moved` (a receipt of 16 moving 8.16 after a withdrawal of 10, whose charge is
    /// at most the 1.84 printed for 18: 10.00), where it is off by more or less than the bounds
    /// allow ([`Band::holds`]). Any digit may show: a receipt whose balance is short of it by a
    /// round amount beside the charge is the shape of a receipt typed over (200.00 printed
    /// 700.00), and a charge the tariff bounds leaves nothing else unknown. None where the bounds
    /// have no upper end (a charge above every one printed may be any amount; read off a printed
    /// one, a send whose balance holds a receipt that settled first after a withdrawal of 1,000
    /// without its charge row read 240 for 540 on a review's statement); [`Band::allows_off`]
    /// settles there only off a charge below ten units.
    ///
    /// Also each amount one digit of ten units or more away
    /// from `row`'s printed amount ([`digit_typed_back`]) that a charge within them, printed or not,
    /// leaves its balances moving `moved` (the band may hold a charge no other row prints: a
    /// deposit of 420 moving 418.10 after a withdrawal of 25, whose charge is at most the 6.05
    /// printed for 100, typed to 470: 420.00). The tariff pairs charges below [`TENS`] only, so
    /// the bounds are less than ten units apart and leave room for one such amount at most,
    /// and for the printed amount itself where the charge is within them.
    pub(super) fn readings(
        self,
        tariff: &Tariff,
        row: &Transaction,
        moved: Decimal,
    ) -> Vec<Decimal> {
        if self.most.is_none() {
            return Vec::new();
        }
        let printed = tariff
            .charges(self.least, self.most)
            .map(|c| if self.credited { moved - c } else { moved + c });
        let typed_back = digit_typed_back(row.net().abs(), TENS)
            .map(|a| if row.net().is_sign_negative() { -a } else { a })
            .filter(|&net| within(self.off(net, moved), self.least, self.most));
        printed.chain(typed_back).collect()
    }
}

#[cfg(test)]
mod tests;
