//! `alama serve --metrics-bind … --log-format json`, the real binary: JSON log lines on standard
//! error announce both listeners, `/livez` and `/readyz` answer on the API's, `/metrics` on its
//! own (and not on the API's); with `OTEL_EXPORTER_OTLP_ENDPOINT` set, spans reach an OTLP/HTTP
//! receiver by the time it stops on SIGTERM.

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

/// `alama serve --bind 127.0.0.1:0 --log-format json` plus `args` on a database in `dir`, its
/// standard error piped; OpenTelemetry export to `otlp` (a base URL) if given, else none.
fn serve(args: &[&str], dir: &std::path::Path, otlp: Option<&str>) -> std::process::Child {
    let mut command = Command::new(env!("CARGO_BIN_EXE_alama"));
    command
        .args(["serve", "--bind", "127.0.0.1:0", "--log-format", "json"])
        .args(args)
        .arg("--database")
        .arg(dir.join("alama.db"))
        .env_remove("ALAMA_LOG")
        .env_remove("OTEL_EXPORTER_OTLP_ENDPOINT")
        .env_remove("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
        .env_remove("OTEL_TRACES_EXPORTER")
        .env_remove("OTEL_SDK_DISABLED")
        .stderr(Stdio::piped())
        .stdout(Stdio::null());
    if let Some(base) = otlp {
        command.env("OTEL_EXPORTER_OTLP_ENDPOINT", base);
    }
    command.spawn().expect("alama serve")
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
    let mut child = serve(&["--metrics-bind", "127.0.0.1:0"], &dir, None);
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

/// A plain OTLP/HTTP receiver on a loopback port: answers `200` to every request and sends the
/// path and body of each on the channel. Its base URL.
fn otlp_receiver() -> (String, std::sync::mpsc::Receiver<(String, Vec<u8>)>) {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let addr = listener.local_addr().expect("addr");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for stream in listener.incoming().map_while(Result::ok) {
            let mut reader = BufReader::new(stream);
            let mut head = String::new();
            let mut length = 0usize;
            while reader.read_line(&mut head).is_ok_and(|n| n > 0) {
                let line = head.trim_end().to_ascii_lowercase();
                if line.is_empty() {
                    break;
                }
                if let Some(v) = line.strip_prefix("content-length:") {
                    length = v.trim().parse().unwrap_or(0);
                }
                if line.starts_with("post ") {
                    let path = line.split(' ').nth(1).unwrap_or_default().to_owned();
                    let _ = tx.send((path, Vec::new()));
                }
                head.clear();
            }
            let mut body = vec![0; length];
            if reader.read_exact(&mut body).is_ok() {
                let _ = tx.send((String::new(), body));
            }
            let _ = reader
                .get_mut()
                .write_all(b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\nconnection: close\r\n\r\n");
        }
    });
    (format!("http://{addr}"), rx)
}

/// `OTEL_EXPORTER_OTLP_ENDPOINT` turns the export on in the real binary: a request's span, in
/// the caller's trace, reaches the receiver when the server stops on SIGTERM (the flush).
#[cfg(unix)]
#[test]
fn serve_exports_spans_over_otlp_and_flushes_on_sigterm() {
    let dir = std::env::temp_dir().join(format!("alama-serve-otlp-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let (collector, received) = otlp_receiver();
    let mut child = serve(&[], &dir, Some(&collector));
    let mut lines = BufReader::new(child.stderr.take().expect("stderr")).lines();
    let api = lines
        .by_ref()
        .map_while(Result::ok)
        .find_map(|l| address(&l, "/v1"))
        .expect("API address");
    let drain = std::thread::spawn(move || lines.map_while(Result::ok).count());
    let trace = "5a1e6d3c0f9b4e2a8c7d6b5a49382716";
    let mut stream = TcpStream::connect(&api).expect("connect");
    write!(
        stream,
        "GET /livez HTTP/1.1\r\nHost: {api}\r\ntraceparent: 00-{trace}-1122334455667788-01\r\n\
         Connection: close\r\n\r\n"
    )
    .expect("request");
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    assert!(answer.starts_with(b"HTTP/1.1 200"));
    let terminated = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .expect("kill");
    assert!(terminated.success());
    let _ = child.wait();
    let _ = drain.join();
    let _ = std::fs::remove_dir_all(&dir);
    let got: Vec<(String, Vec<u8>)> = received.try_iter().collect();
    assert!(
        got.iter().any(|(path, _)| path == "/v1/traces"),
        "no POST /v1/traces"
    );
    let wanted: Vec<u8> = (0..trace.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&trace[i..i + 2], 16).expect("hex"))
        .collect();
    assert!(
        got.iter()
            .any(|(_, body)| body.windows(wanted.len()).any(|w| w == wanted)),
        "the caller's trace id is not in the exported spans"
    );
}
