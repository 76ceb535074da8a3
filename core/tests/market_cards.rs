//! The built-in cards of the other markets are the Kenyan card carried over with a documented
//! factor (the World Bank's PPP conversion factor for private consumption, PA.NUS.PRVT.PP, as
//! the ratio of the country's to Kenya's, same year), each money edge rounded to two significant
//! figures. This test derives them again from the Kenyan card and compares them with the
//! committed files, so the method in `docs/scorecard.md` ("Markets") is the one the cards use.
//!
//! Regenerate the files after changing the Kenyan card or a factor:
//! `ALAMA_BLESS=1 cargo test -p alama-core --test market_cards`.

use rust_decimal::Decimal;
use serde_json::{Map, Value};

/// One market's derivation: its currency, card version, factor (local currency units per KES,
/// in purchasing power) and the rationale written into the card.
struct Market {
    currency: &'static str,
    file: &'static str,
    factor: &'static str,
    rationale: &'static str,
}

const MARKETS: [Market; 3] = [
    Market {
        currency: "UGX",
        file: "alama-ugx-2027.01",
        factor: market_factors::UGX,
        rationale: market_factors::UGX_RATIONALE,
    },
    Market {
        currency: "GHS",
        file: "alama-ghs-2027.01",
        factor: market_factors::GHS,
        rationale: market_factors::GHS_RATIONALE,
    },
    Market {
        currency: "LSL",
        file: "alama-lsl-2027.01",
        factor: market_factors::LSL,
        rationale: market_factors::LSL_RATIONALE,
    },
];

#[path = "market_cards/factors.rs"]
mod market_factors;

/// `v` rounded to two significant figures, half away from zero (`195000` → `200000`,
/// `7.8` → `7.8`, `0.35` → `0.35`).
fn two_significant(v: Decimal) -> Decimal {
    if v.is_zero() {
        return v;
    }
    let digits =
        i64::try_from(v.abs().trunc().to_string().trim_start_matches('0').len()).unwrap_or(0);
    let digits = if v.abs() < Decimal::ONE {
        // 0.0123 → position of the first significant digit after the point.
        let s = v.abs().normalize().to_string();
        let frac = s.split_once('.').map_or("", |(_, f)| f);
        -i64::try_from(frac.chars().take_while(|c| *c == '0').count()).unwrap_or(0)
    } else {
        digits
    };
    let shift = 2 - digits; // decimal places to keep (negative: round to tens, hundreds…)
    if shift >= 0 {
        v.round_dp_with_strategy(
            u32::try_from(shift).unwrap_or(0),
            rust_decimal::RoundingStrategy::MidpointAwayFromZero,
        )
        .normalize()
    } else {
        let scale = Decimal::from(10_i64.pow(u32::try_from(-shift).unwrap_or(0)));
        ((v / scale)
            .round_dp_with_strategy(0, rust_decimal::RoundingStrategy::MidpointAwayFromZero)
            * scale)
            .normalize()
    }
}

fn scaled(text: &str, factor: Decimal) -> String {
    let v: Decimal = text.parse().expect("a decimal edge");
    two_significant(v * factor).to_string()
}

/// `"KES 1,000"` in a sentence → `"UGX 26,000"` (the same rounding as the edges).
fn scaled_sentence(text: &str, currency: &str, factor: Decimal) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find("KES ") {
        out.push_str(&rest[..at]);
        let after = &rest[at + 4..];
        let len = after
            .find(|c: char| !(c.is_ascii_digit() || c == ','))
            .unwrap_or(after.len());
        let number = after[..len].trim_end_matches(',');
        if number.is_empty() {
            out.push_str(currency);
            out.push(' ');
            rest = after;
            continue;
        }
        let v = scaled(&number.replace(',', ""), factor);
        let grouped = group(&v);
        out.push_str(currency);
        out.push(' ');
        out.push_str(&grouped);
        rest = &after[number.len()..];
    }
    out.push_str(rest);
    out
}

fn group(v: &str) -> String {
    let (int, frac) = v.split_once('.').map_or((v, None), |(i, f)| (i, Some(f)));
    let mut s = String::new();
    for (i, c) in int.chars().enumerate() {
        if i > 0 && (int.len() - i) % 3 == 0 {
            s.push(',');
        }
        s.push(c);
    }
    frac.map_or(s.clone(), |f| format!("{s}.{f}"))
}

