//! The rows of an application as one statement: its statements grouped by account, the rows two
//! statements of one account both cover read once (and compared), transfers between the
//! applicant's own accounts made neutral, and, across accounts, each row's balance the total of
//! every account's balance at that moment (docs/applications.md gives the rules).
//!
//! Every step reads the statements as a set: accounts are put in one canonical order (wallet,
//! number, period, then their rows in reading order) before anything depends on an order, so
//! the combined statement does not depend on the order the statements were handed in.

use std::borrow::Cow;
use std::cmp::Ordering;
use std::collections::BTreeMap;

use chrono::{NaiveDate, NaiveDateTime};
use rust_decimal::Decimal;

use super::identity;
use crate::categorise::Category;
use crate::report::{Finding, Severity};
use crate::statement::{AccountHolder, Period, Statement, Transaction, sort_key};

/// An application's rows as one prepared statement, and what combining them found.
pub(crate) struct Combined<'a> {
    /// The statement the features read (borrowed when the application is one statement).
    pub statement: Cow<'a, Statement>,
    /// `statements_disagree`, `statement_gap`, `own_transfers`, holder-name findings.
    pub findings: Vec<Finding>,
}

/// One account: the statements of one wallet line.
struct Account<'a> {
    statements: Vec<(&'a Statement, Period)>,
    /// Its rows, those two statements both list read once, in reading order.
    rows: Vec<&'a Transaction>,
}

/// The period a statement covers: its header's, else its rows' first and last dates.
pub(crate) fn covered(s: &Statement) -> Period {
    s.period.unwrap_or_else(|| {
        let dates = s.transactions.iter().map(|t| t.completed_at.date());
        let start = dates.clone().min().unwrap_or(NaiveDate::MIN);
        Period {
            start,
            end: dates.max().unwrap_or(NaiveDate::MIN),
        }
    })
}

/// The last digits of a holder's number that identify the line whatever its prefix (`07…`,
/// `2547…`, `+2547…`): the last 8 (Lesotho's numbers have 8; East and West African ones 9).
fn line_number(s: &Statement) -> Option<String> {
    let digits: Vec<char> = s
        .holder
        .mobile_number
        .as_deref()?
        .chars()
        .filter(char::is_ascii_digit)
        .collect();
    (digits.len() >= 8).then(|| digits[digits.len() - 8..].iter().collect())
}

/// Everything a statement prints of a row (see [`Transaction::same_printed_row`]), as a key.
type Printed<'a> = (
    NaiveDateTime,
    &'a str,
    &'a str,
    &'static str,
    Decimal,
    Decimal,
    Option<Decimal>,
    Option<&'a str>,
    Option<Decimal>,
    Option<Decimal>,
    Option<Decimal>,
);

fn printed(t: &Transaction) -> Printed<'_> {
    (
        t.completed_at,
        &t.receipt_no,
        &t.details,
        t.status.as_word(),
        t.paid_in,
        t.withdrawn,
        t.balance,
        t.transaction_type.as_deref(),
        t.fee,
        t.tax,
        t.balance_before,
    )
}

/// The days both periods cover, if any.
fn common(a: Period, b: Period) -> Option<Period> {
    let (start, end) = (a.start.max(b.start), a.end.min(b.end));
    (start <= end).then_some(Period { start, end })
}

/// The rows of `s` on the days of `p`, counted by what they print.
fn rows_on(s: &Statement, p: Period) -> BTreeMap<Printed<'_>, (u32, &Transaction)> {
    let mut map = BTreeMap::new();
    for t in &s.transactions {
        if (p.start..=p.end).contains(&t.completed_at.date()) {
            map.entry(printed(t)).or_insert((0, t)).0 += 1;
        }
    }
    map
}

