//! The Airtel reader on rows and header lines another edition or month could print.

use chrono::{NaiveDate, NaiveDateTime};
use rust_decimal::Decimal;

use super::front::Front;
use super::*;

fn cells(texts: &[&str]) -> Vec<Piece> {
    texts
        .iter()
        .enumerate()
        .map(|(i, t)| Piece {
            x: 40.0 * i as f32,
            right: 40.0 * i as f32 + 30.0,
            text: (*t).to_owned(),
        })
        .collect()
}

fn at(text: &str) -> NaiveDateTime {
    NaiveDateTime::parse_from_str(text, "%Y-%m-%d %H:%M").expect("a time")
}

fn d(text: &str) -> Decimal {
    text.parse().expect("a decimal")
}

#[test]
fn a_row_without_a_fee_cell_reads_its_amount_and_balance() {
    let line = cells(&[
        "100000000001",
        "04-03-26 06:18 PM",
        "Received from TEST",
        "Transaction Successful",
        "5,000.00",
        "Credit",
        "30,000.00",
    ]);
    assert!(starts_row(&line));
    let row = read_row(&line).expect("a row");
    assert_eq!(row.completed_at, at("2026-03-04 18:18"));
    assert_eq!((row.paid_in, row.withdrawn), (d("5000"), Decimal::ZERO));
    assert_eq!(row.balance, Some(d("30000")));
    assert_eq!(row.fee, Some(Decimal::ZERO));
    assert_eq!(row.details, "Received from TEST");
}

#[test]
fn ids_with_letters_and_dates_in_pieces_read() {
    let line = cells(&[
        "BT2403041234",
        "04-03-2026",
        "06:18",
        "PM",
        "Paid to TEST SHOP",
        "Transaction Successful",
        "1,500,000.00",
        "Debit",
        "500.00",
        "2,000.00",
    ]);
    assert!(starts_row(&line));
    let row = read_row(&line).expect("a row");
    assert_eq!(row.receipt_no, "BT2403041234");
    assert_eq!(row.completed_at, at("2026-03-04 18:18"));
    assert_eq!(row.withdrawn, d("1500500"));
    assert_eq!(row.fee, Some(d("500")));
    // A Description line holding a number alone (a Receiving TID) is not a row.
    assert!(!starts_row(&cells(&["123456789012"])));
    assert!(!starts_row(&cells(&["123456789012", "TEST SHOP"])));
}

#[test]
fn a_fee_the_balance_shows_the_holder_did_not_pay_is_not_the_holders() {
    let line = cells(&[
        "100000000002",
        "05-03-26 09:00 AM",
        "Received from TEST",
        "Transaction Successful",
        "50,000.00",
        "Credit",
        "500.00",
        "60,000.00",
    ]);
    let mut row = read_row(&line).expect("a row");
    assert_eq!(row.withdrawn, d("500"));
    // The balance went from 10,000 to 60,000: the amount alone.
    fee_by_balance(&mut row, Some(d("10000")));
    assert_eq!(
        (row.paid_in, row.withdrawn, row.fee),
        (d("50000"), Decimal::ZERO, None)
    );
    // From 10,500 to 60,000: the fee was the holder's.
    let mut row = read_row(&line).expect("a row");
    fee_by_balance(&mut row, Some(d("10500")));
    assert_eq!((row.withdrawn, row.fee), (d("500"), Some(d("500"))));
}

#[test]
fn header_dates_in_other_layouts() {
    let day = |y, m, dd| NaiveDate::from_ymd_opt(y, m, dd);
    for period in [
        "Statement Period: 01-Mar-26 to 31-Mar-26",
        "Statement Period: 01-Mar-2026 to 31-Mar-2026",
        "Statement Period: 01/03/2026 - 31/03/2026",
        "Statement Period: 01-Mar-26 To 31-Mar-26",
    ] {
        let mut front = Front::default();
        front.read(period);
        let got = front.period.map(|p| (p.start, p.end));
        assert_eq!(got, day(2026, 3, 1).zip(day(2026, 3, 31)), "{period}");
    }
    for request in ["Request Date: 21 Apr, 2026", "Request Date: 21-Apr-2026"] {
        let mut front = Front::default();
        front.read(request);
        assert_eq!(front.requested_at, day(2026, 4, 21), "{request}");
    }
}
