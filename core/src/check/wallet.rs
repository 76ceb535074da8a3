//! Integrity of other wallets' statements (Airtel Money Uganda, Vodacom M-Pesa Lesotho, MTN
//! MoMo Ghana): their own balance chain, their SUMMARY balances, and their PDF writers. Safaricom
//! statements keep [`super::balance`] and [`super::forensics`].
//!
//! **The chain.** Rows are read oldest first (a newest-first listing is reversed, so rows that
//! share a time keep the wallet's own order), in groups of rows at most [`GROUP_SECONDS`] apart
//! (Vodacom Lesotho lists a withdrawal and its charge at the same second, or a second apart, in
//! either order). A group chains when the running balance plus the group's net is one of its
//! printed balances. What does not chain is classified, never silently passed:
//! - `balance_of_another_account` (info): an MTN row whose own `BAL BEFORE`/`BAL AFTER` do not
//!   differ by its amount while the holder's balance around it moved by exactly that amount:
//!   the printed balances are another account's (the sample's `XtraBalance` transfers);
//! - `amount_not_printed` (info): rows of amount 0 beside a balance that moved (Vodacom
//!   Lesotho's sample: deposits and receipts printed with amount 0); the chain goes on from the
//!   printed balance;
//! - `levy_after_balance` (info): an MTN row whose `BAL AFTER` leaves out its E-LEVY, which the
//!   next row's `BAL BEFORE` has taken (the sample's one levied row);
//! - `row_not_moving_balance` (info): a group that chains without one of its rows (Vodacom
//!   Lesotho prints a two-part payment's total and a `… Charge` row of its principal; only the
//!   total moves the balance);
//! - `balance_chain_break` (info on Vodacom Lesotho, whose sample has rows of amount 0 with
//!   another account's balance; a warning on the exact layouts, Airtel and MTN): anything else.
//!
//! **The SUMMARY balances** (Airtel): opening + Total Credit − Total Debit must be the closing
//! balance (critical otherwise), and the rows must lead from the opening to the closing balance.
//!
//! **The writer**: each wallet's own producer ([`WALLET_WRITERS`]); a file that names it and
//! was saved once is `pdf_original` evidence; another producer, or an incremental update, is a
//! re-saved copy (info), as for Safaricom. These wallets do not encrypt their statements.

use chrono::NaiveDateTime;
use rust_decimal::Decimal;

use super::finding;
use crate::report::{EvidenceLevel, Finding, Severity};
use crate::statement::{DocumentInfo, Provider, Statement, Transaction};

/// Rows at most this many seconds apart are one group of the chain.
pub const GROUP_SECONDS: i64 = 2;

/// Each wallet's PDF writer: `/Producer` prefix and `/Creator` prefix (lower case; empty for
/// any), as measured on the real samples.
pub const WALLET_WRITERS: &[(Provider, &str, &str)] = &[
    (Provider::AirtelMoneyUg, "qt ", "wkhtmltopdf"),
    (Provider::VodacomMpesaLs, "itext 2.1.7", ""),
];

/// Whether the provider's statements are checked here rather than by Safaricom's checks.
pub fn is_other_wallet(provider: Provider) -> bool {
    matches!(
        provider,
        Provider::AirtelMoneyUg | Provider::VodacomMpesaLs | Provider::MtnMomoGh
    )
}

/// The chain and SUMMARY-balance checks (see the module documentation) of the statement's
/// rows, listed `by_time` in reading order ([`crate::statement::reading_order`]).
pub(super) fn check(statement: &Statement, by_time: &[&Transaction], findings: &mut Vec<Finding>) {
    summary_balances(statement, findings);
    chain(statement, by_time, findings);
}

/// Counts and the first time of each kind of finding.
#[derive(Default)]
struct Tally {
    count: usize,
    first: Option<NaiveDateTime>,
}

impl Tally {
    fn add(&mut self, at: NaiveDateTime) {
        self.count += 1;
        self.first.get_or_insert(at);
    }
}

fn chain(statement: &Statement, by_time: &[&Transaction], findings: &mut Vec<Finding>) {
    let rows: Vec<&Transaction> = by_time
        .iter()
        .copied()
        .filter(|t| t.is_completed() && t.balance.is_some())
        .collect();
    let mut running: Option<Decimal> = statement
        .balances
        .map(|b| b.opening)
        .or_else(|| rows.first().and_then(|t| t.balance_before));
    let (mut foreign, mut levy, mut idle, mut zero, mut breaks) = (
        Tally::default(),
        Tally::default(),
        Tally::default(),
        Tally::default(),
        Tally::default(),
    );
    let mut start = 0;
    while start < rows.len() {
        let mut end = start + 1;
        while end < rows.len()
            && (rows[end].completed_at - rows[end - 1].completed_at).num_seconds() <= GROUP_SECONDS
        {
            end += 1;
        }
        let group = &rows[start..end];
        let next_before = rows.get(end).and_then(|t| t.balance_before);
        let at = group[0].completed_at;
        running = Some(match running {
            None => group[group.len() - 1].balance.unwrap_or_default(),
            Some(balance) => {
                let net: Decimal = group.iter().map(|t| t.net()).sum();
                let expected = balance + net;
                let printed = |t: &&Transaction| t.balance == Some(expected);
                if group.iter().any(printed) {
                    expected
                } else if group
                    .iter()
                    .any(|t| t.tax.is_some_and(|tax| t.balance == Some(expected + tax)))
                {
                    levy.add(at);
                    expected
                } else if next_before == Some(expected) && group.iter().any(|t| foreign_balances(t))
                {
                    foreign.add(at);
                    expected
                } else if net.is_zero() {
                    // Rows of amount 0 beside a balance that moved (Vodacom Lesotho).
                    zero.add(at);
                    group[group.len() - 1].balance.unwrap_or(balance)
                } else if let Some(left_out) = group
                    .iter()
                    .map(|t| expected - t.net())
                    .find(|b| group.iter().any(|t| t.balance == Some(*b)))
                {
                    idle.add(at);
                    left_out
                } else {
                    breaks.add(at);
                    group[group.len() - 1].balance.unwrap_or(expected)
                }
            }
        });
        start = end;
    }
    if let (Some(b), Some(end)) = (statement.balances, running)
        && end != b.closing
        && !rows.is_empty()
    {
        findings.push(finding(
            "closing_balance_mismatch",
            Severity::Warning,
            format!(
                "the rows lead from the opening balance {} to {end}, but the statement's closing \
                 balance is {}",
                b.opening, b.closing
            ),
        ));
    }
    let exact = statement.provider != Provider::VodacomMpesaLs;
    report([foreign, levy, zero, idle, breaks], exact, findings);
}

