//! A two-part payment's principal typed over (`amount_digit_edited`, see [`super`]): Vodacom
//! Lesotho prints a payment's principal on a charge row that does not move the balance, so the
//! chain cannot show an edit of it; the payment's total can.

use rust_decimal::Decimal;

use super::{TENS, TypedOver};
use crate::Category;
use crate::statement::Transaction;

/// The row `idle` of a `group` that chains without it, when it is a two-part payment's
/// principal (a charge row of ten units or more) that no other row's total allows: no total is
/// the principal plus a charge (less than ten units more), and one is, once a digit of ten units
/// or more of the principal is typed back. Vodacom Lesotho prints the principal on its `Pay
/// Bill Charge` row and the total, which alone moves the balance, on the payment's (100.00 and
/// 103.21 on the genuine sample); its charge is not published, so the total is read as the
/// principal plus any charge below ten units.
pub(in crate::check) fn principal(group: &[&Transaction], idle: &Transaction) -> Option<TypedOver> {
    if idle.category != Category::Charges || idle.withdrawn < TENS {
        return None;
    }
    let charge_of = |total: &Transaction, principal: Decimal| {
        (Decimal::ZERO..TENS).contains(&(total.withdrawn - principal))
    };
    let totals = || {
        group
            .iter()
            .filter(|t| !std::ptr::eq(**t, idle) && t.net() < Decimal::ZERO)
    };
    if totals().any(|t| charge_of(t, idle.withdrawn)) {
        return None;
    }
    totals().find_map(|t| {
        digit_typed_back(idle.withdrawn)
            .find(|p| charge_of(t, *p))
            .map(|p| TypedOver {
                at: idle.completed_at,
                receipt: idle.receipt_no.clone(),
                printed: idle.net(),
                moved: -p,
            })
    })
}

/// Every amount that `printed` (positive, two decimals) is with one digit of ten units or more
/// changed, the leading digit never to 0: what a digit typed over may have been.
fn digit_typed_back(printed: Decimal) -> impl Iterator<Item = Decimal> {
    let text = format!("{printed:.2}");
    // The digits of ten units or more: all but the units digit, the point and two decimals.
    let places = text.len().saturating_sub(4);
    (0..places).flat_map(move |at| {
        let text = text.clone();
        (b'0'..=b'9').filter_map(move |digit| {
            let mut bytes = text.clone().into_bytes();
            if bytes[at] == digit || (at == 0 && digit == b'0') {
                return None;
            }
            bytes[at] = digit;
            String::from_utf8(bytes).ok()?.parse().ok()
        })
    })
}
