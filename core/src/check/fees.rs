//! Charges against the wallet's published tariff ([`crate::wallets::Tariff`], issue 50: content a
//! forger must also fake).
//!
//! A movement is the completed rows that share a completion time and a receipt (a send and its
//! `Customer Transfer of Funds Charge`, printed together; reading order keeps them adjacent:
//! [`crate::statement::reading_order`]). Where the tariff sets a charge on one of its rows, the
//! movement's charge rows must add up to it, no charge row meaning 0. A charge the tariff does
//! not set is a `warning` (`charge_off_tariff`): an amount typed over keeps the old amount's
//! charge, and a row invented without its charge row, or with a charge guessed, shows too. On
//! Safaricom's genuine statements every send and agent withdrawal carries the tariff's charge
//! (docs/research/tariffs.md), so the check raises nothing there.
//!
//! A levy the wallet prints beside a row ([`Transaction::tax`], Ghana's E-LEVY) must not be
//! more than the law in force that day sets on the row's value ([`crate::wallets::Levy`]): a
//! levy above it is a `warning` (`levy_off_rate`): an amount lowered after the fact keeps its
//! old levy, and a row invented on a day without a levy, or with a levy copied, shows too.

use rust_decimal::Decimal;

use super::finding;
use crate::report::{Finding, Severity};
use crate::statement::Transaction;
use crate::wallets::Wallet;

/// One movement whose charge the tariff does not set.
struct Off<'a> {
    row: &'a Transaction,
    charged: Decimal,
    tariff: Decimal,
}

/// Checks every movement of the rows, listed `by_time` in reading order, against the wallet's
/// tariff, and every levy it prints against the law (none: nothing checked).
pub(super) fn check(wallet: &Wallet, by_time: &[&Transaction], findings: &mut Vec<Finding>) {
    charges(wallet, by_time, findings);
    levies(wallet, by_time, findings);
}

/// Every movement against the wallet's tariff (`charge_off_tariff`).
fn charges(wallet: &Wallet, by_time: &[&Transaction], findings: &mut Vec<Finding>) {
    let Some(tariff) = wallet.profile.tariff else {
        return;
    };
    let mut off: Vec<Off<'_>> = Vec::new();
    for movement in
        by_time.chunk_by(|a, b| a.completed_at == b.completed_at && a.receipt_no == b.receipt_no)
    {
        let mut set: Option<(&Transaction, Decimal)> = None;
        let mut charged = Decimal::ZERO;
        for t in movement.iter().filter(|t| t.is_completed()) {
            if (tariff.is_charge)(t) {
                charged += t.withdrawn - t.paid_in;
            } else if let Some(charge) = (tariff.charge)(t) {
                set = Some(set.map_or((*t, charge), |(row, c)| (row, c + charge)));
            }
        }
        if let Some((row, charge)) = set
            && charge != charged
        {
            off.push(Off {
                row,
                charged,
                tariff: charge,
            });
        }
    }
    let Some(first) = off.first() else {
        return;
    };
    findings.push(finding(
        "charge_off_tariff",
        Severity::Warning,
        format!(
            "{} movement(s) carry a charge the published tariff does not set (first at {}, \
             receipt {}: {} charged {}, the tariff sets {}); an amount changed after the fact \
             keeps its old charge, and an invented row its guessed one. Tariff: {}",
            off.len(),
            first.row.completed_at,
            first.row.receipt_no,
            first.row.withdrawn,
            first.charged,
            first.tariff,
            tariff.source
        ),
    ));
}

/// Every completed row's printed levy against the most the law allows (`levy_off_rate`).
fn levies(wallet: &Wallet, by_time: &[&Transaction], findings: &mut Vec<Finding>) {
    let Some(levy) = wallet.profile.levy else {
        return;
    };
    let over: Vec<(&Transaction, Decimal, Decimal, Decimal)> = by_time
        .iter()
        .filter(|t| t.is_completed())
        .filter_map(|t| {
            let printed = t.tax.filter(|tax| *tax > Decimal::ZERO)?;
            let value = t.withdrawn - printed - t.fee.unwrap_or_default();
            let most = (levy.most)(t.completed_at.date(), value);
            (printed > most).then_some((*t, value, printed, most))
        })
        .collect();
    let Some((first, value, printed, most)) = over.first() else {
        return;
    };
    findings.push(finding(
        "levy_off_rate",
        Severity::Warning,
        format!(
            "{} row(s) print a levy above what the law set on their amount that day (first at \
             {}, receipt {}: {:.2} transferred, levy {:.2}, at most {:.2}); an amount lowered \
             after the fact keeps its old levy, and an invented row a copied one. Law: {}",
            over.len(),
            first.completed_at,
            first.receipt_no,
            value,
            printed,
            most,
            levy.source
        ),
    ));
}
