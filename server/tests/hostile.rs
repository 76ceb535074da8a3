//! Issue 41, what a hostile partner measured from outside: erased reports readable in the
//! SQLite files, a failed-auth throttle that locked out valid keys (and, behind a proxy, every
//! partner), a portal sign-in lock that kept an account's owner out, and two protocol edges
//! (a raw non-UTF-8 request line, two `Authorization` headers). Each test starts its own server
//! on a loopback port over SQLite.

#[allow(unused_macros, unused_imports)]
mod support;

use alama_server::Environment::Live;
use support::{Db, Server, assert_problem, partner};

/// The canonical JSON statement of a golden vector (holder name and phone included).
fn vector_statement() -> Vec<u8> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/vectors/synthetic-seed1-6m.json");
    let text = std::fs::read_to_string(path).expect("vector");
    let vector: serde_json::Value = serde_json::from_str(&text).expect("json");
    serde_json::to_vec(&vector["input"]).expect("json")
}

/// The SQLite files of `db`: the database and its write-ahead log.
fn sqlite_files(db: &Db) -> Vec<std::path::PathBuf> {
    let path = db.url.strip_prefix("sqlite://").expect("a SQLite URL");
    vec![path.into(), format!("{path}-wal").into()]
}

/// Pieces of a stored report that only its content holds (never the report id, which the
/// erasure stub keeps): the masked holder name, the score and band fields, and windows of the
/// JSON text at several places.
fn needles(report_json: &str, report_id: &str) -> Vec<Vec<u8>> {
    let report: serde_json::Value = serde_json::from_str(report_json).expect("report");
    let mut out = Vec::new();
    if let Some(name) = report["statement"]["holderName"].as_str() {
        out.push(format!("\"holderName\":\"{name}\"").into_bytes());
    }
    let bytes = report_json.as_bytes();
    for part in 1..8 {
        let start = bytes.len() * part / 8;
        let window = &bytes[start..(start + 40).min(bytes.len())];
        if !window
            .windows(report_id.len())
            .any(|w| w == report_id.as_bytes())
        {
            out.push(window.to_vec());
        }
    }
    out
}

/// How many times any of `needles` occurs in the SQLite files of `db` (a missing file counts
/// nothing).
fn copies_on_disk(db: &Db, needles: &[Vec<u8>]) -> (usize, usize) {
    let count = |path: &std::path::Path| {
        let data = std::fs::read(path).unwrap_or_default();
        needles
            .iter()
            .map(|n| data.windows(n.len()).filter(|w| w == n).count())
            .sum::<usize>()
    };
    let files = sqlite_files(db);
    (count(&files[0]), count(&files[1]))
}

async fn stored_report(server: &Server, id: &str) -> String {
    sqlx::query_scalar("SELECT report_json FROM reports WHERE id = $1")
        .bind(id)
        .fetch_one(server.storage.pool())
        .await
        .expect("stored report")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn erased_reports_leave_no_copy_in_the_sqlite_files() {
    let db = Db::sqlite();
    let server = Server::start(&db).await;
    let key = server.key(&partner("erase-disk"), Live).await;
    let consent = server.granted_consent(&key).await;

    // DELETE /v1/scores/{id}.
    let got = server
        .analyse(&key, vector_statement(), None, Some(&consent), None)
        .await;
    assert_eq!(got.0, 201, "{}", got.2);
    let first = got.2["reportId"].as_str().expect("id").to_owned();
    let first_needles = needles(&stored_report(&server, &first).await, &first);
    assert!(first_needles.len() >= 6, "{}", first_needles.len());
    let before = copies_on_disk(&db, &first_needles);
    assert!(before.0 + before.1 > 0, "the report is not on disk at all");
    let r = server
        .client
        .delete(server.url(&format!("/v1/scores/{first}")))
        .bearer_auth(&key)
        .send()
        .await
        .expect("DELETE");
    assert_eq!(r.status().as_u16(), 204);
    let after = copies_on_disk(&db, &first_needles);
    eprintln!("DELETE: copies (db, wal) before erasure {before:?}, after {after:?}");
    assert_eq!(after, (0, 0), "copies of the erased report (db, wal)");

    // Consent revocation with erasure.
    let got = server
        .analyse(&key, vector_statement(), None, Some(&consent), None)
        .await;
    assert_eq!(got.0, 201, "{}", got.2);
    let second = got.2["reportId"].as_str().expect("id").to_owned();
    let second_needles = needles(&stored_report(&server, &second).await, &second);
    // In the database file itself, not only in the log: secure_delete has to zero it there.
    sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)")
        .execute(server.storage.pool())
        .await
        .expect("checkpoint");
    let before = copies_on_disk(&db, &second_needles);
    assert!(before.0 > 0, "the report is not in the database file");
    let (status, _, body) = server
        .post_json(
            &format!("/v1/consents/{consent}/revoke"),
            &key,
            &serde_json::json!({"eraseReports": true}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let after = copies_on_disk(&db, &second_needles);
    eprintln!("revocation: copies (db, wal) before erasure {before:?}, after {after:?}");
    assert_eq!(after, (0, 0), "copies of the erased report (db, wal)");

    // The stub that keeps usage counts is still there.
    let status: String = sqlx::query_scalar("SELECT status FROM reports WHERE id = $1")
        .bind(&first)
        .fetch_one(server.storage.pool())
        .await
        .expect("stub");
    assert_eq!(status, "completed");
    assert_problem(
        &server.get(&format!("/v1/scores/{first}"), &key).await,
        404,
        "report_not_found",
    );
    server.stop().await;
}
