//! The README tells the truth: its command summary names every option of `alama score` and
//! `alama parse`, its Python install line brings pandas, and what it says of the two bundled
//! examples holds. (Its examples and the output they show are run by `scripts/test-docs.sh`;
//! the full command reference, docs/cli.md, is checked by `tests/cli_reference.rs`.)

use std::path::PathBuf;
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn alama(args: &[&str]) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_alama"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("runs alama");
    assert!(
        o.status.success(),
        "alama {args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).expect("utf-8")
}

/// The `--flags` a subcommand's `--help` lists (without `--help` / `--version`).
fn flags(subcommand: &str) -> Vec<String> {
    alama(&[subcommand, "--help"])
        .split(|c: char| c.is_whitespace() || c == ',' || c == '[' || c == ']' || c == '=')
        .filter(|w| w.starts_with("--") && w.len() > 2)
        .map(|w| {
            w.trim_end_matches(|c: char| !c.is_ascii_alphanumeric())
                .to_owned()
        })
        .filter(|w| w != "--help" && w != "--version")
        .collect()
}

#[test]
fn readme_command_summary_names_every_option() {
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README.md");
    let start = readme
        .find("## The command line")
        .expect("README has a command-line section");
    let summary = &readme[start..];
    let summary = &summary[..summary.find("```\n\n").expect("end of the summary block")];
    for sub in ["score", "parse"] {
        let flags = flags(sub);
        assert!(
            flags.len() >= 3,
            "alama {sub} --help lists its options: {flags:?}"
        );
        for flag in flags {
            assert!(
                summary.contains(&format!("{flag} ")) || summary.contains(&format!("{flag}]")),
                "README's command summary does not show `alama {sub} {flag}`"
            );
        }
    }
}

#[test]
fn readme_python_install_brings_pandas_for_to_pandas() {
    // `pip install ./python` alone leaves `to_pandas()` failing with "this needs pandas"; the
    // README installs the `pandas` extra, which python/pyproject.toml must define
    // (python/tests/test_extras.py checks the built wheel's metadata too).
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README.md");
    let python = &readme[readme
        .find("### Python")
        .expect("README has a Python section")..];
    let install = python
        .lines()
        .find(|l| l.starts_with("pip install"))
        .expect("a pip install line");
    assert!(
        install.starts_with("pip install \"./python[pandas]\""),
        "the first install line should bring pandas: {install}"
    );
    let pyproject =
        std::fs::read_to_string(root().join("python/pyproject.toml")).expect("pyproject.toml");
    let extras = &pyproject[pyproject
        .find("[project.optional-dependencies]")
        .expect("extras table")..];
    assert!(
        extras.contains("\npandas = [\"pandas"),
        "python/pyproject.toml has no `pandas` extra"
    );
}

#[test]
fn readme_says_why_the_csv_and_json_examples_differ() {
    // The README: the two examples hold the same transactions, but the CSV carries no header or
    // SUMMARY, so its report has no holder, nothing to reconcile and another report id.
    let score = |file: &str| -> serde_json::Value {
        serde_json::from_str(&alama(&["score", file])).expect("report JSON")
    };
    let csv = score("examples/statement.csv");
    let json = score("examples/statement.json");
    assert_eq!(
        csv["statement"]["transactionCount"],
        json["statement"]["transactionCount"]
    );
    assert!(csv["statement"]["holderName"].is_null());
    assert!(json["statement"]["holderName"].is_string());
    assert!(csv["integrity"]["summaryReconciled"].is_null());
    assert_eq!(json["integrity"]["summaryReconciled"], true);
    assert_ne!(csv["reportId"], json["reportId"]);
}