fn derive(kes: &Value, m: &Market) -> Value {
    let factor: Decimal = m.factor.parse().expect("factor");
    let mut card = kes.clone();
    let obj = card.as_object_mut().expect("card object");
    obj.insert("version".into(), Value::String(m.file.into()));
    obj.insert("currency".into(), Value::String(m.currency.into()));
    let thresholds = obj
        .get_mut("thresholds")
        .and_then(Value::as_object_mut)
        .expect("the Kenyan card has thresholds");
    for key in [
        "materialMonthlyIncome",
        "minActivityAmount",
        "nearZeroBalance",
        "minMaterialBill",
        "maxMaterialBill",
    ] {
        let v = thresholds[key].as_str().expect("edge").to_owned();
        thresholds.insert(key.into(), Value::String(scaled(&v, factor)));
    }
    thresholds.insert("rationale".into(), Value::String(m.rationale.into()));
    if let Some(k) = obj.get_mut("knockout").and_then(Value::as_object_mut) {
        for w in k["when"].as_array_mut().expect("conditions") {
            let w = w.as_object_mut().expect("condition");
            if w["feature"] == "overdue_credit" {
                let v = w["atLeast"].as_str().expect("edge").to_owned();
                w.insert("atLeast".into(), Value::String(scaled(&v, factor)));
            }
        }
    }
    for c in obj["characteristics"]
        .as_array_mut()
        .expect("characteristics")
    {
        let c = c.as_object_mut().expect("characteristic");
        let rationale = c["rationale"].as_str().expect("rationale").to_owned();
        c.insert(
            "rationale".into(),
            Value::String(scaled_sentence(&rationale, m.currency, factor)),
        );
        for a in c["attributes"].as_array_mut().expect("attributes") {
            let a: &mut Map<String, Value> = a.as_object_mut().expect("attribute");
            for key in ["name", "reason"] {
                let t = a[key].as_str().expect("text").to_owned();
                a.insert(
                    key.into(),
                    Value::String(scaled_sentence(&t, m.currency, factor)),
                );
            }
            let unit = a["unit"].as_str().expect("unit").to_owned();
            if !unit.starts_with("KES") {
                continue;
            }
            a.insert(
                "unit".into(),
                Value::String(unit.replacen("KES", m.currency, 1)),
            );
            for b in a["bins"].as_array_mut().expect("bins") {
                let b = b.as_object_mut().expect("bin");
                for edge in ["min", "max"] {
                    if let Some(v) = b[edge].as_str().map(str::to_owned) {
                        b.insert(edge.into(), Value::String(scaled(&v, factor)));
                    }
                }
            }
        }
    }
    card
}

fn path(file: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scorecards")
        .join(format!("{file}.json"))
}

#[test]
fn two_significant_figures() {
    let d = |s: &str| s.parse::<Decimal>().expect("decimal");
    assert_eq!(two_significant(d("195000")), d("200000"));
    assert_eq!(two_significant(d("26123")), d("26000"));
    assert_eq!(two_significant(d("7.84")), d("7.8"));
    assert_eq!(two_significant(d("0.355")), d("0.36"));
    assert_eq!(two_significant(d("0.0123")), d("0.012"));
}

#[test]
fn built_in_market_cards_are_the_kenyan_card_carried_over() {
    let kes: Value = serde_json::from_str(alama_core::scorecard::BUILTIN_JSON).expect("KES card");
    let bless = std::env::var_os("ALAMA_BLESS").is_some();
    for m in &MARKETS {
        let derived = derive(&kes, m);
        let text = serde_json::to_string_pretty(&derived).expect("json") + "\n";
        // The derived card must validate: edges still strictly increasing after rounding.
        alama_core::Scorecard::from_json(&text)
            .unwrap_or_else(|e| panic!("derived {} card: {e}", m.currency));
        if bless {
            std::fs::write(path(m.file), &text).expect("write card");
            continue;
        }
        let committed = std::fs::read_to_string(path(m.file)).expect("committed card");
        assert_eq!(
            committed, text,
            "{} differs from its derivation: ALAMA_BLESS=1 cargo test -p alama-core --test market_cards",
            m.file
        );
    }
}

#[test]
fn every_built_in_card_is_chosen_by_its_currency() {
    for currency in ["KES", "UGX", "GHS", "LSL"] {
        let card = alama_core::scorecard::builtin_for(currency).expect("a built-in card");
        assert_eq!(card.currency, currency);
        assert!(card.version.contains(&currency.to_ascii_lowercase()));
        assert!(
            card.thresholds.is_some(),
            "{currency} card defines its thresholds"
        );
    }
    let err = alama_core::scorecard::builtin_for("USD").expect_err("no USD card");
    assert_eq!(err.code(), "unsupported_currency");
    for c in ["KES", "UGX", "GHS", "LSL"] {
        assert!(err.message().contains(c), "{}", err.message());
    }
}
