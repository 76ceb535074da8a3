//! Statements of one account that cover the same days (docs/applications.md, rule 2): the rows
//! on those days are read once, and must be the same rows in every statement that covers them.

use std::collections::BTreeMap;

use chrono::{NaiveDate, NaiveDateTime};
use rust_decimal::Decimal;

use crate::report::{Finding, Severity};
use crate::statement::{Period, Statement, Transaction};

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
pub(super) fn common(a: Period, b: Period) -> Option<Period> {
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

/// The rows of one account's statements (sorted by period): a row on days only one statement
/// covers as it is; on days several cover, each printed row as many times as the statement that
/// lists it most often, and a critical `statements_disagree` when two statements differ there.
pub(super) fn merged_rows<'a>(
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
