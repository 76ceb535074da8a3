//! Statements booked and printed the way Vodacom M-Pesa Lesotho books and prints movements, its
//! quirks included, at random amounts (issue 50: "0 false alarms on every genuine sample"; a
//! held-out statement is another draw of the same wallet). Each quirk is one of the shared
//! sample's (`../shared/samples/wallets/vodacom-mpesa-ls_2024-12_personal.pdf`):
//!
//! - a withdrawal or send printed with its charge row, the charge in the same second or the next;
//! - a two-part payment: the principal printed on a charge row ("Pay Bill Charge", "Withdrawal
//!   Charge", "Customer Transfer of Funds Charge") beside the total, both printing the balance
//!   after the total; a withdrawal's charge in it is the withdrawal tariff's;
//! - a withdrawal whose charge row prints 0 beside another account's balance, or which has no
//!   charge row: the charge is taken without a row and shows in the next row's balance;
//! - a send whose charge row prints 0 beside the balance after the charge;
//! - a receipt whose sender paid the withdrawal charge: a row printing 0 beside the balance with
//!   the charge credited, or beside another account's balance (the charge then shows next);
//! - a send paying the recipient's withdrawal charge, whose transfer charge may be taken without
//!   a row (the withdrawal charge row's balance then holds both: the sample's 2.78 row);
//! - a deposit, receipt or advance printed as 0 beside the balance after it or another
//!   account's, sometimes followed seconds later by a repayment taken from it;
//! - an overdraft draw seconds before the withdrawal it pays for.
//!
//! Charges follow the sample's bands, or, on half the statements, a band table drawn for the
//! statement (another year's tariff: charges with cents, now and then a round one below ten).
//! Withdrawal and transfer charges rise with the amount, as every M-Pesa tariff's do (the
//! sample's nine withdrawals and fourteen sends printed beside their charge rows do).
//!
//! `QUIRK_N=3000 QUIRK_ROWS=150 cargo test --release -p alama-core --features testing --test
//! quirk_draw -- --nocapture` runs the long draw (docs/integrity.md).

use std::collections::BTreeMap;

use chrono::{Duration, NaiveDate, NaiveDateTime};
use rust_decimal::Decimal;

use alama_core::report::{Integrity, Severity};
use alama_core::statement::{Statement, Transaction};
use alama_core::tamper::typed_over;
use alama_core::testing::SplitMix64;

/// Upper ends of the sample's charge bands (inclusive, maloti) and their charges in lisente.
const BANDS: [i64; 5] = [50, 100, 250, 500, 1_000];
const WITHDRAWAL: [i64; 5] = [184, 278, 422, 632, 956];
const TRANSFER: [i64; 5] = [116, 173, 260, 391, 520];

const WITHDRAW: &str = "Customer Withdrawal At Agent Till 300123 - Test Shop";
const WITHDRAWAL_CHARGE: &str = "Withdrawal Charge";
const SEND: &str = "Customer Transfer to 26650000000 - TEST PERSON";
const TRANSFER_CHARGE: &str = "Customer Transfer of Funds Charge";
const SEND_CHARGE_PAID: &str =
    "Customer Transfer with withdrawal charge to 26650000000 - TEST PERSON";
const RECEIVED_CHARGE_PAID: &str =
    "Funds received from 26650000000 - TEST PERSON with withdrawal charge";
const CHARGE_PAID: &str = "Customer Transfer of Funds with withdrawal Charge";
const DEPOSIT: &str = "Deposit of Funds at Agent Till 300123 - Test Snack Bar";
const ADVANCE: &str = "M-Pesa Advance Payment from 12345 - Test Lender";
const REPAY: &str = "Customer Advance Payment to 12345 - Test Lender";
const DRAW: &str = "Overdraft Payment from 72957 - Redeem Financial Services";

/// An amount in lisente as maloti.
fn lisente(n: i64) -> Decimal {
    Decimal::new(n, 2)
}

/// The charge of `table` on `amount`.
fn charge(table: &[i64; 5], amount: Decimal) -> Decimal {
    let band = BANDS
        .iter()
        .position(|top| amount <= Decimal::from(*top))
        .unwrap_or(4);
    lisente(table[band])
}

