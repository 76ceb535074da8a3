//! The forgery benchmark of every wallet (issue 50): forgers made at test time
//! ([`alama_core::tamper::forge`], [`alama_core::tamper::mutate`]) edit the shared genuine
//! samples and generated statements; each forged copy is judged and the outcome counted per
//! wallet, source and forgery. Nothing forged is written to disk.
//!
//! - `forgery_benchmark` (always, about a minute and a half in debug): `ALAMA_FORGERY_N` (default
//!   2) seeds per forgery per file; prints the table published in docs/integrity.md and
//!   asserts what the verdict promises (see the assertions below). Genuine samples must come
//!   out `verified` or `consistent` (0 false alarms); without the samples folders only the
//!   generated statements are forged.
//!
//! The samples hold real people's data: only wallet names, forgery kinds, verdicts and finding
//! codes are printed.

use std::collections::BTreeMap;
use std::path::PathBuf;

use alama_core::check::check;
use alama_core::tamper::{Edit, Forgery, forge, mutate};
use alama_core::{ParseOptions, Severity, Statement};

/// A verdict, or `refused` when the forged file no longer reads as a statement.
/// The options that open a file with `password` ("" when it has none).
fn options(password: &str) -> ParseOptions {
    if password.is_empty() {
        ParseOptions::default()
    } else {
        ParseOptions::with_password(password)
    }
}

fn judge(bytes: &[u8], password: &str) -> (String, Vec<String>) {
    let Ok(parsed) = alama_core::parse(bytes, &options(password)) else {
        return ("refused".to_owned(), Vec::new());
    };
    let statement = parsed.into_statement();
    let wallet = alama_core::wallets::of(&statement.provider).expect("a wallet");
    let integrity = check(&statement.reading(), wallet, None);
    let codes = integrity
        .findings
        .iter()
        .filter(|f| f.severity > Severity::Info)
        .map(|f| f.code.clone())
        .collect();
    (integrity.status, codes)
}

fn read(bytes: &[u8], password: &str) -> Statement {
    alama_core::parse(bytes, &options(password))
        .expect("the genuine file reads")
        .into_statement()
}

fn seeds() -> u64 {
    std::env::var("ALAMA_FORGERY_N")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(2)
}

fn dir(name: &str) -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/samples")
        .join(name);
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!("note: {} is absent; its samples are skipped", dir.display());
        None
    }
}