/// Combines `statements` (prepared, in one currency, at least one) into one statement.
pub(crate) fn combine<'a>(statements: &[&'a Statement]) -> Combined<'a> {
    let mut findings = Vec::new();
    let names: Vec<&str> = statements
        .iter()
        .filter_map(|s| s.holder.name.as_deref())
        .collect();
    findings.extend(identity::finding(&names));
    if let [only] = statements {
        return Combined {
            statement: Cow::Borrowed(only),
            findings,
        };
    }
    let mut accounts = accounts(statements, &mut findings);
    accounts.sort_by(canonical);
    findings.extend(gaps(statements));
    let own = own_transfers(&accounts);
    if !own.is_empty() {
        let total: Decimal = own.iter().map(|(t, _)| t.withdrawn).sum();
        findings.push(Finding {
            code: "own_transfers".to_owned(),
            severity: Severity::Info,
            message: format!(
                "{} transfer(s) between the applicant's own accounts ({total} in all) are counted \
                 as neither income nor spending",
                own.len()
            ),
        });
    }
    Combined {
        statement: Cow::Owned(one_statement(&accounts, &own)),
        findings,
    }
}

/// Groups statements by account (same wallet and number; without a number on either, any row
/// printed alike on a day both cover), merging each account's rows and comparing overlaps.
fn accounts<'a>(statements: &[&'a Statement], findings: &mut Vec<Finding>) -> Vec<Account<'a>> {
    let with_period: Vec<(&Statement, Period)> =
        statements.iter().map(|s| (*s, covered(s))).collect();
    // Union-find over a handful of statements.
    let mut group: Vec<usize> = (0..statements.len()).collect();
    let root = |g: &Vec<usize>, mut i: usize| {
        while g[i] != i {
            i = g[i];
        }
        i
    };
    for i in 0..with_period.len() {
        for j in i + 1..with_period.len() {
            if same_account(with_period[i], with_period[j]) {
                let (a, b) = (root(&group, i), root(&group, j));
                group[a.max(b)] = a.min(b);
            }
        }
    }
    let mut by_root: BTreeMap<usize, Vec<(&Statement, Period)>> = BTreeMap::new();
    for (i, sp) in with_period.iter().enumerate() {
        by_root.entry(root(&group, i)).or_default().push(*sp);
    }
    by_root
        .into_values()
        .map(|mut members| {
            members.sort_by_key(|(s, p)| (p.start, p.end, s.transactions.len()));
            let rows = merged_rows(&members, findings);
            Account {
                statements: members,
                rows,
            }
        })
        .collect()
}

fn same_account((a, pa): (&Statement, Period), (b, pb): (&Statement, Period)) -> bool {
    if a.provider != b.provider {
        return false;
    }
    match (line_number(a), line_number(b)) {
        (Some(x), Some(y)) => x == y,
        _ => common(pa, pb).is_some_and(|c| {
            let on = |t: &&Transaction| (c.start..=c.end).contains(&t.completed_at.date());
            let mut theirs: foldhash::HashMap<&str, Vec<&Transaction>> =
                foldhash::HashMap::default();
            for t in b.transactions.iter().filter(on) {
                theirs.entry(t.receipt_no.as_str()).or_default().push(t);
            }
            a.transactions.iter().filter(on).any(|t| {
                theirs
                    .get(t.receipt_no.as_str())
                    .is_some_and(|v| v.iter().any(|u| u.same_printed_row(t)))
            })
        }),
    }
}

/// The rows of one account's statements (sorted by period): a row on days only one statement
/// covers as it is; on days several cover, each printed row as many times as the statement that
/// lists it most often, and a critical `statements_disagree` when two statements differ there.
fn merged_rows<'a>(
    members: &[(&'a Statement, Period)],
    findings: &mut Vec<Finding>,
) -> Vec<&'a Transaction> {
    let shared_day = |i: usize, d: NaiveDate| {
        members
            .iter()
            .enumerate()
            .any(|(j, (_, p))| j != i && (p.start..=p.end).contains(&d))
    };
    let mut rows = Vec::new();
    let mut shared: BTreeMap<Printed<'a>, (u32, &'a Transaction)> = BTreeMap::new();
    for (i, (s, _)) in members.iter().enumerate() {
        let mut mine: BTreeMap<Printed<'a>, (u32, &'a Transaction)> = BTreeMap::new();
        for t in &s.transactions {
            if members.len() > 1 && shared_day(i, t.completed_at.date()) {
                mine.entry(printed(t)).or_insert((0, t)).0 += 1;
            } else {
                rows.push(t);
            }
        }
        for (k, (n, t)) in mine {
            let e = shared.entry(k).or_insert((0, t));
            e.0 = e.0.max(n);
        }
    }
    for (n, t) in shared.into_values() {
        rows.extend(std::iter::repeat_n(t, n as usize));
    }
    for (i, &(a, pa)) in members.iter().enumerate() {
        for &(b, pb) in &members[i + 1..] {
            if let Some(c) = common(pa, pb) {
                findings.extend(disagreement(a, b, pa, pb, c));
            }
        }
    }
    crate::statement::reading_order(rows.into_iter().enumerate())
        .into_iter()
        .map(|(_, t)| t)
        .collect()
}

