-- Alama service schema, version 3 (issue 12, hardening).

-- Secrets of the service itself, generated on first start and shared by every replica.
-- `fingerprint_key`: the HMAC key of reports.request_fingerprint (hex, 32 bytes).
CREATE TABLE server_secrets (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL,
    created_at BIGINT NOT NULL
);

-- Per-partner integrity policy: 'accept' (default: a report is completed whatever its integrity
-- verdict) or 'reject_failed' (a critical finding ends the report failed, integrity_failed).
ALTER TABLE partners ADD COLUMN integrity_policy TEXT NOT NULL DEFAULT 'accept';

-- Erasure (DELETE /v1/scores/{id}, consent revocation with erase, retention): the report's
-- content is deleted and a stub without personal data stays (id, owner, status, dates, size)
-- so that usage counts and billing survive.
ALTER TABLE reports ADD COLUMN erased_at BIGINT;

-- Request logs deleted by retention, counted first (usage survives deletion).
CREATE TABLE api_request_rollup (
    partner_id TEXT NOT NULL REFERENCES partners (id),
    environment TEXT NOT NULL CHECK (environment IN ('sandbox', 'live')),
    day BIGINT NOT NULL,                    -- days since the Unix epoch, UTC
    method TEXT NOT NULL,
    route TEXT NOT NULL,
    status_class BIGINT NOT NULL,           -- 2 for 2xx, 4 for 4xx, ...
    count BIGINT NOT NULL,
    PRIMARY KEY (partner_id, environment, day, method, route, status_class)
);

-- Liveness of servers: an analysis whose server stopped heartbeating was interrupted.
ALTER TABLE reports ADD COLUMN claimed_by TEXT;    -- srv_… of the server running the analysis
CREATE TABLE server_instances (
    id TEXT PRIMARY KEY,                    -- srv_…, new at every start
    heartbeat_at BIGINT NOT NULL
);
CREATE INDEX reports_processing ON reports (status, created_at);

-- Per-key rate limit shared by the replicas of one PostgreSQL database (GCRA: the key's
-- theoretical arrival time, milliseconds since the epoch).
CREATE TABLE rate_limits (
    key_id TEXT PRIMARY KEY,
    tat BIGINT NOT NULL
);