/// Outcome counts per (wallet, source, forgery): status → count.
type Table = BTreeMap<(String, &'static str, String), BTreeMap<String, u32>>;

fn count(table: &mut Table, key: (&str, &'static str, &str), status: &str) {
    *table
        .entry((key.0.to_owned(), key.1, key.2.to_owned()))
        .or_default()
        .entry(status.to_owned())
        .or_default() += 1;
}

/// A genuine file must carry no warning and no critical finding.
fn genuine(table: &mut Table, wallet: &str, source: &'static str, bytes: &[u8], password: &str) {
    let (status, codes) = judge(bytes, password);
    assert!(
        matches!(status.as_str(), "verified" | "consistent"),
        "{wallet} {source}: a genuine file is {status} ({codes:?})"
    );
    count(table, (wallet, source, "genuine"), &status);
}

/// Every forgery of `forge` on a PDF (`password` opens it where it is encrypted: "" when not).
fn forge_all(
    table: &mut Table,
    wallet: &str,
    source: &'static str,
    bytes: &[u8],
    password: &str,
    seeds: u64,
) {
    let statement = read(bytes, password);
    let pw = (!password.is_empty()).then_some(password);
    for forgery in Forgery::ALL {
        for seed in 0..seeds {
            match forge(bytes, pw, &statement, forgery, seed) {
                Ok(forged) => {
                    assert_ne!(
                        forged,
                        bytes,
                        "{wallet} {source} {}: the forgery changed nothing",
                        forgery.name()
                    );
                    if let Ok(dump) = std::env::var("ALAMA_FORGERY_DUMP") {
                        let _ = std::fs::write(
                            format!("{dump}/{wallet}-{}-{seed}.pdf", forgery.name()),
                            &forged,
                        );
                    }
                    let (status, codes) = judge(&forged, password);
                    eprintln!(
                        "{wallet} {source} {} #{seed}: {status} {codes:?}",
                        forgery.name()
                    );
                    count(table, (wallet, source, forgery.name()), &status);
                }
                Err(e) => eprintln!(
                    "{wallet} {source} {} #{seed}: not made ({e})",
                    forgery.name()
                ),
            }
        }
    }
}

/// Safaricom's samples, forged by the M-Pesa tamper generator (in place, re-encrypted with the
/// statement's own password when it was encrypted).
fn safaricom(table: &mut Table) {
    let Some(dir) = dir("real") else {
        return;
    };
    let files = [
        (
            "mpesa_2022-01_monthly_itext5_aes256_pw34915463.pdf",
            "34915463",
        ),
        ("mpesa_2023-04_decrypted_3heights.pdf", ""),
    ];
    // The 2024 layout (OpenPDF, RC4), 117 pages: the wallet-agnostic forgers only, one seed
    // each unless `ALAMA_FORGERY_N` asks for more (a debug build reads it in about 3 s).
    let current = ("mpesa_2023-05_to_2024-05_encrypted_pw183177.pdf", "183177");
    if let Ok(bytes) = std::fs::read(dir.join(current.0)) {
        let n = std::env::var("ALAMA_FORGERY_N").map_or(1, |_| seeds());
        genuine(table, "mpesa", "sample", &bytes, current.1);
        forge_all(table, "mpesa", "sample", &bytes, current.1, n);
    }
    for (name, password) in files {
        let Ok(bytes) = std::fs::read(dir.join(name)) else {
            continue;
        };
        genuine(table, "mpesa", "sample", &bytes, password);
        forge_all(table, "mpesa", "sample", &bytes, password, seeds());
        let pw = (!password.is_empty()).then_some(password);
        for (edit, label) in [
            (Edit::AmountDigit, "naive_digit"),
            (Edit::CarefulForger, "careful_reencrypted"),
            (Edit::Resave, "resaved"),
        ] {
            for seed in 0..seeds() {
                match mutate(&bytes, pw, edit, seed) {
                    Ok(forged) => {
                        let (status, codes) = judge(&forged, password);
                        eprintln!("mpesa sample {label} #{seed}: {status} {codes:?}");
                        count(table, ("mpesa", "sample", label), &status);
                    }
                    Err(e) => eprintln!("mpesa {label} #{seed}: not made ({e})"),
                }
            }
        }
    }
}

/// The generated PDFs of every wallet that writes PDFs, genuine and forged.
fn forge_generated(table: &mut Table) {
    for wallet in alama_core::wallets::ALL {
        let Some(generator) = wallet.generator.as_ref() else {
            continue;
        };
        for seed in 0..seeds() {
            let file = (generator.file)(seed, 40);
            if !file.bytes.starts_with(b"%PDF") {
                continue;
            }
            let (status, _) = judge(&file.bytes, "");
            count(table, (wallet.id, "generated", "generated_file"), &status);
            let statement = read(&file.bytes, "");
            // (Written-back forgeries need a classic cross-reference table, which the
            // generated files do not have.)
            for forgery in [Forgery::NaiveDigit, Forgery::CarefulLonger] {
                match forge(&file.bytes, None, &statement, forgery, seed) {
                    Ok(forged) => {
                        let (status, _) = judge(&forged, "");
                        count(table, (wallet.id, "generated", forgery.name()), &status);
                    }
                    Err(e) => eprintln!(
                        "{} generated {} #{seed}: not made ({e})",
                        wallet.id,
                        forgery.name()
                    ),
                }
            }
        }
    }
}

#[test]
fn forgery_benchmark() {
    let mut table = Table::new();
    safaricom(&mut table);
    if let Some(dir) = dir("wallets") {
        for (wallet, name) in [
            ("airtel-money-ug", "airtel-money-ug_2026-03_personal.pdf"),
            ("vodacom-mpesa-ls", "vodacom-mpesa-ls_2024-12_personal.pdf"),
        ] {
            let Ok(bytes) = std::fs::read(dir.join(name)) else {
                continue;
            };
            genuine(&mut table, wallet, "sample", &bytes, "");
            forge_all(&mut table, wallet, "sample", &bytes, "", seeds());
        }
    }
    forge_generated(&mut table);
    eprintln!(
        "| wallet | source | forgery | n | failed | warnings | refused | consistent | verified |"
    );
    eprintln!("|---|---|---|---|---|---|---|---|---|");
    for ((wallet, source, forgery), outcomes) in &table {
        let n: u32 = outcomes.values().sum();
        let of = |s: &str| outcomes.get(s).copied().unwrap_or(0);
        eprintln!(
            "| {wallet} | {source} | {forgery} | {n} | {} | {} | {} | {} | {} |",
            of("failed"),
            of("warnings"),
            of("refused"),
            of("consistent"),
            of("verified")
        );
    }
    // With the samples, the digit typed over was forged on each (the rule below is not vacuous).
    if dir("wallets").is_some() {
        for wallet in ["airtel-money-ug", "vodacom-mpesa-ls"] {
            let key = (
                wallet.to_owned(),
                "sample",
                "naive_tens_written_back".to_owned(),
            );
            assert!(
                table.get(&key).is_some_and(|o| o.values().sum::<u32>() > 0),
                "{wallet}: no digit typed over was forged"
            );
        }
    }
    // What the verdict promises (docs/integrity.md, "An honest `verified`").
    for ((wallet, source, forgery), outcomes) in &table {
        let of = |s: &str| outcomes.get(s).copied().unwrap_or(0);
        match forgery.as_str() {
            // A naive edit (of an amount or a balance) fails wherever the rows can show it:
            // where a SUMMARY reconciles or every break is evidence, always; where genuine breaks are not all explained
            // (Vodacom Lesotho), unless the edited row follows a row printing 0 whose amount
            // is not known or a group that took a charge twice (docs/integrity.md): the rate
            // is the table's, and such an edit is never verified.
            // A balance typed over on Safaricom, whose chain does not list every movement,
            // fails unless it then prints a neighbour's balance, as Safaricom itself sometimes
            // does (a debit printing the balance before it), or its break adds to one of
            // Safaricom's own unlisted movements (16 of the 2022 sample's 1,261 in the balance
            // sweep, docs/integrity.md; 1 of 36 with 12 seeds, 3 of 120 with 40): at least 90 %.
            "naive_balance_written_back" if unlisted(wallet) => {
                assert!(
                    of("failed") * 10 >= outcomes.values().sum::<u32>() * 9,
                    "{wallet} {source}: a balance typed over did not fail ({outcomes:?})"
                );
            }
            "naive_digit"
            | "naive_written_back"
            | "naive_tens_written_back"
            | "naive_balance_written_back"
                if !unexplained_breaks(wallet) =>
            {
                assert_eq!(
                    of("failed"),
                    outcomes.values().sum::<u32>(),
                    "{wallet} {source}: a naive edit did not fail ({outcomes:?})"
                );
            }
            // Where genuine breaks are not all explained (Vodacom Lesotho), a naive edit of an
            // amount on the genuine sample fails but for the exceptions docs/integrity.md names
            // (1 of 80 seeds for the digit, 0 of 80 for the tens digit and written back, on
            // 2026-12-03): at least 95 %. (Generated statements print withdrawals without their
            // charge rows, so a units digit there may be a charge taken without one: 75 of 80.)
            "naive_digit" | "naive_written_back" | "naive_tens_written_back"
                if *source == "sample" =>
            {
                assert!(
                    of("failed") * 100 >= outcomes.values().sum::<u32>() * 95,
                    "{wallet} {source}: a naive edit did not fail ({outcomes:?})"
                );
            }
            // A longer amount moved left from its old start keeps that start's rounding: on
            // Safaricom's originals it ends a hundredth off its column unless the two roundings
            // cancel (8 of 24 with 12 seeds, docs/integrity.md): at most half is verified.
            "written_back_realigned" if unlisted(wallet) => {
                assert!(
                    of("verified") * 2 <= outcomes.values().sum::<u32>(),
                    "{wallet} {source}: longer amounts realigned were verified ({outcomes:?})"
                );
            }
            // No length-changing, re-saved or rebuilt copy, and no Lesotho edit, is verified:
            // but for an edit written back into the file's own bytes as its writer would have
            // drawn it (the same length, glyph by glyph by the writer's own moves, or longer
            // and moved to keep a right-aligned column's edge: the limit of a check of one
            // file, docs/integrity.md).
            "genuine"
            | "generated_file"
            | "written_back"
            | "written_back_glyphs_copied"
            | "written_back_realigned" => {}
            // A credit raised with the SUMMARY's total, the balances as printed: on Safaricom a
            // break alone is one of its own unlisted movements (98 on the 2023–24 statement),
            // so with every length kept and written back it is the same limit; where every
            // break is evidence, it fails (the step reads as the amount typed over, and the
            // SUMMARY's balances no longer reconcile).
            "written_back_balances_as_printed" if unlisted(wallet) => {}
            "written_back_balances_as_printed" if !unexplained_breaks(wallet) => {
                assert_eq!(
                    of("failed"),
                    outcomes.values().sum::<u32>(),
                    "{wallet} {source}: balances left as printed did not fail ({outcomes:?})"
                );
            }
            _ => assert_eq!(
                of("verified"),
                0,
                "{wallet} {source} {forgery}: verified ({outcomes:?})"
            ),
        }
    }
}

/// Whether the wallet of the table's `wallet` column does not list every movement (Safaricom).
fn unlisted(wallet: &str) -> bool {
    alama_core::wallets::find(wallet)
        .is_some_and(|w| matches!(w.profile.chain, alama_core::wallets::Chain::Unlisted))
}

/// Whether the wallet of the table's `wallet` column lists every movement but its genuine chains
/// break for reasons not all explained (`breaks_are_evidence: false`; Vodacom Lesotho).
fn unexplained_breaks(wallet: &str) -> bool {
    alama_core::wallets::find(wallet).is_some_and(|w| {
        matches!(
            w.profile.chain,
            alama_core::wallets::Chain::Listed {
                breaks_are_evidence: false,
                ..
            }
        )
    })
}
