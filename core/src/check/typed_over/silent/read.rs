//! What the group just read leaves unknown for the next ([`Silent::read`]): a row printing 0
//! whose amount is not known, a charge taken without a row that shows it, the balances the
//! group may have ended on.

use rust_decimal::Decimal;

use super::super::order::{
    beside_another_row, chained, charge_shown, reached, withdrawal_unpaired,
};
use super::super::principal;
use super::super::{Before, takes_no_charge, wants_charge_row};
use super::{Band, Silent, unshown_charge};
use crate::Category;
use crate::statement::Transaction;

impl Silent {
    /// Records the `group` just read, read from the balance `before` it (`None` where the walk
    /// had none), after which the chain went on from `balance`.
    pub(in crate::check) fn read(
        &mut self,
        group: &[&Transaction],
        before: Option<Decimal>,
        balance: Decimal,
    ) {
        // A charge row printing 0 beside the balance the chain went on from, or beside one of
        // the group's balances moved by a charge the statement prints, shows its charge (the
        // balance after a receipt whose sender paid the withdrawal charge, credited; a send's
        // charge printing 0 beside the balance after it); beside another account's balance, or
        // another row's of its group (as `charge_shown` reads it), it does not.
        let own = |b: Decimal| {
            b == balance
                || group
                    .iter()
                    .filter_map(|t| t.balance)
                    .any(|g| self.charges.iter().any(|c| b == g + c || b == g - c))
        };
        let shown = |t: &Transaction| {
            t.category == Category::Charges
                && ((t.net() < Decimal::ZERO)
                    || (t.net().is_zero()
                        && t.balance.is_some_and(own)
                        && !beside_another_row(group, t)))
        };
        // A charge row printing 0 beside a receipt's balance plus a charge is the charge the
        // sender paid, credited: it is no debit's charge row. Nor is a two-part payment's
        // principal, whose total is a debit with its charge in its amount.
        let credited = |t: &Transaction| {
            t.net().is_zero()
                && t.balance.is_some_and(|b| {
                    group.iter().any(|g| {
                        g.net() > Decimal::ZERO
                            && g.balance
                                .is_some_and(|gb| self.charges.iter().any(|c| b == gb + c))
                    })
                })
        };
        let charge_rows = group
            .iter()
            .filter(|t| shown(t) && !credited(t) && !principal::paired_principal(group, t))
            .count();
        // Airtime and Fuliza and loan repayments take no charge; a paybill takes none without its
        // row: in a group with no charge row taking a charge (`charge_rows`) it is no debit, but
        // beside one it counts, the row perhaps its own (see `after_uncharged_debit`).
        let debits = group
            .iter()
            .filter(|t| {
                t.category != Category::Charges
                    && !takes_no_charge(t)
                    && (t.category != Category::Paybill || charge_rows > 0)
                    && (t.net() < Decimal::ZERO)
                    && !principal::paired_total(group, t)
            })
            .count();
        self.after_uncharged_debit = debits > charge_rows;
        let charged = group.iter().filter(|t| wants_charge_row(group, t)).count();
        let charge_unprinted = group
            .iter()
            .any(|t| t.net().is_zero() && t.category == Category::Charges && !shown(t));
        let uncharged = charged > charge_rows || withdrawal_unpaired(group);
        // A row printing 0 whose balance the group's other rows moved on from to `end` is in the
        // chain: its amount is known. A charge row, where it shows its charge (a receipt's
        // sender-paid charge credited, then a Fuliza repayment taken from both). A receipt,
        // deposit or advance, where its balance has landed: no other row's step reaches it from
        // the balance before the group (the sample's November receipt of 204.22 printing the
        // balance with it, a repayment of 181.12 taken from that balance two seconds later); else
        // its balance may leave its own amount out (the amount lands later, as beside another
        // account's balance). Neither in a group that took a charge without its row: that charge
        // may be the credited one's equal, the two cancelling on the group's balances (a fifth
        // review's shape).
        // (`landed` in `typed_over::moves` asks the same of a receipt within its own group, where
        // the row read must also come after it.)
        let known = |t: &Transaction, b: Decimal| {
            if t.category == Category::Charges {
                charge_shown(group, t, &self.charges).is_some()
            } else {
                before
                    .is_some_and(|from| !reached(group, Some(t), from, &self.charges).contains(&b))
            }
        };
        // Money in printed as 0 beside the balance before its group has not landed, even where
        // the chain goes on from that balance (alone in its group): its amount lands later.
        let unlanded =
            |t: &Transaction, b: Decimal| t.category != Category::Charges && before == Some(b);
        let left_unknown = |t: &Transaction, end: Decimal| {
            t.net().is_zero()
                && t.balance.is_none_or(|b| {
                    unlanded(t, b)
                        || (b != end
                            && (uncharged
                                || !known(t, b)
                                || !reached(group, Some(t), b, &self.charges).contains(&end)))
                })
        };
        let unknown = |end: Decimal| group.iter().any(|t| left_unknown(t, end));
        let unknown_credit = |end: Decimal| {
            group
                .iter()
                .any(|t| t.category != Category::Charges && left_unknown(t, end))
        };
        self.after_unprinted = unknown(balance);
        self.after_unknown_credit = unknown_credit(balance);
        self.charge_without_row = (uncharged || charge_unprinted)
            .then(|| unshown_charge(group))
            .flatten()
            .map(|(most, credit)| (most, uncharged || (charge_unprinted && !credit), credit));
        self.band = (uncharged || charge_unprinted)
            .then(|| Band::of(group, &self.tariff))
            .flatten();
        let ended = !self.after_unprinted
            && before.is_some_and(|b| chained(group, b, balance, &self.charges));
        self.others_from = if ended { Before::Passed } else { Before::Other };
        self.others.clear();
        for b in group.iter().filter_map(|t| t.balance) {
            if b != balance && !self.others.iter().any(|(o, ..)| *o == b) {
                self.others.push((b, unknown(b), unknown_credit(b)));
            }
        }
    }
}
