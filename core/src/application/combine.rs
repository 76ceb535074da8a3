//! The rows of an application as one reading: its statements grouped by account, the rows two
//! statements of one account both cover read once (and compared), transfers between the
//! applicant's own accounts made neutral, and each account's rows listed beside them so that
//! the balance features add the accounts' end-of-day balances (docs/applications.md gives the
//! rules). The rows are the statements' own, borrowed; the own transfers, re-categorised, are
//! the only copies.
//!
//! Every step reads the statements as a set: accounts are put in one canonical order (wallet,
//! number, period, then their rows in reading order) before anything depends on an order, so
//! the combined statement does not depend on the order the statements were handed in.

use std::borrow::Cow;
use std::cmp::Ordering;
use std::collections::BTreeMap;

use chrono::NaiveDate;
use rust_decimal::Decimal;

use super::identity;
use crate::categorise::Category;
use crate::report::{Finding, Severity};
use crate::statement::{AccountHolder, Period, Reading, Statement, Transaction, sort_key};

/// An application's rows as one reading ([`Combined::reading`]), and what combining them found.
pub(crate) struct Combined<'a> {
    /// The statement the features read: the application's only statement, or a header of the
    /// applicant's (holder, currency, the period all cover) without rows of its own.
    header: Cow<'a, Statement>,
    /// With several statements, each account's rows in reading order (canonical account
    /// order); empty for one statement.
    accounts: Vec<Vec<&'a Transaction>>,
    /// The own transfers re-categorised (`own_account_transfer`, no counterparty), each with
    /// its place in `accounts` (account, row).
    copies: Vec<((usize, usize), Transaction)>,
    /// `statements_disagree`, `statement_gap`, `own_transfers`, holder-name findings.
    pub findings: Vec<Finding>,
}

impl Combined<'_> {
    /// The combined rows in reading order ([`crate::statement::reading_order`]), own transfers
    /// as their copies; [`Reading::accounts`] lists each account's rows when there are
    /// several accounts.
    pub(crate) fn reading(&self) -> Reading<'_> {
        if self.accounts.is_empty() {
            return self.header.reading();
        }
        let mut accounts: Vec<Vec<&Transaction>> = self.accounts.clone();
        for ((a, i), copy) in &self.copies {
            // A row both statements of an account list as often is there that often, side by
            // side in reading order: each time, the copy.
            let original = std::ptr::from_ref(self.accounts[*a][*i]);
            let rows = &mut accounts[*a];
            let same = |t: &&Transaction| std::ptr::eq(*t, original);
            let start = *i - rows[..*i].iter().rev().take_while(|t| same(t)).count();
            let end = *i + rows[*i..].iter().take_while(|t| same(t)).count();
            rows[start..end].fill(copy);
        }
        let rows = merged(&accounts);
        Reading {
            statement: &self.header,
            rows,
            accounts: if accounts.len() > 1 {
                accounts
            } else {
                Vec::new()
            },
        }
    }
}

/// The rows of `accounts` (each in reading order) in reading order: the order
/// [`crate::statement::reading_order`] gives their concatenation (by
/// [`sort_key`], ties by account, then by place), made by merging them (a few accounts, so a
/// linear scan of their heads; re-sorting 15,000 rows was 3.5 M instructions of an application's
/// critical path, `stage_times`, 2026-11-28).
fn merged<'r>(accounts: &[Vec<&'r Transaction>]) -> Vec<&'r Transaction> {
    let mut heads = vec![0_usize; accounts.len()];
    let mut rows = Vec::with_capacity(accounts.iter().map(Vec::len).sum());
    loop {
        let mut least: Option<(usize, &Transaction)> = None;
        for (a, account) in accounts.iter().enumerate() {
            if let Some(&t) = account.get(heads[a])
                && least.is_none_or(|(_, l)| {
                    // Times first: they differ for most pairs, and are cheaper than the key.
                    t.completed_at
                        .cmp(&l.completed_at)
                        .then_with(|| sort_key(t).cmp(&sort_key(l)))
                        .is_lt()
                })
            {
                least = Some((a, t));
            }
        }
        let Some((a, t)) = least else {
            return rows;
        };
        heads[a] += 1;
        rows.push(t);
    }
}