/// A wallet's book: the balance it holds and the rows it prints.
struct Book {
    rng: SplitMix64,
    balance: Decimal,
    /// Money taken or credited without a row, landing before the next movement.
    pending: Decimal,
    time: NaiveDateTime,
    rows: Vec<Transaction>,
    /// This statement's withdrawal and transfer charges per band, in lisente.
    withdrawal: [i64; 5],
    transfer: [i64; 5],
}

impl Book {
    fn new(seed: u64) -> Book {
        let mut rng = SplitMix64::new(seed);
        let (mut withdrawal, mut transfer) = (WITHDRAWAL, TRANSFER);
        if rng.chance(50) {
            let (mut at, mut send) = (50, 30);
            for band in 0..5 {
                at += i64::try_from(rng.range(20, 250)).unwrap_or(20);
                // Now and then a round charge, rounded up: a tariff never charges less for
                // more.
                if rng.chance(10) && at < 900 {
                    at = (at + 99) / 100 * 100;
                }
                withdrawal[band] = at;
                send += i64::try_from(rng.range(10, 150)).unwrap_or(10);
                transfer[band] = send;
            }
        }
        let balance = lisente(i64::try_from(rng.range(0, 50_000)).unwrap_or(0));
        Book {
            rng,
            balance,
            pending: Decimal::ZERO,
            time: NaiveDate::from_ymd_opt(2024, 7, 2)
                .and_then(|d| d.and_hms_opt(6, 0, 0))
                .unwrap_or_default(),
            rows: Vec::new(),
            withdrawal,
            transfer,
        }
    }

    fn n(&mut self, lo: u64, hi: u64) -> i64 {
        i64::try_from(self.rng.range(lo, hi)).unwrap_or(0)
    }

    /// A movement's amount: mostly round, as people send and withdraw.
    fn amount(&mut self) -> Decimal {
        match self.n(1, 20) {
            1..=12 => Decimal::from(10 * self.n(1, 80)),
            13..=16 => Decimal::from(5 * self.n(1, 60)),
            _ => lisente(self.n(100, 30_000)),
        }
    }

    /// Another account's balance.
    fn foreign(&mut self) -> Decimal {
        lisente(self.n(1_000_000, 90_000_000))
    }

    /// Prints a row `second`s after the movement's time.
    fn print(&mut self, details: &str, net: Decimal, balance: Decimal, second: i64) {
        self.rows.push(Transaction {
            completed_at: self.time + Duration::seconds(second),
            details: details.to_owned(),
            paid_in: net.max(Decimal::ZERO),
            withdrawn: if net.is_sign_negative() {
                -net
            } else {
                Decimal::ZERO
            },
            balance: Some(balance),
            ..Transaction::empty()
        });
    }

    /// Moves the balance by `net` and prints it.
    fn book(&mut self, details: &str, net: Decimal, second: i64) {
        self.balance += net;
        self.print(details, net, self.balance, second);
    }

    /// A row printing 0 beside the balance with `credit` in it, or beside another account's
    /// balance (`credit` then lands on the next movement).
    fn unprinted(&mut self, details: &str, credit: Decimal, own: bool, second: i64) {
        if own {
            self.balance += credit;
            self.print(details, Decimal::ZERO, self.balance, second);
        } else {
            let foreign = self.foreign();
            self.print(details, Decimal::ZERO, foreign, second);
            self.pending += credit;
        }
    }

