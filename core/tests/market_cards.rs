//! The built-in cards of the other markets are the Kenyan card carried over with a documented
//! factor (the World Bank's PPP conversion factor for private consumption, PA.NUS.PRVT.PP, as
//! the ratio of the country's to Kenya's, same year), each money edge rounded to two significant
//! figures. This test derives them again from the Kenyan card and compares them with the
//! committed files, so the method in `docs/scorecard.md` ("Markets") is the one the cards use.
//!
//! Every card's `thresholds.rationale` ends with its sensitivity, measured here with the
//! personas (`core/src/testing/personas.rs`): how far the median persona's score moves when the
//! factor is 25 % lower or higher ([`sensitivity`]); the Kenyan card's too, at ±25 % of every
//! amount. Regenerate the files after changing the Kenyan card, a factor or the engine:
//! `ALAMA_BLESS=1 cargo test -p alama-core --features testing --test market_cards`.

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
        file: "alama-ugx-2027.03",
        factor: market_factors::UGX,
        rationale: market_factors::UGX_RATIONALE,
    },
    Market {
        currency: "GHS",
        file: "alama-ghs-2027.03",
        factor: market_factors::GHS,
        rationale: market_factors::GHS_RATIONALE,
    },
    Market {
        currency: "LSL",
        file: "alama-lsl-2027.03",
        factor: market_factors::LSL,
        rationale: market_factors::LSL_RATIONALE,
    },
];

#[path = "market_cards/factors.rs"]
mod market_factors;
#[path = "market_cards/sensitivity.rs"]
mod sensitivity;
#[path = "market_cards/wording.rs"]
mod wording;

use sensitivity::with_sensitivity;

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

/// `"KES 1,000"` in a sentence → `"UGX 26,000"` (the same rounding as the edges), and a range
/// `"KES 30,000–50,000"` → `"UGX 910,000–1,500,000"`. An amount written `{KES n}` (a Kenyan
/// figure that stays one, see [`wording`]) becomes `KES n (UGX m)`.
fn scaled_sentence(text: &str, currency: &str, factor: Decimal) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find("KES ") {
        let kept = at > 0 && rest[..at].ends_with('{');
        out.push_str(&rest[..at]);
        let after = &rest[at + 4..];
        let number = |s: &str| {
            let len = s
                .find(|c: char| !(c.is_ascii_digit() || c == ','))
                .unwrap_or(s.len());
            s[..len].trim_end_matches(',').len()
        };
        let first = number(after);
        if first == 0 {
            out.push_str(currency);
            out.push(' ');
            rest = after;
            continue;
        }
        // A range: the amount after the dash is converted too.
        let mut end = first;
        let mut amounts = vec![&after[..first]];
        if let Some(second) = after[first..].strip_prefix('–') {
            let n = number(second);
            if n > 0 {
                amounts.push(&second[..n]);
                end = first + '–'.len_utf8() + n;
            }
        }
        let converted: Vec<String> = amounts
            .iter()
            .map(|a| group(&scaled(&a.replace(',', ""), factor)))
            .collect();
        if kept {
            out.pop(); // the `{`
            out.push_str("KES ");
            out.push_str(&after[..end]);
            out.push_str(" (");
            out.push_str(currency);
            out.push(' ');
            out.push_str(&converted.join("–"));
            out.push(')');
            rest = after[end..].strip_prefix('}').unwrap_or(&after[end..]);
        } else {
            out.push_str(currency);
            out.push(' ');
            out.push_str(&converted.join("–"));
            rest = &after[end..];
        }
    }
    out.push_str(rest);
    out
}

/// `text` with the Kenyan card's own words replaced by the other markets' ([`wording::WORDING`]).
fn reworded(text: &str) -> String {
    wording::WORDING
        .iter()
        .fold(text.to_owned(), |t, (kenyan, market)| {
            t.replace(kenyan, market)
        })
}

/// `text` in another market's words and currency.
fn carried_over(text: &str, currency: &str, factor: Decimal) -> String {
    scaled_sentence(&reworded(text), currency, factor)
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
            Value::String(carried_over(&rationale, m.currency, factor)),
        );
        for a in c["attributes"].as_array_mut().expect("attributes") {
            let a: &mut Map<String, Value> = a.as_object_mut().expect("attribute");
            for key in ["name", "reason"] {
                let t = a[key].as_str().expect("text").to_owned();
                a.insert(
                    key.into(),
                    Value::String(carried_over(&t, m.currency, factor)),
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
    let mut kes: Value =
        serde_json::from_str(alama_core::scorecard::BUILTIN_JSON).expect("KES card");
    let bless = std::env::var_os("ALAMA_BLESS").is_some();
    // The Kenyan card's own sensitivity, at ±25 % of every amount.
    with_sensitivity(&mut kes, "KES", Decimal::ONE);
    let kes_text = serde_json::to_string_pretty(&kes).expect("json") + "\n";
    let kes_file = path(alama_core::scorecard::VERSION);
    if bless {
        std::fs::write(&kes_file, &kes_text).expect("write card");
    } else {
        assert_eq!(
            std::fs::read_to_string(&kes_file).expect("committed card"),
            kes_text,
            "the Kenyan card's measured sensitivity differs: ALAMA_BLESS=1 cargo test -p alama-core --features testing --test market_cards"
        );
    }
    for m in &MARKETS {
        let mut derived = derive(&kes, m);
        with_sensitivity(&mut derived, m.currency, m.factor.parse().expect("factor"));
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
            "{} differs from its derivation: ALAMA_BLESS=1 cargo test -p alama-core --features testing --test market_cards",
            m.file
        );
    }
}

/// Each of the Kenyan card's own phrases occurs in it exactly once, so a change of its words
/// fails here instead of leaving a Kenyan phrase in another market's card; no name or reason of
/// another market's card (what a report's reader sees) names a Kenyan product, regulator or the
/// shilling.
#[test]
fn market_cards_speak_their_market() {
    for (kenyan, _) in wording::WORDING {
        assert_eq!(
            alama_core::scorecard::BUILTIN_JSON.matches(kenyan).count(),
            1,
            "{kenyan}"
        );
    }
    for m in &MARKETS {
        let card = alama_core::Scorecard::from_json(
            &std::fs::read_to_string(path(m.file)).expect("committed card"),
        )
        .expect("card");
        let json: Value = serde_json::from_str(&card.to_json()).expect("json");
        for c in json["characteristics"].as_array().expect("characteristics") {
            let attributes = c["attributes"].as_array().expect("attributes");
            let texts = std::iter::once(&c["name"])
                .chain(attributes.iter().flat_map(|a| [&a["name"], &a["reason"]]));
            for text in texts.filter_map(Value::as_str) {
                for word in wording::KENYAN_WORDS {
                    assert!(!text.contains(word), "{}: {text}", m.file);
                }
            }
        }
        assert!(!json.to_string().contains("{KES"), "{}", m.file);
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
