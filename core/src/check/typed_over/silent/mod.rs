//! The wallet's own movements without a row of its own ([`Silent`]), which hold a units or
//! cents digit back where they may be the difference (see [`super`]).

use rust_decimal::Decimal;

use super::order::{chains_once_read, charge_shown};
use super::shape::{small_charge, takes_no_charge};
use super::tariff::{Band, Tariff};
use super::{Before, Reading, Shape, TENS};
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
///   shows only in the next balance), within the bounds of the tariff the statement prints
///   ([`Band`]);
/// - a payment printed with its charge row, printing one amount and moving another (a
///   two-part payment printing 51.00 for a 50.00 step, and its charge row 1.97 for a 0.97
///   step);
/// - a receipt, deposit or advance printed as 0 beside another account's balance (the sample's
///   receipt of 204.22): any amount, round ones too, lands on the next balance;
/// - a send paying the recipient's withdrawal charge, whose transfer charge is taken without a
///   row (the sample's withdrawal charge row of 2.78 whose balance fell by 4.51).
///
/// A break of a units or cents digit is the shape of a digit typed over only where none of
/// these can be it; a digit in the tens or higher is, unless an unknown amount of money in or
/// an unknown charge may be the whole of it ([`Silent::least`]). Statements drawn with these
/// quirks at random amounts (`core/tests/quirk_draw.rs`) keep every rule here honest: none of
/// 3,000 is flagged.
#[derive(Default)]
pub(in crate::check) struct Silent {
    /// Every amount below ten units the statement prints on a charge row (`Category::Charges`;
    /// larger ones are the principals of two-part payments), major units, sorted.
    pub(super) charges: Vec<Decimal>,
    /// Those of [`Silent::charges`] that one row alone prints, sorted.
    once: Vec<Decimal>,
    /// Whether the group read before holds a row printing 0 whose printed balance the chain
    /// did not go on from: its amount is not known.
    pub(super) after_unprinted: bool,
    /// Whether that row printing 0 is money in (a receipt, deposit or advance printed as 0
    /// beside another account's balance, or beside a balance the group's other rows do not
    /// lead on from): any amount, round ones included, may have landed on the next balance.
    pub(super) after_unknown_credit: bool,
    /// The other balances the group read before prints, each with whether a row printing 0,
    /// and one of money in, would then be left unknown: where that group did not chain, or
    /// chained only as far as its printed rows tell, it may have ended on any of them.
    pub(super) others: Vec<(Decimal, bool, bool)>,
    /// Where readings from [`Silent::others`] come from: [`Before::Passed`] where the group
    /// read before chained from the balance before it to the balance the chain went on from,
    /// every moving row in an order its balances show, and left no row printing 0 unknown; else
    /// [`Before::Other`].
    pub(super) others_from: Before,
    /// Whether the group read before holds more debits than charge rows: a charge may have been
    /// taken without its row (a withdrawal printed without its charge row beside another
    /// debit's). Airtime purchases, Fuliza and loan repayments, and paybills in a group with no
    /// charge row taking a charge (one printing 0 that shows none, a charge credited and a
    /// two-part payment's principal are not), count as no debits: they take no charge without
    /// its row (beside such a charge row a paybill counts, the row perhaps its own; on the
    /// Vodacom sample none of its 32 airtime and repayment rows is followed by a charge taken
    /// without a row, nor any of its 57 paybills, in 56 groups: 52 chain on into the next group
    /// from their own balance, the other 4 sit beside a row printing 0 or a two-part payment;
    /// its such charges all follow withdrawals and sends).
    after_uncharged_debit: bool,
    /// Where the group read before took a charge without a row that shows it (more withdrawals
    /// and sends, `AgentWithdrawal` and `SendMoney`, than charge rows; or a charge row printing
    /// 0 beside another account's balance): the most that charge may be, ten units or 2 % of
    /// the group's largest amount, whichever is more (the sample's withdrawal charges run from
    /// 9 % of 20 to 1.4 % of 700), whether it may have been taken (a withdrawal or send without
    /// its charge row, or a charge row printing 0 in a group whose largest amount is a debit)
    /// and whether credited (the group's largest amount is money in: a receipt whose sender paid
    /// the withdrawal charge). Such a charge may be one the statement prints nowhere else (a
    /// band no other row falls in).
    charge_without_row: Option<(Decimal, bool, bool)>,
    /// The withdrawal tariff the statement prints.
    pub(super) tariff: Tariff,
    /// The transfer tariff the statement prints (its sends' charges).
    pub(super) transfer: Tariff,
    /// The bounds the printed tariff puts on the withdrawal charge the group read before took
    /// or credited without a row, where that charge is the only amount it leaves unknown.
    band: Option<Band>,
}

