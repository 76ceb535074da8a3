//! `/livez` and `/readyz`: a dead worker, a closed database pool, a fresh process, and (on
//! PostgreSQL) the cluster stopped and started again.

#[allow(unused_macros, unused_imports)]
#[macro_use]
mod support;

use std::time::Duration;

use alama_server::Limits;
use serde_json::Value;
use support::Db;
use support::ops::{fast_webhooks, start};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn readyz_follows_workers_and_the_database() {
    let db = Db::sqlite();
    let server = start(&db, Limits::default(), fast_webhooks()).await;
    let (status, _, body) = server.get("/livez").await;
    assert_eq!((status, &body["status"]), (200, &Value::from("ok")));
    let (status, _, body) = server.get("/readyz").await;
    assert_eq!(status, 200, "{body}");
    for check in ["database", "migrations", "webhooks", "retention", "sweeper"] {
        assert_eq!(body["checks"][check], "ok", "{body}");
    }

    // A worker dies: not ready, and the problem says which.
    assert!(server.state.workers.stop("webhooks"));
    tokio::time::sleep(Duration::from_millis(50)).await;
    let got = server.get("/readyz").await;
    support::assert_problem(&got, 503, "not_ready");
    assert_eq!(got.2["checks"]["webhooks"], "stopped", "{}", got.2);
    assert_eq!(got.2["checks"]["database"], "ok", "{}", got.2);
    assert!(
        got.2["detail"]
            .as_str()
            .is_some_and(|d| d.contains("webhooks"))
    );
    // The process still answers.
    assert_eq!(server.get("/livez").await.0, 200);
    server.stop().await;

    // A fresh process on the same database is ready again.
    let server = start(&db, Limits::default(), fast_webhooks()).await;
    let (status, _, body) = server.get("/readyz").await;
    assert_eq!(status, 200, "{body}");

    // The database stops answering (its pool closed): not ready, naming the database.
    server.state.storage.close().await;
    let got = server.get("/readyz").await;
    support::assert_problem(&got, 503, "not_ready");
    assert_eq!(got.2["checks"]["database"], "unreachable", "{}", got.2);
    assert_eq!(server.get("/livez").await.0, 200);
    server.stop().await;
}

/// `pg_ctl` of the test cluster of `server/ci-postgres.sh` (`ALAMA_TEST_POSTGRES_DIR`), run
/// as the cluster's owner; `start` takes the cluster's port and socket folder again.
fn pg_ctl(dir: &str, port: &str, action: &str) {
    let bin = std::fs::read_dir("/usr/lib/postgresql")
        .expect("postgresql")
        .filter_map(Result::ok)
        .map(|e| e.path().join("bin/pg_ctl"))
        .filter(|p| p.exists())
        .max()
        .expect("pg_ctl");
    let data = format!("{dir}/data");
    let mut args = vec!["-D".to_owned(), data, "-w".to_owned()];
    if action == "start" {
        args.extend([
            "-l".to_owned(),
            format!("{dir}/server.log"),
            "-o".to_owned(),
            format!("-c listen_addresses=127.0.0.1 -p {port} -k {dir} -c fsync=off"),
        ]);
    } else {
        args.extend(["-m".to_owned(), "fast".to_owned()]);
    }
    args.push(action.to_owned());
    let root = std::process::Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| o.stdout.starts_with(b"0\n"));
    let status = if root {
        std::process::Command::new("runuser")
            .args(["-u", "postgres", "--"])
            .arg(&bin)
            .args(&args)
            .output()
    } else {
        std::process::Command::new(&bin).args(&args).output()
    };
    assert!(status.is_ok_and(|o| o.status.success()), "pg_ctl {action}");
}

/// On PostgreSQL (`source server/ci-postgres.sh`): `/readyz` answers 503 naming the database
/// while the server is stopped, and 200 again once it is back, without restarting Alama.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn readyz_follows_postgresql_stopped_and_started() {
    let (Some(db), Ok(dir)) = (Db::postgres(), std::env::var("ALAMA_TEST_POSTGRES_DIR")) else {
        eprintln!(
            "skipped: ALAMA_TEST_POSTGRES_URL/_DIR are not set (source server/ci-postgres.sh)"
        );
        return;
    };
    let port = db
        .url
        .rsplit_once(':')
        .and_then(|(_, rest)| rest.split('/').next())
        .expect("port")
        .to_owned();
    let server = start(&db, Limits::default(), fast_webhooks()).await;
    assert_eq!(server.get("/readyz").await.0, 200);
    pg_ctl(&dir, &port, "stop");
    let got = server.get("/readyz").await;
    pg_ctl(&dir, &port, "start");
    support::assert_problem(&got, 503, "not_ready");
    assert_eq!(got.2["checks"]["database"], "unreachable", "{}", got.2);
    let mut status = 0;
    for _ in 0..50 {
        status = server.get("/readyz").await.0;
        if status == 200 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert_eq!(status, 200, "ready again once PostgreSQL is back");
    server.stop().await;
}
