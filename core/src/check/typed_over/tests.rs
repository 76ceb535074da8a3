//! The shape of a digit typed over (`one_digit_apart`), on hand-made amounts.

use super::TENS;
use rust_decimal::Decimal;

fn one_digit_apart(printed: Decimal, moved: Decimal) -> bool {
    super::one_digit_apart(printed, moved, TENS)
}

fn d(s: &str) -> Decimal {
    s.parse().expect("a decimal")
}

#[test]
fn a_digit_typed_over_in_the_tens_or_higher_is_one_digit_apart() {
    assert!(one_digit_apart(d("900"), d("300.00")));
    assert!(one_digit_apart(d("-1250.50"), d("-1850.50")));
    assert!(one_digit_apart(d("310.50"), d("300.50")));
}

#[test]
fn below_the_tens_lengths_and_signs_are_not() {
    assert!(!one_digit_apart(d("51.00"), d("50.00")));
    assert!(!one_digit_apart(d("5.78"), d("8.78")));
    assert!(!one_digit_apart(d("1300"), d("300")));
    assert!(!one_digit_apart(d("900"), d("-300")));
    assert!(!one_digit_apart(d("900"), d("310")));
    assert!(!one_digit_apart(Decimal::ZERO, d("100")));
}

#[test]
fn with_no_least_difference_any_digit_counts() {
    assert!(super::one_digit_apart(d("5.78"), d("8.78"), Decimal::ZERO));
    assert!(super::one_digit_apart(d("0.26"), d("0.24"), Decimal::ZERO));
    assert!(!super::one_digit_apart(d("5.78"), d("8.79"), Decimal::ZERO));
}

#[test]
fn a_digit_of_ten_units_or_more_is_typed_back() {
    let back: Vec<Decimal> = super::digit_typed_back(d("150.00"), d("10")).collect();
    assert!(back.contains(&d("100.00")) && back.contains(&d("950.00")));
    assert!(back.contains(&d("110.00")) && !back.contains(&d("151.00")));
    assert!(!back.contains(&d("50.00")) && !back.contains(&d("150.00")));
    assert_eq!(back.len(), 17);
    assert_eq!(super::digit_typed_back(d("9.99"), d("10")).count(), 0);
    let cents: Vec<Decimal> = super::digit_typed_back(d("25.00"), super::CENT).collect();
    assert!(cents.contains(&d("25.05")) && cents.contains(&d("20.00")));
    assert!(cents.contains(&d("95.00")) && !cents.contains(&d("05.00")));
    assert_eq!(cents.len(), 8 + 9 + 9 + 9);
}