/// The critical finding when `a` and `b` list different rows on the days `c` both cover.
fn disagreement(
    a: &Statement,
    b: &Statement,
    pa: Period,
    pb: Period,
    c: Period,
) -> Option<Finding> {
    let (ra, rb) = (rows_on(a, c), rows_on(b, c));
    let mut receipts: Vec<&str> = ra
        .iter()
        .filter(|(k, (n, _))| rb.get(*k).map_or(0, |m| m.0) != *n)
        .chain(
            rb.iter()
                .filter(|(k, (n, _))| ra.get(*k).map_or(0, |m| m.0) != *n),
        )
        .map(|(k, _)| k.1)
        .collect();
    receipts.sort_unstable();
    receipts.dedup();
    if receipts.is_empty() {
        return None;
    }
    let shown: Vec<&str> = receipts.iter().take(10).copied().collect();
    let (first, second) = if (pa.start, pa.end) <= (pb.start, pb.end) {
        (pa, pb)
    } else {
        (pb, pa)
    };
    Some(Finding {
        code: "statements_disagree".to_owned(),
        severity: Severity::Critical,
        message: format!(
            "The statements of one account for {} to {} and {} to {} both cover {} to {} but \
             list different rows there: {} receipt(s) differ ({}{})",
            first.start,
            first.end,
            second.start,
            second.end,
            c.start,
            c.end,
            receipts.len(),
            shown.join(", "),
            if receipts.len() > shown.len() {
                ", …"
            } else {
                ""
            }
        ),
    })
}

/// The order accounts are combined in: wallet, number, period, then their rows.
fn canonical(a: &Account<'_>, b: &Account<'_>) -> Ordering {
    let head = |x: &Account<'_>| {
        let (s, p) = x.statements[0];
        (
            s.provider.to_string(),
            line_number(s),
            p.start,
            p.end,
            x.rows.len(),
        )
    };
    head(a).cmp(&head(b)).then_with(|| {
        a.rows
            .iter()
            .map(|t| sort_key(t))
            .cmp(b.rows.iter().map(|t| sort_key(t)))
    })
}

/// `statement_gap` (info) for every run of days inside the application's period that no
/// statement covers.
fn gaps(statements: &[&Statement]) -> Vec<Finding> {
    let mut periods: Vec<Period> = statements.iter().map(|s| covered(s)).collect();
    periods.sort_by_key(|p| (p.start, p.end));
    let mut out = Vec::new();
    let mut reach = periods[0].end;
    for p in &periods[1..] {
        if let Some(next) = reach.succ_opt()
            && p.start > next
        {
            let last = p.start.pred_opt().unwrap_or(p.start);
            out.push(Finding {
                code: "statement_gap".to_owned(),
                severity: Severity::Info,
                message: format!(
                    "No statement covers {next} to {last} ({} days): the features read them as \
                     days without activity",
                    (last - next).num_days() + 1
                ),
            });
        }
        reach = reach.max(p.end);
    }
    out
}

