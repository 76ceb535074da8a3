//! A statement carried into another wallet's words (feature `testing`): the same movements, at
//! the same times, of the same people, written as that wallet writes them ([`in_wallet`]), so
//! that every behaviour the personas and edits of this module show can be checked on every
//! registered wallet by the conformance suite (`core/tests/conformance.rs`).

use chrono::Timelike as _;
use rust_decimal::Decimal;

use crate::categorise::Category;
use crate::statement::{Statement, Transaction};
use crate::wallets::{Ids, Party, Wallet};

/// `statement` (in any registered wallet's words) carried into `wallet`'s: each row's category
/// and counterparty are read in its own wallet's words, then written in `wallet`'s
/// ([`crate::wallets::Generator::words`]), its amounts multiplied by `factor` (the market's
/// price level against the statement's, see docs/scorecard.md) and rounded to the currency's
/// minor units, its running balance recomputed from the converted opening balance (rows that
/// printed none print none), and what `wallet` prints beside them filled in (a fee of 0, the
/// balance before, no receipt where it prints none, minutes where it prints no seconds, ids
/// numbered in time order where its ids rise with time).
/// Rows `wallet` prints no row for (MTN's charges) are left out. The statement is `wallet`'s,
/// in its currency, country and time zone, with the holder, period and request date kept and
/// no SUMMARY. `None` for a wallet without a generator.
pub fn in_wallet(
    statement: &Statement,
    wallet: &'static Wallet,
    factor: Decimal,
) -> Option<Statement> {
    let generator = wallet.generator.as_ref()?;
    let mut source = statement.clone();
    crate::parse::prepare(&mut source);
    let currency = wallet.currency.unwrap_or("KES");
    let places = crate::statement::currency_exponent(currency).unwrap_or(2);
    let convert = |d: Decimal| crate::money::normalise((d * factor).round_dp(places));
    let mut rows: Vec<(usize, Transaction)> = Vec::with_capacity(source.transactions.len());
    for (index, t) in source.transactions.iter().enumerate() {
        let Some(words) = (generator.words)(t.category, &party_of(t)) else {
            continue;
        };
        let mut completed_at = t.completed_at;
        if !generator.prints.seconds {
            completed_at -= chrono::Duration::seconds(i64::from(completed_at.time().second()));
        }
        rows.push((
            index,
            Transaction {
                receipt_no: if generator.prints.receipt {
                    t.receipt_no.clone()
                } else {
                    String::new()
                },
                completed_at,
                details: words.details,
                status: t.status,
                paid_in: convert(t.paid_in),
                withdrawn: convert(t.withdrawn),
                balance: t.balance,
                transaction_type: words.transaction_type,
                fee: generator.prints.fee.then_some(Decimal::ZERO),
                ..Transaction::empty()
            },
        ));
    }
    rebalance(
        &source,
        &mut rows,
        &convert,
        generator.prints.balance_before,
    );
    if matches!(wallet.profile.ids, Ids::RiseWithTime) {
        number_in_time_order(&mut rows);
    }
    Some(Statement {
        provider: wallet.provider(),
        holder: source.holder.clone(),
        currency: currency.to_owned(),
        currency_exponent: None,
        country: wallet.country.map(str::to_owned),
        time_zone: wallet.time_zone.map(str::to_owned),
        period: source.period,
        requested_at: source.requested_at,
        transactions: rows.into_iter().map(|(_, t)| t).collect(),
        unparsed: source.unparsed.clone(),
        ..Statement::default()
    })
}

/// Ids numbered in time order (the source's order at one time), as Airtel Uganda and MTN
/// Ghana number theirs: twelve digits, a gap between rows.
fn number_in_time_order(rows: &mut [(usize, Transaction)]) {
    for (rank, i) in (0u64..).zip(time_order(rows)) {
        rows[i].1.receipt_no = (100_000_000_000 + rank * 7).to_string();
    }
}

/// The indices of `rows` (each with its index in `source`) in time order, the source's order at
/// one time.
fn time_order(rows: &[(usize, Transaction)]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..rows.len()).collect();
    order.sort_by_key(|&i| (rows[i].1.completed_at, rows[i].0));
    order
}

/// The running balance of `rows` (each with its index in `source`) recomputed in time order
/// from `source`'s opening balance converted: a completed row moves it by its net; a row whose
/// source printed no balance prints none. With `before`, each row also prints the balance
/// before it.
fn rebalance(
    source: &Statement,
    rows: &mut [(usize, Transaction)],
    convert: &dyn Fn(Decimal) -> Decimal,
    before: bool,
) {
    let opening = opening(source);
    let order = time_order(rows);
    let mut balance = convert(opening);
    for i in order {
        let t = &mut rows[i].1;
        let printed = source.transactions[rows[i].0].balance.is_some();
        if before && printed {
            t.balance_before = Some(balance);
        }
        if t.is_completed() {
            balance += t.net();
        }
        t.balance = printed.then_some(balance);
    }
}

/// The balance before `source`'s first rows: of the rows of its earliest time (a charge row
/// prints the same time as its transfer, in either order), the balance before one of them from
/// which the group's net ends on a balance the group prints.
fn opening(source: &Statement) -> Decimal {
    let net = |t: &Transaction| {
        if t.is_completed() {
            t.net()
        } else {
            Decimal::ZERO
        }
    };
    let printed: Vec<&Transaction> = source
        .transactions
        .iter()
        .filter(|t| t.balance.is_some())
        .collect();
    let Some(first) = printed.iter().map(|t| t.completed_at).min() else {
        return Decimal::ZERO;
    };
    let group: Vec<&Transaction> = printed
        .into_iter()
        .filter(|t| t.completed_at == first)
        .collect();
    let group_net: Decimal = group.iter().map(|t| net(t)).sum();
    let candidates = group.iter().filter_map(|t| t.balance.map(|b| b - net(t)));
    candidates
        .clone()
        .find(|c| group.iter().any(|t| t.balance == Some(*c + group_net)))
        .or_else(|| candidates.max())
        .unwrap_or_default()
}

/// The other party of a row as the words of every wallet name it: the letters of the name its
/// own wallet reads (`JANE DOE`), and eight digits that follow from that name, so one person is
/// one number on every row.
fn party_of(t: &Transaction) -> Party {
    let key = t.counterparty.as_deref().unwrap_or("test party");
    let name: Vec<String> = key
        .split(' ')
        .filter(|w| w.chars().any(char::is_alphabetic))
        .map(str::to_uppercase)
        .collect();
    let name = if name.is_empty() {
        "TEST PARTY".to_owned()
    } else {
        name.join(" ")
    };
    // FNV-1a of the name, folded to eight digits: the same name, the same number.
    let hash = name.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    });
    Party {
        name,
        digits: format!("{:08}", hash % 100_000_000),
    }
}

/// Every category a wallet's words may be asked for (all but `Uncategorised`).
pub fn every_category() -> impl Iterator<Item = Category> {
    Category::ALL
        .into_iter()
        .filter(|c| *c != Category::Uncategorised)
}
