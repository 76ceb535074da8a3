//! The service's modules in layers, without cycles (issue 42): each top-level module of
//! `server/src` may name (`crate::x`) only modules of lower layers, with the engine's check
//! (`core/tests/support/layering.rs`). The order is the one `ARCHITECTURE.md` describes; a new
//! module must be placed in it.

#[path = "../../core/tests/support/layering.rs"]
mod layering;

/// The layers of `server/src`, bottom first.
const LAYERS: &[&[&str]] = &[
    // Plain types and helpers that name nothing of the crate.
    &[
        "ids",
        "policy",
        "client_ip",
        "body_timeout",
        "trace_context",
    ],
    // The service's limits (which name the client address's header).
    &["limits"],
    &["keys", "linger", "otel"],
    // The logs, with the OpenTelemetry export as one of their layers.
    &["logging"],
    // The repository: SQLite and PostgreSQL, its own error type, nothing of HTTP.
    &["storage"],
    // What runs over the repository without a request: metrics, webhook delivery, retention,
    // statements seen before.
    &["metrics"],
    &["webhooks", "privacy", "seen_before"],
    // The HTTP error, its problem+json rendering and header constants, the refusals.
    &["error"],
    &["problem", "admission", "auth_throttle"],
    &["parse_errors"],
    &["connections"],
    // What every handler shares.
    &["state"],
    &["auth"],
    // The handlers: the partner API, then the portal (which uses the API's modules).
    &["api"],
    &["portal"],
    // The OpenAPI document, the router beside it, and the CLI on top.
    &["openapi"],
    &["router"],
    &["cli"],
];

fn src() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

#[test]
fn no_lower_layer_names_a_higher_one() {
    let problems = layering::violations(&src(), LAYERS).expect("server/src is readable");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_check_sees_the_edges_it_guards() {
    let edges = layering::edges(&src()).expect("server/src is readable");
    let has = |from: &str, to: &str| edges.iter().any(|e| e.from == from && e.to == to);
    // Edges the service is made of, so that a reader that found none would fail here.
    assert!(has("router", "api") && has("router", "portal") && has("cli", "router"));
    assert!(has("api", "state") && has("state", "storage") && has("error", "storage"));
    // A reversed order is refused, naming an edge.
    let reversed: Vec<&[&str]> = LAYERS.iter().rev().copied().collect();
    let problems = layering::violations(&src(), &reversed).expect("readable");
    assert!(
        problems.iter().any(|p| p.contains("`router` (layer")),
        "{problems:?}"
    );
}

/// Every `.rs` file under `dir`, recursively.
fn rust_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("readable folder") {
        let path = entry.expect("readable entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn storage_names_nothing_of_http() {
    let mut files = Vec::new();
    rust_files(&src().join("storage"), &mut files);
    assert!(files.len() > 5, "the storage files are found: {files:?}");
    for file in files {
        let text = std::fs::read_to_string(&file).expect("readable file");
        for (n, line) in text.lines().enumerate() {
            for word in [
                "axum",
                "ApiError",
                "crate::error",
                "crate::problem",
                "StatusCode",
            ] {
                assert!(
                    !line.contains(word),
                    "{}:{}: storage names `{word}`, of the HTTP layer",
                    file.display(),
                    n + 1
                );
            }
        }
    }
}

/// What marks a line as running SQL: the driver's name, the pool, or a statement's first words
/// at the start of a string literal.
const SQL_MARKS: &[&str] = &[
    "sqlx",
    ".pool()",
    "\"SELECT ",
    "\"INSERT ",
    "\"UPDATE ",
    "\"DELETE ",
    "\"PRAGMA ",
    "\"VACUUM",
    "\"CREATE ",
    "\"ALTER ",
    "\"DROP ",
    "\"WITH ",
];

/// The lines of `file` outside comments that carry one of [`SQL_MARKS`], as `path:line: mark`.
fn sql_lines(file: &std::path::Path) -> Vec<String> {
    let text = std::fs::read_to_string(file).expect("readable file");
    let mut found = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let code = line.trim_start();
        if code.starts_with("//") {
            continue;
        }
        for mark in SQL_MARKS {
            if line.contains(mark) {
                found.push(format!("{}:{}: `{mark}`", file.display(), n + 1));
            }
        }
    }
    found
}

#[test]
fn nothing_outside_storage_runs_sql() {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    let storage = src().join("storage");
    let (inside, outside): (Vec<_>, Vec<_>) = files.iter().partition(|f| f.starts_with(&storage));
    // The check sees the SQL where it is, so that a reader that found none would fail here.
    let in_storage: usize = inside.iter().map(|f| sql_lines(f).len()).sum();
    assert!(
        in_storage > 100,
        "only {in_storage} SQL lines found in storage/"
    );
    let offending: Vec<String> = outside.iter().flat_map(|f| sql_lines(f)).collect();
    assert!(
        offending.is_empty(),
        "SQL outside storage/ (one repository per concept there, `impl Storage`):\n{}",
        offending.join("\n")
    );
}