/// Pairs `(send, receipt)` of a completed send on one account and the completed receipt of the
/// same amount under the same receipt number on another, whose counterparty (when the send
/// names one) shares a name with the receiving account's holder.
fn own_transfers<'a>(accounts: &[Account<'a>]) -> Vec<(&'a Transaction, &'a Transaction)> {
    if accounts.len() < 2 {
        return Vec::new();
    }
    let mut incoming: foldhash::HashMap<&str, Vec<(usize, &Transaction)>> =
        foldhash::HashMap::default();
    for (a, acc) in accounts.iter().enumerate() {
        for t in &acc.rows {
            if t.is_completed()
                && t.category == Category::ReceivedMoney
                && t.paid_in > Decimal::ZERO
            {
                incoming
                    .entry(t.receipt_no.as_str())
                    .or_default()
                    .push((a, *t));
            }
        }
    }
    let mut pairs = Vec::new();
    for (a, acc) in accounts.iter().enumerate() {
        for t in &acc.rows {
            if !(t.is_completed()
                && t.category == Category::SendMoney
                && t.withdrawn > Decimal::ZERO)
            {
                continue;
            }
            let Some(candidates) = incoming.get_mut(t.receipt_no.as_str()) else {
                continue;
            };
            let names_holder = |b: usize| {
                let holder = accounts[b]
                    .statements
                    .iter()
                    .find_map(|(s, _)| s.holder.name.as_deref());
                match (t.counterparty.as_deref(), holder) {
                    (Some(c), Some(h)) => identity::compare(c, h) != identity::Likeness::Different,
                    _ => true,
                }
            };
            if let Some(k) = candidates
                .iter()
                .position(|(b, r)| *b != a && r.paid_in == t.withdrawn && names_holder(*b))
            {
                pairs.push((*t, candidates.swap_remove(k).1));
            }
        }
    }
    pairs
}

/// The accounts' rows as one statement: own transfers re-categorised, and across accounts each
/// balance the sum of every account's latest balance.
fn one_statement(accounts: &[Account<'_>], own: &[(&Transaction, &Transaction)]) -> Statement {
    let own_rows: foldhash::HashSet<*const Transaction> = own
        .iter()
        .flat_map(|(a, b)| [std::ptr::from_ref(*a), std::ptr::from_ref(*b)])
        .collect();
    let first = accounts[0].statements[0].0;
    let all = || {
        accounts
            .iter()
            .flat_map(|a| a.statements.iter().map(|(s, _)| *s))
    };
    // Each account's balance before its first row; `None` when it prints no balance.
    let mut current: Vec<Option<Decimal>> = accounts
        .iter()
        .map(|a| {
            a.rows.iter().find_map(|t| {
                t.balance
                    .map(|b| if t.is_completed() { b - t.net() } else { b })
            })
        })
        .collect();
    let several = accounts.len() > 1;
    let mut merged: Vec<(usize, usize, &Transaction)> = accounts
        .iter()
        .enumerate()
        .flat_map(|(a, acc)| acc.rows.iter().enumerate().map(move |(i, t)| (a, i, *t)))
        .collect();
    merged.sort_by_key(|&(a, i, t)| (t.completed_at, a, i));
    let transactions = merged
        .into_iter()
        .map(|(a, _, t)| {
            let mut row = t.clone();
            if own_rows.contains(&std::ptr::from_ref(t)) {
                row.category = Category::OwnAccountTransfer;
                row.counterparty = None;
            }
            if several && let Some(b) = t.balance {
                current[a] = Some(b);
                row.balance = current.iter().copied().sum::<Option<Decimal>>();
            }
            row
        })
        .collect();
    let start = all()
        .map(|s| covered(s).start)
        .min()
        .unwrap_or(NaiveDate::MIN);
    let end = all()
        .map(|s| covered(s).end)
        .max()
        .unwrap_or(NaiveDate::MIN);
    let number = (!several)
        .then(|| all().find_map(|s| s.holder.mobile_number.clone()))
        .flatten();
    Statement {
        provider: first.provider.clone(),
        holder: AccountHolder {
            name: all().filter_map(|s| s.holder.name.clone()).min(),
            mobile_number: number,
            email: None,
        },
        currency: first.currency.clone(),
        currency_exponent: first.currency_exponent,
        country: first.country.clone(),
        time_zone: first.time_zone.clone(),
        period: Some(Period { start, end }),
        requested_at: all().filter_map(|s| s.requested_at).max(),
        transactions,
        ..Statement::default()
    }
}
