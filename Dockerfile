# Alama's HTTP service (`alama serve`) in a container: a release build, then a slim runtime
# image that runs it as a non-root user, with the SQLite database on the /data volume.
#
#   podman build -t alama:local .        (or docker build)
#   podman run -p 8080:8080 -v alama-data:/data alama:local
#
# PostgreSQL instead of SQLite: set ALAMA_DATABASE_URL=postgres://USER:PASSWORD@HOST/DB
# (deploy/compose.yaml does). Probes: GET /livez and GET /readyz on :8080, the one port exposed.
# Metrics (/metrics, no key) listen on the container's loopback, 127.0.0.1:9464: a scraper in
# the same network namespace (a sidecar, `podman exec`) reaches them, `run -P` publishes
# nothing of them. To scrape from another container, set ALAMA_METRICS_BIND=0.0.0.0:9464 on a
# network only the scraper shares, as deploy/compose.yaml does, and never publish that port.

FROM docker.io/library/rust:1.95-slim-bookworm AS build
WORKDIR /src
COPY . .
# Only the CLI that carries the service; the bindings are not built.
RUN cargo build --release --locked --bin alama \
 && install -D -m 0755 target/release/alama /out/alama

FROM docker.io/library/debian:bookworm-slim
# CA certificates: webhook deliveries to https:// endpoints verify them.
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --user-group --home-dir /data --shell /usr/sbin/nologin alama \
 && install -d -o alama -g alama -m 0750 /data
COPY --from=build /out/alama /usr/local/bin/alama
USER 10001:10001
WORKDIR /data
VOLUME ["/data"]
ENV ALAMA_DATABASE_URL=sqlite:///data/alama.db \
    ALAMA_LOG_FORMAT=json \
    ALAMA_METRICS_BIND=127.0.0.1:9464
EXPOSE 8080
ENTRYPOINT ["/usr/local/bin/alama"]
CMD ["serve", "--bind", "0.0.0.0:8080"]
