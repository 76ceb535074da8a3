//! The synthetic MTN MoMo Ghana (CSV) statement.

use chrono::Duration;
use rust_decimal::Decimal;

use crate::categorise::Category;
use crate::rng::SplitMix64;
use crate::statement::{AccountHolder, Statement, Transaction};
use crate::wallets::synthetic::{Synthetic, day, money};

/// An MTN MoMo Ghana CSV of `rows` rows (from March 2025, newest first).
#[expect(
    clippy::too_many_lines,
    reason = "one generator: each record and the row it must read as, side by side"
)]
pub fn mtn_statement(seed: u64, rows: usize) -> Synthetic {
    use super::csv::{HEADER, TIME_FORMAT, details_of};
    let mut rng = SplitMix64::new(seed);
    let (acct, name, number) = ("233240000001", "TEST HOLDER", "233240000001");
    let mut balance = money(&mut rng, 5, 300, true);
    let mut time = day(2025, 3, 1).and_hms_opt(7, 0, 0).unwrap_or_default();
    let mut records: Vec<[String; 16]> = Vec::with_capacity(rows);
    let mut transactions = Vec::with_capacity(rows);
    for i in 0..rows {
        time += Duration::seconds(i64::try_from(rng.range(60, 90_000)).unwrap_or(60));
        let cents = rng.chance(50);
        let amount = money(&mut rng, 1, 150, cents);
        let fees = if rng.chance(20) {
            Decimal::new(38, 2)
        } else {
            Decimal::ZERO
        };
        // Some transfers carry the E-LEVY the law set that day on the amount (1 % until the
        // repeal of 2 April 2025 and its month of refunds, then none), rounded to the pesewa.
        let levy = if rng.chance(10) {
            super::levy::most(time.date(), amount)
        } else {
            Decimal::ZERO
        };
        let out = !rng.chance(30) && amount + fees + levy <= balance;
        let party = format!("2332{:08}", rng.range(0, 99_999_999));
        let (kind, party_name, reference, ova) = if out {
            let forms: [(&str, &str, String, &str); 4] = [
                ("TRANSFER", "JANE DOE", "Rent, March".to_owned(), "Internal"),
                (
                    "DEBIT",
                    "one4all.sp",
                    format!(
                        "One4all Debit SystemIlIELEVYIlI0.00IlI{}IlI0.0",
                        rng.range(1, 999_999)
                    ),
                    "one4all.sp",
                ),
                (
                    "DEBIT",
                    "Bills.INV .",
                    "The Test KitchenIlIELEVYIlI0.00".to_owned(),
                    "HubtelPOS.sp",
                ),
                (
                    "CASH_OUT",
                    "TEST AGENT",
                    "NationalId--".to_owned(),
                    "Internal",
                ),
            ];
            rng.pick(&forms).clone()
        } else {
            let forms: [(&str, &str, String, &str); 3] = [
                ("TRANSFER", "JOHN ROE", "from mum".to_owned(), "Internal"),
                (
                    "CASH_IN",
                    "TEST AGENT",
                    format!("Cashin To-{number}"),
                    "Internal",
                ),
                ("ADJUSTMENT", "momointerest.sp", String::new(), "Internal"),
            ];
            rng.pick(&forms).clone()
        };
        let before = balance;
        let (paid_in, withdrawn) = if out {
            (Decimal::ZERO, amount + fees + levy)
        } else {
            (amount, Decimal::ZERO)
        };
        balance += paid_in - withdrawn;
        let f_id = format!("{}", 50_000_000_000 + i as u64 * 13 + rng.range(0, 12));
        let (from, to) = if out {
            (
                [acct, name, number],
                [party.as_str(), party_name, party.as_str()],
            )
        } else {
            (
                [party.as_str(), party_name, party.as_str()],
                [acct, name, number],
            )
        };
        let text = |d: Decimal| d.normalize().to_string();
        records.push([
            time.format(TIME_FORMAT).to_string(),
            from[0].to_owned(),
            from[1].to_owned(),
            from[2].to_owned(),
            kind.to_owned(),
            text(amount),
            text(if out { fees } else { Decimal::ZERO }),
            text(if out { levy } else { Decimal::ZERO }),
            text(before),
            text(balance),
            to[2].to_owned(),
            to[1].to_owned(),
            to[0].to_owned(),
            f_id.clone(),
            reference.clone(),
            ova.to_owned(),
        ]);
        transactions.push(Transaction {
            receipt_no: f_id,
            completed_at: time,
            details: details_of(kind, out, party_name, &reference, ova),
            paid_in,
            withdrawn,
            balance: Some(balance),
            transaction_type: Some(kind.to_owned()),
            fee: out.then_some(fees),
            tax: out.then_some(levy),
            balance_before: Some(before),
            ..Transaction::empty()
        });
    }
    records.reverse();
    transactions.reverse();
    let mut writer = csv::Writer::from_writer(Vec::new());
    let _ = writer.write_record(HEADER);
    for record in &records {
        let _ = writer.write_record(record);
    }
    let bytes = writer.into_inner().unwrap_or_default();
    let expected = Statement {
        provider: super::WALLET.provider(),
        holder: if rows == 0 {
            AccountHolder::default()
        } else {
            AccountHolder {
                name: Some(name.to_owned()),
                mobile_number: Some(number.to_owned()),
                email: None,
            }
        },
        currency: "GHS".to_owned(),
        currency_exponent: None,
        country: Some("GH".to_owned()),
        time_zone: Some("Africa/Accra".to_owned()),
        transactions,
        ..Statement::default()
    };
    Synthetic { bytes, expected }
}

