//! A two-part payment's principal typed over (`amount_digit_edited`, see [`super`]): Vodacom
//! Lesotho prints a payment's principal on a charge row that does not move the balance, so the
//! chain cannot show an edit of it; the payment's total can.

use rust_decimal::Decimal;

use super::tariff::Tariff;
use super::{CENT, Silent, TENS, TypedOver, digit_typed_back};
use crate::Category;
use crate::statement::Transaction;

/// The ways a `group` may be read as to its two-part payments' principals (Vodacom Lesotho
/// prints a principal on a charge row of ten units or more, beside the total that alone moves
/// the balance; a charge is less, see `Silent::charges`): the rows left out as not moving the
/// balance and their net. Principals paired with their totals (a debit printing the same
/// balance that [`charge_allowed`] allows) are read only without them, all at once: their
/// amounts are not movements to compare with the others'. Otherwise the group is read with
/// every row, and without each principal in turn. Only where breaks are no evidence (the
/// wallets that print two-part payments); elsewhere a group is read with every row.
pub(in crate::check) fn two_part_readings(
    group: &[&Transaction],
    breaks_are_evidence: bool,
) -> Vec<(Vec<usize>, Decimal)> {
    let principals: Vec<usize> = group
        .iter()
        .enumerate()
        .filter(|(_, t)| {
            !breaks_are_evidence
                && group.len() > 1
                && t.category == Category::Charges
                && t.withdrawn >= TENS
        })
        .map(|(i, _)| i)
        .collect();
    let paired: Vec<usize> = principals
        .iter()
        .copied()
        .filter(|&i| paired_principal(group, group[i]))
        .collect();
    if paired.is_empty() {
        std::iter::once((Vec::new(), Decimal::ZERO))
            .chain(principals.iter().map(|&i| (vec![i], group[i].net())))
            .collect()
    } else {
        let left_out = paired.iter().map(|&i| group[i].net()).sum();
        vec![(paired, left_out)]
    }
}

/// Whether `principal` is a two-part payment's principal paired with `total` in its group: a
/// charge row of ten units or more printing the same balance as `total`, another debit, which
/// [`charge_allowed`] allows.
fn pair(principal: &Transaction, total: &Transaction) -> bool {
    !std::ptr::eq(principal, total)
        && principal.category == Category::Charges
        && principal.withdrawn >= TENS
        && total.net() < Decimal::ZERO
        && total.balance == principal.balance
        && charge_allowed(total.withdrawn, principal.withdrawn)
}

/// Whether row `t` of a `group` is a two-part payment's principal paired with its total
/// ([`pair`]): no charge, but the payment's amount printed on a charge row.
pub(in crate::check) fn paired_principal(group: &[&Transaction], t: &Transaction) -> bool {
    group.iter().any(|u| pair(t, u))
}

/// Whether row `t` of a `group` is a two-part payment's total paired with its principal
/// ([`pair`]): its charge is in its amount.
pub(in crate::check) fn paired_total(group: &[&Transaction], t: &Transaction) -> bool {
    group.iter().any(|p| pair(p, t))
}

/// The row `idle` of a `group` that chains without it, when it is a two-part payment's
/// principal (a charge row of ten units or more) whose amount one digit typed back explains:
/// - no other row's total allows it, and one does once a digit of ten units or more is typed
///   back. Vodacom Lesotho prints the principal on its `Pay Bill Charge` row and the total,
///   which alone moves the balance, on the payment's (100.00 and 103.21 on the genuine sample).
///   Its charge is not published, so a total allows a principal it exceeds by less than ten
///   units or a tenth of the principal, whichever is more ([`charge_allowed`]);
/// - it is more than the total printing its balance (a total is its principal plus a charge, so
///   never less): a units or cents digit typed back then counts too;
/// - the total allowing it is an agent withdrawal's (`AgentWithdrawal`) and the charge it
///   leaves is off the withdrawal tariff the statement prints, where a digit typed back puts it
///   on (the sample's two-part withdrawals charge what its withdrawals printed with a charge
///   row do: 26.84 for 25.00, 102.78 for 100.00; see [`Tariff`]).
pub(in crate::check) fn principal(
    group: &[&Transaction],
    idle: &Transaction,
    silent: &Silent,
) -> Option<TypedOver> {
    if idle.category != Category::Charges || idle.withdrawn < TENS {
        return None;
    }
    let totals = || {
        group
            .iter()
            .filter(|t| !std::ptr::eq(**t, idle) && t.net() < Decimal::ZERO)
    };
    if let Some(total) = totals().find(|t| charge_allowed(t.withdrawn, idle.withdrawn)) {
        return off_tariff(total, idle, &silent.tariff);
    }
    totals().find_map(|t| {
        let exceeds = t.balance == idle.balance && idle.withdrawn > t.withdrawn;
        let least = if exceeds { CENT } else { TENS };
        digit_typed_back(idle.withdrawn, least)
            .find(|p| charge_allowed(t.withdrawn, *p))
            .map(|p| typed(idle, p))
    })
}

