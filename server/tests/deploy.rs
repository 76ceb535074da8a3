//! Issue 52: the container and its compose file closed by default. `EXPOSE 9464` with
//! `ALAMA_METRICS_BIND=0.0.0.0:9464` published the keyless metrics port under `docker run -P`;
//! compose published Prometheus on every interface and fell back to a known database password.
//! These read `Dockerfile` and `deploy/compose.yaml` as text (no container runtime in CI) and
//! fail on each of those, and on a published port that is not on the loopback.

fn repository_file(path: &str) -> String {
    let full = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(path);
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{}: {e}", full.display()))
}

/// The lines of `text` that are not comments, trimmed.
fn code_lines(text: &str) -> impl Iterator<Item = &str> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
}

#[test]
fn the_image_exposes_the_api_alone_and_keeps_metrics_on_its_loopback() {
    let dockerfile = repository_file("Dockerfile");
    let exposed: Vec<&str> = code_lines(&dockerfile)
        .filter_map(|l| l.strip_prefix("EXPOSE "))
        .flat_map(str::split_whitespace)
        .collect();
    assert_eq!(exposed, ["8080"], "EXPOSE lists {exposed:?}");
    let metrics: Vec<&str> = code_lines(&dockerfile)
        .flat_map(|l| l.split(|c: char| c.is_whitespace() || c == '\\'))
        .filter_map(|w| w.strip_prefix("ALAMA_METRICS_BIND="))
        .collect();
    assert!(!metrics.is_empty(), "the image sets a metrics address");
    for bind in metrics {
        assert!(
            bind.starts_with("127.0.0.1:") || bind.starts_with("[::1]:"),
            "metrics bound to {bind}: not the loopback"
        );
    }
}

/// The `ports:` entries of a compose file (`- "HOST:CONTAINER"` items after a `ports:` key).
fn published_ports(compose: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_ports = false;
    for line in code_lines(compose) {
        if line == "ports:" {
            in_ports = true;
        } else if let Some(item) = line.strip_prefix("- ").filter(|_| in_ports) {
            out.push(item.trim_matches('"').trim_matches('\'').to_owned());
        } else {
            in_ports = false;
        }
    }
    out
}

#[test]
fn compose_publishes_on_the_loopback_only_and_has_no_default_password() {
    let compose = repository_file("deploy/compose.yaml");
    let ports = published_ports(&compose);
    assert!(
        ports.len() >= 2,
        "the API and Prometheus are published: {ports:?}"
    );
    for port in &ports {
        assert!(
            port.starts_with("127.0.0.1:"),
            "{port} is published on every interface"
        );
        assert!(
            !port.ends_with(":9464"),
            "the metrics port is published: {port}"
        );
    }
    // `${VAR:-default}` and `${VAR-default}` give a password when none is set; `${VAR:?…}`
    // refuses to start instead.
    let uses: Vec<&str> = compose
        .match_indices("${POSTGRES_PASSWORD")
        .map(|(i, _)| &compose[i..])
        .collect();
    assert!(
        uses.len() >= 2,
        "the password is used by PostgreSQL and by Alama"
    );
    for tail in uses {
        let expansion = &tail[..tail.find('}').expect("a closed expansion")];
        assert!(
            expansion.starts_with("${POSTGRES_PASSWORD:?"),
            "{expansion}}} is not a required variable"
        );
    }
    // PostgreSQL is on an internal network only.
    let postgres = &compose[compose.find("  postgres:").expect("postgres service")..];
    let postgres = &postgres[..postgres.find("\n  alama:").expect("alama after postgres")];
    assert!(postgres.contains("networks: [backend]"), "{postgres}");
    let networks = &compose[compose.find("\nnetworks:").expect("networks")..];
    assert!(
        networks.contains("backend:\n    internal: true"),
        "the backend network is not internal: {networks}"
    );
}
