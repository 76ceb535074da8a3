//! The README tells the truth: its `--format text` example is exactly what the CLI prints for
//! the bundled example today, and its command summary names every option the CLI takes.
//!
//! After a deliberate change (a new scorecard, a new report field) run
//! `scripts/update-readme-example.sh` (`ALAMA_BLESS=1 cargo test --test readme`): it rewrites the
//! example block from the CLI's output; review the diff.

use std::path::PathBuf;
use std::process::Command;

/// The line just before the example's code fence in README.md.
const EXAMPLE_INTRO: &str = "Example (`--format text`, the bundled example):";
/// The command the example shows the output of (run from the repository root).
const EXAMPLE_ARGS: [&str; 4] = ["score", "examples/statement.csv", "--format", "text"];

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

/// The README split around the example's body: (before, body, after).
fn split_example(readme: &str) -> (&str, &str, &str) {
    let intro = readme
        .find(EXAMPLE_INTRO)
        .expect("README has the text example");
    let fence = "```text\n";
    let open = intro + readme[intro..].find(fence).expect("its ```text fence") + fence.len();
    let close = open + readme[open..].find("```\n").expect("its closing fence");
    (&readme[..open], &readme[open..close], &readme[close..])
}

#[test]
fn readme_text_example_is_what_the_cli_prints() {
    let path = root().join("README.md");
    let readme = std::fs::read_to_string(&path).expect("README.md");
    let (before, body, after) = split_example(&readme);
    // The text rendering ends with a blank line; the README's block ends at the last text line.
    let printed = format!("{}\n", alama(&EXAMPLE_ARGS).trim_end_matches('\n'));
    if std::env::var_os("ALAMA_BLESS").is_some() {
        std::fs::write(&path, format!("{before}{printed}{after}")).expect("write README.md");
        return;
    }
    assert!(
        body == printed,
        "README.md's text example differs from `alama {}`; if the change is deliberate run \
         scripts/update-readme-example.sh and review the diff.\n--- README\n{body}\n--- CLI\n{printed}",
        EXAMPLE_ARGS.join(" ")
    );
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