/// A two-part payment whose principal and total, printing one balance, cannot both be as
/// printed, read from the two rows alone (the balance before the group may be unknown: the
/// statement's first group, or after a row printing 0): a total is its principal plus a
/// charge, so never less than it nor more than [`charge_allowed`] allows (Vodacom Lesotho's
/// sample: 100.00 and 103.21; its ten two-part payments each print the principal on the charge
/// row), and one digit typed back on either row makes the two agree. Not where another debit
/// printing the balance pairs with the principal, nor where the charge row exceeds the debit
/// by less than ten units (a total printed on the charge row, its principal on the payment's:
/// no genuine row shows it, but a charge below ten units would explain it). The
/// principal typed back is tried first, as [`principal`] reports it; where only the total's
/// does, the total is the row reported. `None` elsewhere, and for rows whose one digit typed
/// back agrees with neither (two digits apart: not the shape of one typed over).
pub(in crate::check) fn total_off_principal(group: &[&Transaction]) -> Option<TypedOver> {
    // A principal some debit of the group pairs with has its total (two payments in one
    // second may print one balance); one its debit pairs with, the rows read the other way
    // round by a charge below ten units, may be a total printed on the charge row.
    let mut principals = group.iter().filter(|t| {
        t.category == Category::Charges && t.withdrawn >= TENS && !paired_principal(group, t)
    });
    principals.find_map(|idle| {
        group
            .iter()
            .filter(|t| {
                t.category != Category::Charges
                    && t.net() < Decimal::ZERO
                    && t.balance == idle.balance
                    && !(Decimal::ZERO..TENS).contains(&(idle.withdrawn - t.withdrawn))
            })
            .find_map(|total| {
                digit_typed_back(idle.withdrawn, CENT)
                    .find(|p| charge_allowed(total.withdrawn, *p))
                    .map(|p| typed(idle, p))
                    .or_else(|| {
                        digit_typed_back(total.withdrawn, CENT)
                            .find(|t| charge_allowed(*t, idle.withdrawn))
                            .map(|t| typed(total, t))
                    })
            })
    })
}

/// The principal `idle` of the agent withdrawal `total` it is paired with ([`pair`]) typed
/// over, where the charge it leaves (`total` less `idle`) is off the bounds of the printed
/// withdrawal `tariff` ([`Tariff::allows`]) and, with one digit of the principal typed back, on
/// them. `None` for any other total, or where the tariff prints nothing to bound it by.
fn off_tariff(total: &Transaction, idle: &Transaction, tariff: &Tariff) -> Option<TypedOver> {
    if total.category != Category::AgentWithdrawal || !pair(idle, total) {
        return None;
    }
    let on_tariff = |principal: Decimal| tariff.allows(principal, total.withdrawn - principal);
    if on_tariff(idle.withdrawn) {
        return None;
    }
    digit_typed_back(idle.withdrawn, CENT)
        .find(|p| charge_allowed(total.withdrawn, *p) && on_tariff(*p))
        .map(|p| typed(idle, p))
}

/// The row `idle` (a principal, or a total) typed over, its payment holding `p` (a principal
/// of `p`, or a total of `p`).
fn typed(idle: &Transaction, p: Decimal) -> TypedOver {
    TypedOver {
        at: idle.completed_at,
        receipt: idle.receipt_no.clone(),
        printed: idle.net(),
        moved: -p,
    }
}

/// Whether a two-part payment's `total` may be its `principal` plus a charge: more by less than
/// ten units or a tenth of the principal, whichever is more (the genuine sample's charges run
/// from 1.97 on 20 to 4.86 on 200; a charge of ten units or more on a larger payment is allowed
/// for).
pub(super) fn charge_allowed(total: Decimal, principal: Decimal) -> bool {
    let most = TENS.max(principal / TENS);
    (Decimal::ZERO..most).contains(&(total - principal))
}

#[cfg(test)]
mod tests {
    use rust_decimal::Decimal;

    fn d(s: &str) -> Decimal {
        s.parse().expect("a decimal")
    }

    #[test]
    fn a_charge_grows_with_the_payment() {
        assert!(super::charge_allowed(d("103.21"), d("100")));
        assert!(super::charge_allowed(d("1515.50"), d("1500")));
        assert!(!super::charge_allowed(d("103.21"), d("150")));
        assert!(!super::charge_allowed(d("103.21"), d("50")));
    }
}