    /// One movement, quirks included.
    fn movement(&mut self) {
        let gap = self.n(60, 40_000);
        self.time += Duration::seconds(gap);
        self.balance += self.pending;
        self.pending = Decimal::ZERO;
        let amount = self.amount();
        let fee = charge(&self.withdrawal, amount);
        let tax = charge(&self.transfer, amount);
        let kind = self.n(1, 100);
        if kind > 30 && self.balance < amount + fee + tax + Decimal::TEN {
            if self.rng.chance(30) && self.balance > Decimal::ZERO {
                // An overdraft draw seconds before the withdrawal it pays for.
                self.book(DRAW, amount + fee - self.balance, 0);
                self.book(WITHDRAW, -amount, 4);
                self.book(WITHDRAWAL_CHARGE, -fee, 4);
            } else {
                self.book(DEPOSIT, amount, 0);
            }
            return;
        }
        match kind {
            1..=22 => {
                let form = *self.rng.pick(&[
                    "Funds received from 26650000000 - TEST PERSON",
                    DEPOSIT,
                    "External customer transfer to Registered Customer from National Payment Switch",
                    ADVANCE,
                ]);
                self.book(form, amount, 0);
            }
            23..=26 => {
                // A receipt whose sender paid the withdrawal charge.
                let second = self.n(0, 1);
                self.book(RECEIVED_CHARGE_PAID, amount, 0);
                let own = self.rng.chance(60);
                self.unprinted(CHARGE_PAID, fee, own, second);
            }
            27..=30 => {
                // Money in printed as 0, now and then repaid from at once.
                let form = *self.rng.pick(&[DEPOSIT, RECEIVED_CHARGE_PAID, ADVANCE]);
                let own = self.rng.chance(80);
                self.unprinted(form, amount, own, 0);
                if own && self.rng.chance(40) {
                    let repaid = lisente(self.n(100, 20_000)).min(self.balance);
                    let second = self.n(2, 90);
                    self.book(REPAY, -repaid, second);
                }
            }
            31..=45 => {
                let form = *self.rng.pick(&[
                    "Airtime Purchase",
                    "TwoPartPaybill",
                    "Paymerchant to 54321 - Test Shop",
                    REPAY,
                    "Customer Overdraft Payment to72957 - Redeem Financial Services",
                ]);
                let small = if self.rng.chance(50) {
                    Decimal::from(self.n(1, 6))
                } else {
                    amount
                };
                self.book(form, -small, 0);
            }
            46..=70 => {
                // A withdrawal or send with its charge row.
                let (details, charge_row, taken) = if self.rng.chance(70) {
                    (WITHDRAW, WITHDRAWAL_CHARGE, fee)
                } else {
                    (SEND, TRANSFER_CHARGE, tax)
                };
                let second = self.n(0, 4) / 4;
                self.book(details, -amount, 0);
                self.book(charge_row, -taken, second);
            }
            71..=78 => {
                // A two-part payment: the principal printed on a charge row beside the total. A
                // withdrawal's charge is the withdrawal tariff's (the sample's 26.84 for 25.00 and
                // 102.78 for 100.00); a payment's or send's may be another's.
                let (total, principal) = *self.rng.pick(&[
                    ("TwoPartPaybill", "Pay Bill Charge"),
                    (WITHDRAW, WITHDRAWAL_CHARGE),
                    (SEND, TRANSFER_CHARGE),
                    ("Payment to 12345 - Test Academy", "Pay Bill Charge"),
                ]);
                let taken = if total != WITHDRAW && self.rng.chance(50) {
                    lisente(self.n(100, 500))
                } else {
                    fee
                };
                self.book(total, -(amount + taken), 0);
                self.print(principal, -amount, self.balance, 0);
            }
            _ => self.charge_without_row(kind, amount, fee, tax),
        }
    }

    /// A withdrawal or send whose charge is taken without a row of its own: `kind` 79 to 100 of
    /// [`Book::movement`].
    fn charge_without_row(&mut self, kind: i64, amount: Decimal, fee: Decimal, tax: Decimal) {
        match kind {
            ..=86 => {
                // A withdrawal whose charge is taken without a row.
                self.book(WITHDRAW, -amount, 0);
                if self.rng.chance(60) {
                    let foreign = self.foreign();
                    self.print(WITHDRAWAL_CHARGE, Decimal::ZERO, foreign, 0);
                }
                self.pending -= fee;
            }
            87..=90 => {
                // A send whose charge row prints 0 beside the balance after the charge.
                self.book(SEND, -amount, 0);
                self.balance -= tax;
                self.print(TRANSFER_CHARGE, Decimal::ZERO, self.balance, 0);
            }
            _ => {
                // A send paying the recipient's withdrawal charge; its transfer charge may be
                // taken without a row.
                self.book(SEND_CHARGE_PAID, -amount, 0);
                if self.rng.chance(50) {
                    self.book(CHARGE_PAID, -fee, 0);
                    self.book(TRANSFER_CHARGE, -tax, 0);
                } else {
                    self.balance -= tax;
                    self.book(CHARGE_PAID, -fee, 0);
                }
            }
        }
    }
}