/// One finding per kind of row that did not chain: `tallies` are, in order, the rows printing
/// another account's balances, the levies after the balance, the amount-0 rows, the rows not
/// moving the balance and the other breaks; `exact` makes a break a warning.
fn report(tallies: [Tally; 5], exact: bool, findings: &mut Vec<Finding>) {
    let [foreign, levy, zero, idle, breaks] = tallies;
    let reports = [
        (
            "balance_of_another_account",
            Severity::Info,
            foreign,
            "row(s) print the balances of another account (their BAL BEFORE and BAL AFTER do not \
             differ by the amount), while the holder's balance around them moved by exactly \
             their amount",
        ),
        (
            "levy_after_balance",
            Severity::Info,
            levy,
            "row(s) print a balance without their E-LEVY, which the next row's balance has taken",
        ),
        (
            "amount_not_printed",
            Severity::Info,
            zero,
            "time(s) where rows print an amount of 0 beside a balance that moved",
        ),
        (
            "row_not_moving_balance",
            Severity::Info,
            idle,
            "group(s) of rows chain only without one of their rows (a two-part payment's total and \
             a charge row of its principal: only the total moved the balance)",
        ),
        (
            "balance_chain_break",
            if exact {
                Severity::Warning
            } else {
                Severity::Info
            },
            breaks,
            "time(s) where the printed balance does not follow from the balance before and the \
             rows' amounts",
        ),
    ];
    for (code, severity, tally, what) in reports {
        if let Some(first) = tally.first {
            findings.push(finding(
                code,
                severity,
                format!("{} {what} (first at {first})", tally.count),
            ));
        }
    }
}

/// An MTN row whose own printed balances do not differ by its amount (its fee included).
fn foreign_balances(t: &Transaction) -> bool {
    match (t.balance_before, t.balance) {
        (Some(before), Some(after)) => after - before != t.net(),
        _ => false,
    }
}

/// Opening + Total Credit − Total Debit against the closing balance (Airtel's SUMMARY).
fn summary_balances(statement: &Statement, findings: &mut Vec<Finding>) {
    let (Some(balances), Some(summary)) = (statement.balances, statement.summary.as_ref()) else {
        return;
    };
    let computed = balances.opening + summary.total.paid_in - summary.total.paid_out;
    if computed != balances.closing {
        findings.push(finding(
            "summary_balances_mismatch",
            Severity::Critical,
            format!(
                "the SUMMARY does not add up: opening {} + credit {} − debit {} = {computed}, but \
                 the closing balance is {}",
                balances.opening, summary.total.paid_in, summary.total.paid_out, balances.closing
            ),
        ));
    }
}

/// The writer of another wallet's PDF: `PdfOriginal` when it is the wallet's own
/// ([`WALLET_WRITERS`]) and the file was saved once; otherwise `PdfResaved` with an info finding.
pub(super) fn forensics(
    provider: Provider,
    doc: &DocumentInfo,
    findings: &mut Vec<Finding>,
) -> EvidenceLevel {
    let producer = doc.producer.as_deref().unwrap_or("").to_ascii_lowercase();
    let creator = doc.creator.as_deref().unwrap_or("").to_ascii_lowercase();
    let own = WALLET_WRITERS.iter().any(|(p, prod, crea)| {
        *p == provider && producer.starts_with(prod) && creator.starts_with(crea)
    });
    let mut original = true;
    if !own {
        original = false;
        findings.push(finding(
            "non_wallet_producer",
            Severity::Info,
            format!(
                "the PDF was produced by {:?}, not by {}'s statement service: this copy was \
                 re-saved after issue",
                doc.producer.as_deref().unwrap_or("an unnamed program"),
                provider.name()
            ),
        ));
    }
    if let Some(s) = &doc.structure
        && (s.eof_markers > 1 || s.xref_sections > 1)
    {
        original = false;
        findings.push(finding(
            "incremental_update",
            Severity::Warning,
            format!(
                "the PDF was appended to after it was written ({} saves): an edit leaves this mark",
                s.eof_markers.max(s.xref_sections)
            ),
        ));
    }
    if original {
        EvidenceLevel::PdfOriginal
    } else {
        EvidenceLevel::PdfResaved
    }
}