/// A row's text in MTN MoMo Ghana's words: its transaction type and the Details its reader
/// makes of a record (`TYPE | to/from NAME | REF | OVA`). MTN prints fees inside the rows they
/// are charged on, so a charge is no row of its own (`None`); it lends through `XtraCash`, not an
/// overdraft; a salary is a transfer received; savings go to a bank.
pub(super) fn words(
    category: Category,
    party: &crate::wallets::Party,
) -> Option<crate::wallets::Words> {
    let (kind, out, name, reference, ova, category) = match category {
        Category::SendMoney | Category::PochiLaBiashara => (
            "TRANSFER",
            true,
            party.name.as_str(),
            "",
            "Internal",
            Category::SendMoney,
        ),
        Category::ReceivedMoney | Category::SalaryAndBusinessPayments => (
            "TRANSFER",
            false,
            party.name.as_str(),
            "",
            "Internal",
            Category::ReceivedMoney,
        ),
        Category::AgentDeposit => ("CASH_IN", false, "TEST AGENT", "", "Internal", category),
        Category::AgentWithdrawal => ("CASH_OUT", true, "TEST AGENT", "", "Internal", category),
        Category::Paybill => (
            "CUSTOM_PAYMENT",
            true,
            "TEST ACADEMY",
            "",
            "Internal",
            category,
        ),
        Category::BuyGoods => (
            "DEBIT",
            true,
            "Bills.INV .",
            "The Test Kitchen",
            "HubtelPOS.sp",
            category,
        ),
        Category::AirtimeAndBundles => (
            "DEBIT",
            true,
            "one4all.sp",
            "One4all Debit System",
            "one4all.sp",
            category,
        ),
        Category::FulizaDraw
        | Category::MobileLoanDisbursement
        | Category::DigitalLoanDisbursement => (
            "TRANSFER",
            false,
            "XtraCash",
            "loan",
            "Internal",
            Category::MobileLoanDisbursement,
        ),
        Category::FulizaRepayment
        | Category::MobileLoanRepayment
        | Category::DigitalLoanRepayment => (
            "DEBIT",
            true,
            "XtraCash",
            "loan repayment",
            "Internal",
            Category::MobileLoanRepayment,
        ),
        Category::SavingsDeposit | Category::OwnAccountTransfer => (
            "TRANSFER",
            true,
            "GCB BANK",
            "",
            "gcbpupull.sp",
            Category::OwnAccountTransfer,
        ),
        Category::SavingsWithdrawal => (
            "TRANSFER",
            false,
            "GCB BANK",
            "",
            "gcbpupull.sp",
            Category::OwnAccountTransfer,
        ),
        Category::Betting => ("PAYMENT", true, "BETWAY GHANA", "", "Internal", category),
        Category::Utilities => ("DEBIT", true, "ECG", "prepaid", "Internal", category),
        Category::Reversal => ("ADJUSTMENT", false, "MTN", "reversal", "Internal", category),
        Category::Charges => return None,
        _ => ("", true, "", "", "", Category::Other),
    };
    let details = if kind.is_empty() {
        String::new()
    } else {
        super::csv::details_of(kind, out, name, reference, ova)
    };
    Some(crate::wallets::Words {
        details,
        transaction_type: (!kind.is_empty()).then(|| kind.to_owned()),
        category,
    })
}