/// The number in the environment variable `name`, else `default`.
fn setting<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// A statement of `movements` movements drawn from `seed`, newest row first as the wallet
/// prints it, categorised by the wallet's rules.
fn statement(seed: u64, movements: usize) -> Statement {
    let mut book = Book::new(seed);
    for _ in 0..movements {
        book.movement();
    }
    let wallet = alama_core::wallets::find("vodacom-mpesa-ls").expect("Vodacom Lesotho");
    let mut rows = book.rows;
    rows.reverse();
    wallet.rules.categorise_all(&mut rows);
    Statement {
        provider: wallet.provider(),
        currency: "LSL".to_owned(),
        transactions: rows,
        ..Statement::default()
    }
}

/// The integrity of a statement drawn here.
fn integrity(statement: &Statement) -> Integrity {
    let wallet = alama_core::wallets::find("vodacom-mpesa-ls").expect("Vodacom Lesotho");
    alama_core::check::check(&statement.reading(), wallet, None)
}

#[test]
fn the_wallets_own_quirks_are_no_evidence() {
    let (n, rows) = (setting("QUIRK_N", 400_u64), setting("QUIRK_ROWS", 60_usize));
    let flagged: Vec<(u64, Vec<String>)> = (0..n)
        .map(|seed| {
            let found = integrity(&statement(seed, rows))
                .findings
                .into_iter()
                .filter(|f| f.severity != Severity::Info)
                .map(|f| format!("{}: {}", f.code, f.message))
                .collect();
            (seed, found)
        })
        .filter(|(_, found): &(u64, Vec<String>)| !found.is_empty())
        .collect();
    assert!(flagged.is_empty(), "{} of {n}: {flagged:#?}", flagged.len());
}

/// Every amount of drawn statements with one digit typed over, the balances as printed: the
/// share that fails, per digit place and side. Measured on the 40 statements drawn here, with
/// more quirks than the sample has (a third of the movements): credits 93 % (cents), 93 %
/// (units), 97 % (tens), 97 % (hundreds); debits 83 %, 84 %, 98 %, 98 %. The floors stay a few
/// points under.
#[test]
fn a_digit_typed_over_on_a_drawn_statement_mostly_fails() {
    let n = setting("QUIRK_N", 40_u64);
    // (place, credit) → (failed, edits)
    let mut table: BTreeMap<(usize, bool), (u32, u32)> = BTreeMap::new();
    for seed in 0..n {
        let s = statement(seed, 60);
        for (index, t) in s.transactions.iter().enumerate() {
            for (credit, amount) in [(true, t.paid_in), (false, t.withdrawn)] {
                for place in [0, 3, 4, 5] {
                    let Some(forged) = typed_over(amount, place).filter(|_| !amount.is_zero())
                    else {
                        continue;
                    };
                    let mut edited = s.clone();
                    let row = &mut edited.transactions[index];
                    *(if credit {
                        &mut row.paid_in
                    } else {
                        &mut row.withdrawn
                    }) = forged;
                    let entry = table.entry((place, credit)).or_default();
                    entry.1 += 1;
                    entry.0 += u32::from(integrity(&edited).status == "failed");
                }
            }
        }
    }
    for (&(place, credit), &(failed, edits)) in &table {
        eprintln!("place {place}, credit {credit}: {failed} of {edits} failed");
        let least = match (place, credit) {
            (0 | 3, _) => 80,
            _ => 94,
        };
        assert!(
            failed * 100 >= edits * least,
            "place {place}, credit {credit}: {failed} of {edits} failed, {least} % expected"
        );
    }
}