/// One account: the statements of one wallet line.
pub(super) struct Account<'a> {
    /// Its statements, by period.
    pub(super) statements: Vec<(&'a Statement, Period)>,
    /// Its rows, those two statements both list read once, in reading order.
    pub(super) rows: Vec<&'a Transaction>,
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

/// Combines `statements` (prepared, in one currency, at least one) into one reading
/// ([`Combined::reading`]).
pub(crate) fn combine<'a>(statements: &[&'a Statement]) -> Combined<'a> {
    let mut findings = Vec::new();
    let names: Vec<&str> = statements
        .iter()
        .filter_map(|s| s.holder.name.as_deref())
        .collect();
    findings.extend(identity::finding(&names));
    if let [only] = statements {
        return Combined {
            header: Cow::Borrowed(only),
            accounts: Vec::new(),
            copies: Vec::new(),
            findings,
        };
    }
    let mut accounts = accounts(statements, &mut findings);
    accounts.sort_by(canonical);
    findings.extend(gaps(statements));
    let own = super::own::own_transfers(&accounts);
    if !own.is_empty() {
        let total: Decimal = own
            .iter()
            .map(|[(a, i), _]| accounts[*a].rows[*i].withdrawn)
            .sum();
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
    let copies = own
        .iter()
        .flatten()
        .map(|&(a, i)| {
            let mut copy = accounts[a].rows[i].clone();
            copy.category = Category::OwnAccountTransfer;
            copy.counterparty = None;
            ((a, i), copy)
        })
        .collect();
    Combined {
        header: Cow::Owned(header(&accounts)),
        accounts: accounts.into_iter().map(|a| a.rows).collect(),
        copies,
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
            let rows = super::overlap::merged_rows(&members, findings);
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
        _ => super::overlap::common(pa, pb).is_some_and(|c| {
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

/// The applicant's header over `accounts`: the first account's wallet and currency, the
/// holder's name (the least, so that the order of the statements changes nothing), a number
/// only when there is one account, the period from the first day any statement covers to the
/// last, the latest request date; no rows of its own.
fn header(accounts: &[Account<'_>]) -> Statement {
    let first = accounts[0].statements[0].0;
    let all = || {
        accounts
            .iter()
            .flat_map(|a| a.statements.iter().map(|(s, _)| *s))
    };
    let start = all()
        .map(|s| covered(s).start)
        .min()
        .unwrap_or(NaiveDate::MIN);
    let end = all()
        .map(|s| covered(s).end)
        .max()
        .unwrap_or(NaiveDate::MIN);
    let number = (accounts.len() == 1)
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
        ..Statement::default()
    }
}

#[cfg(test)]
mod tests {
    use rust_decimal::Decimal;

    use super::*;
    use crate::statement::TransactionStatus;

    proptest::proptest! {
        /// Merging accounts each in reading order gives the reading order of all their rows.
        #[test]
        fn merged_is_the_reading_order_of_all_rows(
            accounts in proptest::collection::vec(
                proptest::collection::vec((0i64..5, 0u8..3, 0i64..3), 0..20),
                1..4,
            )
        ) {
            let owned: Vec<Vec<Transaction>> = accounts
                .into_iter()
                .map(|rows| {
                    rows.into_iter()
                        .map(|(secs, receipt, amount)| Transaction {
                            receipt_no: format!("R{receipt}"),
                            completed_at: chrono::DateTime::from_timestamp(1_700_000_000 + secs, 0)
                                .unwrap_or_default()
                                .naive_utc(),
                            status: TransactionStatus::Completed,
                            paid_in: Decimal::new(amount, 2),
                            ..Transaction::empty()
                        })
                        .collect()
                })
                .collect();
            let each: Vec<Vec<&Transaction>> =
                owned.iter().map(|rows| crate::statement::in_reading_order(rows)).collect();
            let expected: Vec<*const Transaction> =
                crate::statement::reading_order(each.iter().flatten().copied().enumerate())
                    .into_iter()
                    .map(|(_, t)| std::ptr::from_ref(t))
                    .collect();
            let got: Vec<*const Transaction> =
                merged(&each).into_iter().map(std::ptr::from_ref).collect();
            proptest::prop_assert_eq!(got, expected);
        }
    }
}
