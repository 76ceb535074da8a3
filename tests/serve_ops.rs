//! `alama serve --metrics-bind … --log-format json`, the real binary: JSON log lines on standard
//! error announce both listeners, `/livez` and `/readyz` answer on the API's, `/metrics` on its
//! own (and not on the API's).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};

/// `GET path` on `addr` (HTTP/1.1, `Connection: close`): status and body.
fn get(addr: &str, path: &str) -> (u16, String) {
    let mut stream = TcpStream::connect(addr).expect("connect");
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .expect("request");
    let mut bytes = Vec::new();
    // (A reset after the whole response is only the server closing first.)
    let read = stream.read_to_end(&mut bytes);
    assert!(read.is_ok() || !bytes.is_empty(), "GET {path}: {read:?}");
    let response = String::from_utf8_lossy(&bytes).into_owned();
    let status = response
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let body = response
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_owned())
        .unwrap_or_default();
    (status, body)
}

/// The `host:port` after `http://` in a log line, up to `suffix`.
fn address(line: &str, suffix: &str) -> Option<String> {
    let start = line.find("http://")? + "http://".len();
    let end = start + line[start..].find(suffix)?;
    Some(line[start..end].to_owned())
}

#[test]
fn serve_with_metrics_and_json_logs() {
    let dir = std::env::temp_dir().join(format!(
        "alama-serve-ops-{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos())
    ));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mut child = Command::new(env!("CARGO_BIN_EXE_alama"))
        .args([
            "serve",
            "--bind",
            "127.0.0.1:0",
            "--metrics-bind",
            "127.0.0.1:0",
            "--log-format",
            "json",
            "--database",
        ])
        .arg(dir.join("alama.db"))
        .env_remove("ALAMA_LOG")
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .expect("alama serve");
    let stderr = child.stderr.take().expect("stderr");
    let (mut api, mut metrics) = (None, None);
    let mut lines = BufReader::new(stderr).lines();
    for line in lines.by_ref().map_while(Result::ok) {
        let parsed: serde_json::Value =
            serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"));
        let message = parsed["fields"]["message"].as_str().unwrap_or_default();
        api = api.or_else(|| address(message, "/v1"));
        metrics = metrics.or_else(|| address(message, "/metrics"));
        if api.is_some() && metrics.is_some() {
            break;
        }
    }
    let (api, metrics) = (api.expect("API address"), metrics.expect("metrics address"));
    // Keep reading standard error: every further line is JSON too.
    let rest = std::thread::spawn(move || {
        lines
            .map_while(Result::ok)
            .filter(|l| serde_json::from_str::<serde_json::Value>(l).is_err())
            .count()
    });
    let live = get(&api, "/livez");
    let ready = get(&api, "/readyz");
    let scraped = get(&metrics, "/metrics");
    let not_on_api = get(&api, "/metrics");
    let _ = child.kill();
    let _ = child.wait();
    assert_eq!(rest.join().ok(), Some(0), "log lines that are not JSON");
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(live.0, 200, "{}", live.1);
    assert_eq!(ready.0, 200, "{}", ready.1);
    assert!(ready.1.contains("\"ready\""), "{}", ready.1);
    assert_eq!(scraped.0, 200);
    assert!(scraped.1.contains("alama_build_info{"), "{}", scraped.1);
    assert!(
        scraped.1.contains("alama_http_requests_total{"),
        "{}",
        scraped.1
    );
    assert_eq!(not_on_api.0, 404);
}
