//! The engine's modules in layers, without cycles (issue 37): each top-level module of
//! `core/src` may name (`crate::x`) only modules of lower layers. The order is the one
//! `ARCHITECTURE.md` describes; a new module must be placed in it.

#[path = "support/layering.rs"]
mod layering;

/// The layers of `core/src`, bottom first.
const LAYERS: &[&[&str]] = &[
    // Plumbing that knows no statement.
    &[
        "error", "money", "order", "parallel", "batch", "limits", "rng",
    ],
    // The statement model: Statement, Transaction, Category, Format, Provider.
    &["statement"],
    // Reading rows: their arithmetic, their categories' matcher, PDF text; the report's types.
    &["amount", "categorise", "pdf", "report", "affordability"],
    // Each wallet, one place, and the registry.
    &["wallets"],
    // Parsing (format detection, dispatch to a wallet, the canonical forms), the content address.
    &["parse", "report_id"],
    // The stages over a prepared statement.
    &["features", "check"],
    &["insights"],
    &["scorecard"],
    // The pipeline and the report's PDF.
    &["assemble", "pdf_report"],
    // Several statements of one applicant as one report.
    &["application"],
    // Test support (feature `testing`).
    &["testing"],
    &["tamper"],
];

#[test]
fn no_lower_layer_names_a_higher_one() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let problems = layering::violations(&src, LAYERS).expect("core/src is readable");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_check_sees_the_edges_it_guards() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let edges = layering::edges(&src).expect("core/src is readable");
    let has = |from: &str, to: &str| edges.iter().any(|e| e.from == from && e.to == to);
    // Edges the pipeline is made of, so that a reader that found none would fail here.
    assert!(has("assemble", "features") && has("assemble", "check"));
    assert!(has("insights", "features") && has("parse", "statement"));
    assert!(has("parse", "wallets") && has("check", "wallets"));
    // A reversed order is refused, naming an edge.
    let reversed: Vec<&[&str]> = LAYERS.iter().rev().copied().collect();
    let problems = layering::violations(&src, &reversed).expect("readable");
    assert!(
        problems.iter().any(|p| p.contains("`assemble` (layer")),
        "{problems:?}"
    );
}