impl Silent {
    /// The charges of the completed `rows` (see [`Silent::charges`]) and the withdrawal tariff
    /// their `groups` print ([`Tariff::of`]).
    pub(in crate::check) fn of<'a>(
        rows: &[&Transaction],
        groups: impl Iterator<Item = &'a [&'a Transaction]> + Clone,
    ) -> Self {
        let mut charges: Vec<Decimal> = rows
            .iter()
            .filter(|t| small_charge(t))
            .map(|t| t.withdrawn)
            .collect();
        charges.sort_unstable();
        let once = charges
            .iter()
            .copied()
            .filter(|c| charges.iter().filter(|d| *d == c).count() == 1)
            .collect();
        charges.dedup();
        Self {
            charges,
            once,
            tariff: Tariff::of(groups.clone(), Category::AgentWithdrawal),
            transfer: Tariff::of(groups, Category::SendMoney),
            ..Self::default()
        }
    }

    /// The charges the statement prints on rows other than `row` (see [`Silent::charges`]): a
    /// charge row typed over must not explain itself.
    pub(super) fn charges_beside<'a>(
        &'a self,
        row: &'a Transaction,
    ) -> impl Iterator<Item = Decimal> + 'a {
        self.charges.iter().copied().filter(move |c| {
            !(row.category == Category::Charges
                && row.withdrawn == *c
                && self.once.binary_search(c).is_ok())
        })
    }

    /// Whether a balance of `group` that the rows around it put `gap` (major units) away from the
    /// balance they reach, the chain going on from the balance they reach, may be two of the
    /// wallet's own movements without a row that cancel out: money in of an unknown amount
    /// after the group read before, or a charge that group credited or took without a row
    /// landing on the row, and a charge `group` took or credited without a row landing on the
    /// next (each at most [`unshown_charge`]'s bound); and any gap below one unit. On a drawn
    /// statement (`quirk_draw.rs`) a receipt's credited withdrawal charge of 5.00 landed on a
    /// withdrawal of 110 whose own charge of 5.00, taken without a row, landed on the next: one
    /// balance 5.00 off.
    pub(in crate::check) fn may_cancel(&self, group: &[&Transaction], gap: Decimal) -> bool {
        let before = self
            .charge_without_row
            .map_or(Decimal::ZERO, |(most, ..)| most);
        // Airtime, Fuliza and loan repayments take no charge without its row, nor does money in
        // (a charge credited to it prints a row, printing 0: read no further).
        let charged = group
            .iter()
            .any(|t| t.net() < Decimal::ZERO && !takes_no_charge(t));
        let own = unshown_charge(group)
            .filter(|_| charged)
            .map_or(Decimal::ZERO, |(most, _)| most);
        // Below one unit, an overdraft draw or its repayment without a row may be the gap (the
        // sample draws 0.26 from Fuliza to pay 6.32): read no cents.
        self.after_unknown_credit || gap.abs() <= before.max(own) || gap.abs() < Decimal::ONE
    }

    /// The least digit (major units) that a reading of `row` as moving `moved` may show on a
    /// wallet whose breaks are no evidence; `None` where one of the wallet's own movements
    /// without a row may be the whole difference:
    /// - money in of an unknown amount (a receipt printed as 0 beside another account's balance,
    ///   in the row's group or just before it, as the sample's receipt of 204.22) may be any
    ///   amount, a round one too: only a balance short of the printed amount shows a digit
    ///   (not where `landed`: the reading is from the balance of money in printed as 0 whose
    ///   amount is in it, see `landed` in `super::moves`);
    /// - a charge the group before took or credited without a row that shows it
    ///   ([`Silent::charge_taken_without_row`]);
    /// - a reading from another balance the group before prints (`reading.other()`) shows a digit
    ///   only where the group then chains ([`chains_once_read`]);
    /// - a reading from the running balance moved by the one charge the printed tariff allows
    ///   (`reading.pinned()`, [`Silent::pinned`]) has that charge taken already.
    ///
    /// [`TENS`] where a units or cents part of the difference may be such a movement: the group
    /// does not chain once read so ([`chains_once_read`]), or [`Silent::may_explain`] (the
    /// group's shape holds them back unless [`Shape::against_its_unknowns`], or, read from the
    /// running balance, [`Band::credit_off_own`]).
    pub(super) fn least(
        &self,
        shape: &Shape<'_>,
        reading: &Reading<'_>,
        row: &Transaction,
        moved: Decimal,
        held_back: bool,
        landed: bool,
    ) -> Option<Decimal> {
        let credit_unknown = !landed && shape.credit_unknown(reading);
        // From another balance of the group before, money in of an unknown amount leaves
        // nothing to read: the group before may have ended anywhere.
        if (credit_unknown && (moved >= row.net() || reading.other()))
            || (!reading.pinned() && self.charge_taken_without_row(shape, row, moved))
            || self.own_charge_unknown(shape, row, moved)
        {
            return None;
        }
        let chains = chains_once_read(shape.rows, reading, row, moved, &self.charges);
        if !chains && reading.other() {
            return None;
        }
        let held_back = held_back
            && !shape.against_its_unknowns(reading, row, moved)
            && (reading.other() || !Band::credit_off_own(shape.rows, &self.tariff, row, moved));
        let held = !chains || self.may_explain(shape, reading, held_back, row, moved);
        Some(if held { TENS } else { Decimal::ZERO })
    }

    /// Whether a reading of `row` as moving `moved` is one of the wallet's own movements without
    /// a row: the group then chains ([`chains_once_read`]) and the difference is a charge the
    /// group before took or credited without a row that shows it, or money in of an unknown
    /// amount. Such a reading explains the row as an exact one does (see `from` in [`super`]).
    pub(super) fn excuses(
        &self,
        shape: &Shape<'_>,
        reading: &Reading<'_>,
        row: &Transaction,
        moved: Decimal,
    ) -> bool {
        let silent = (!reading.pinned() && self.charge_taken_without_row(shape, row, moved))
            || (reading.after_unknown_credit && moved > row.net());
        silent && chains_once_read(shape.rows, reading, row, moved, &self.charges)
    }

    /// Whether `row`'s balance is off its printed amount (its balances moved `moved`) by less
    /// than the charge the group before may have taken or credited without a row that shows it
    /// ([`Silent::charge_without_row`]), and the way that charge went: no digit of it is
    /// evidence.
    fn charge_taken_without_row(
        &self,
        shape: &Shape<'_>,
        row: &Transaction,
        moved: Decimal,
    ) -> bool {
        self.charge_without_row
            .is_some_and(|(most, taken, credited)| {
                off_by_charge(row, moved, most, taken, credited) && self.in_band(shape, row, moved)
            })
    }

    /// Whether `row`'s own group holds a charge row printing 0 that shows no charge (its amount
    /// unknown: a withdrawal charge printing 0 beside another account's balance) and `row`, its
    /// balances moving `moved`, is off its printed amount by no more than that charge may be
    /// ([`unshown_charge`]), the way the group's largest amount went: as a charge the group
    /// before took or credited without a row ([`Silent::charge_taken_without_row`]).
    fn own_charge_unknown(&self, shape: &Shape<'_>, row: &Transaction, moved: Decimal) -> bool {
        let unknown = shape.rows.iter().any(|t| {
            t.category == Category::Charges
                && t.net().is_zero()
                && charge_shown(shape.rows, t, &self.charges).is_none()
        });
        unknown
            && unshown_charge(shape.rows)
                .is_some_and(|(most, credit)| off_by_charge(row, moved, most, !credit, credit))
            && !Band::credit_off_own(shape.rows, &self.tariff, row, moved)
    }

    /// Whether `row`, read as moving `moved`, may be off its printed amount by the withdrawal
    /// charge the group before took or credited without a row ([`Band::holds`]): always where
    /// that charge is not bounded, or where the row's own group is not [`Band::plain`] (it may
    /// hold a movement without a row of its own too, and the two then add up).
    fn in_band(&self, shape: &Shape<'_>, row: &Transaction, moved: Decimal) -> bool {
        self.band
            .is_none_or(|b| !Band::plain(shape, &self.charges) || b.holds(row, moved))
    }

    /// What `row`, read from the running balance as moving `moved`, moved once a charge of the
    /// printed tariff within the [`Band`] is taken off, where it is off by more or less than
    /// that band allows ([`Band::readings`]); empty elsewhere.
    pub(super) fn band_readings(
        &self,
        shape: &Shape<'_>,
        row: &Transaction,
        moved: Decimal,
    ) -> Vec<Decimal> {
        match self.band {
            Some(band) if !self.in_band(shape, row, moved) => {
                band.readings(&self.tariff, row, moved)
            }
            _ => Vec::new(),
        }
    }

    /// Whether a group read from the running balance ending `short` of a balance it prints
    /// (negative: beyond it) is off it by the withdrawal charge the group read before took or
    /// credited without a row, within the bounds the printed tariff puts on it ([`Band`]):
    /// taken, the balance is short by it; credited, beyond it.
    pub(in crate::check) fn off_by_band(&self, short: Decimal) -> bool {
        self.band.is_some_and(|b| b.allows_off(short))
    }

    /// The balance the group read before ended on, the running `balance` moved by the
    /// withdrawal charge it took or credited without a row, where the printed tariff allows
    /// that charge one amount ([`Band::pinned`]): read from it, the group read next is read as
    /// after a group that left nothing unknown.
    pub(super) fn pinned(&self, balance: Decimal) -> Option<Decimal> {
        self.band.and_then(Band::pinned).map(|c| balance + c)
    }

    /// Whether a break of less than [`TENS`] on `row` (printed `row.net()`, its balances moving
    /// `moved`) may be one of the wallet's movements without a row (see [`Silent`]): a row
    /// printing 0 before it left unknown (`reading.after_unprinted`), its own group's shape
    /// (`held_back`: see `Shape::held_back` and `Shape::own_step` in [`super`]), or a charge
    /// taken without its row, which leaves the balance short by the charge (not where the
    /// reading has taken it already: `reading.pinned()`).
    fn may_explain(
        &self,
        shape: &Shape<'_>,
        reading: &Reading<'_>,
        held_back: bool,
        row: &Transaction,
        moved: Decimal,
    ) -> bool {
        let after_unprinted = reading.after_unprinted && self.in_band(shape, row, moved);
        let short = row.net() - moved;
        let a_charge = short > Decimal::ZERO && short < TENS;
        let hidden_charge = self.after_uncharged_debit
            && !reading.pinned()
            && self.charges.binary_search(&short).is_ok()
            && self.in_band(shape, row, moved);
        // A charge row of a send whose balance fell by more: another charge of the send taken
        // with it, without a row of its own (`shape.send`; the withdrawal charge on a large send
        // may be ten units or more), read from the running balance the send's transfer charge
        // or its recipient's withdrawal charge by the printed tariffs (the sample's 2.78 row
        // falling by 4.51 beside a send of 94: 1.73, as its sends of 60 to 100 print).
        let second = |t: &Tariff| t.allows_the_send(shape.rows, short);
        let charge_with_it = shape.send
            && row.category == Category::Charges
            && a_charge
            && (reading.other() || second(&self.transfer) || second(&self.tariff));
        after_unprinted || held_back || hidden_charge || charge_with_it
    }
}

/// What a charge a `group` took or credited without a row that shows it may be: at most ten
/// units or 2 % of the group's largest amount, whichever is more (the sample's withdrawal
/// charges run from 9 % of 20 to 1.4 % of 700), major units; and whether it was credited (that
/// largest amount is money in: a receipt whose sender paid the withdrawal charge) rather than
/// taken. `None` for an empty group.
fn unshown_charge(group: &[&Transaction]) -> Option<(Decimal, bool)> {
    let largest = group.iter().map(|t| t.net()).max_by_key(Decimal::abs)?;
    Some((
        TENS.max(largest.abs() / Decimal::from(50)),
        largest > Decimal::ZERO,
    ))
}

/// Whether `row`, its balances moving `moved`, is off its printed amount by more than nothing
/// and at most `most`, the way a charge went: short of it where `taken`, beyond it where
/// `credited`.
fn off_by_charge(
    row: &Transaction,
    moved: Decimal,
    most: Decimal,
    taken: bool,
    credited: bool,
) -> bool {
    let within = |off: Decimal| off > Decimal::ZERO && off <= most;
    (taken && within(row.net() - moved)) || (credited && within(moved - row.net()))
}

mod read;
