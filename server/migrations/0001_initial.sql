-- Alama service schema, version 1. Plain SQL that SQLite and PostgreSQL both run.
-- Times are BIGINT milliseconds since the Unix epoch (UTC); ids are prefixed ULIDs (TEXT).
-- Every partner-owned row carries partner_id + environment: the isolation key of every query.

CREATE TABLE partners (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    created_at BIGINT NOT NULL
);

CREATE TABLE api_keys (
    id TEXT PRIMARY KEY,
    partner_id TEXT NOT NULL REFERENCES partners (id),
    environment TEXT NOT NULL CHECK (environment IN ('sandbox', 'live')),
    key_hash TEXT NOT NULL UNIQUE,          -- hex SHA-256 of the whole key; the key itself is never stored
    key_hint TEXT NOT NULL,                 -- prefix + 4 characters, for `alama keys list`
    created_at BIGINT NOT NULL,
    revoked_at BIGINT
);

CREATE TABLE consents (
    id TEXT PRIMARY KEY,
    partner_id TEXT NOT NULL REFERENCES partners (id),
    environment TEXT NOT NULL CHECK (environment IN ('sandbox', 'live')),
    customer_reference TEXT NOT NULL,
    customer_name TEXT,
    customer_phone TEXT,
    purpose TEXT NOT NULL,
    scopes TEXT NOT NULL,                   -- JSON array of scope strings
    notice_version TEXT NOT NULL,
    notice_text TEXT NOT NULL,              -- the exact text shown to the customer
    notice_sha256 TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('pending', 'granted', 'revoked')),  -- 'expired' is derived from expires_at
    expires_at BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    granted_at BIGINT,
    grant_method TEXT,
    grant_evidence TEXT,
    revoked_at BIGINT,
    revoke_reason TEXT
);
CREATE INDEX consents_owner_created ON consents (partner_id, environment, created_at);

CREATE TABLE reports (
    id TEXT PRIMARY KEY,
    partner_id TEXT NOT NULL REFERENCES partners (id),
    environment TEXT NOT NULL CHECK (environment IN ('sandbox', 'live')),
    api_key_id TEXT NOT NULL REFERENCES api_keys (id),
    consent_id TEXT REFERENCES consents (id),
    idempotency_key TEXT,
    request_fingerprint TEXT NOT NULL,      -- SHA-256 over statement, password and consent: a reused key with another request is refused
    status TEXT NOT NULL CHECK (status IN ('processing', 'completed', 'failed')),
    statement_format TEXT,                  -- pdf | csv | json
    statement_bytes BIGINT NOT NULL,        -- size of the upload; the upload itself is not kept
    score BIGINT,
    band TEXT,
    scorecard_version TEXT,
    report_json TEXT,                       -- the engine's report JSON with the service's reportId
    error_code TEXT,
    error_detail TEXT,
    created_at BIGINT NOT NULL,
    completed_at BIGINT
);
CREATE UNIQUE INDEX reports_idempotency ON reports (partner_id, environment, idempotency_key);
CREATE INDEX reports_owner_created ON reports (partner_id, environment, created_at);

-- One row per authenticated request: the durable source of usage figures (issue 7).
CREATE TABLE api_requests (
    request_id TEXT PRIMARY KEY,
    partner_id TEXT NOT NULL REFERENCES partners (id),
    environment TEXT NOT NULL CHECK (environment IN ('sandbox', 'live')),
    api_key_id TEXT NOT NULL REFERENCES api_keys (id),
    method TEXT NOT NULL,
    route TEXT NOT NULL,                    -- the route template, e.g. /v1/scores/{reportId}
    status BIGINT NOT NULL,
    duration_ms BIGINT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX api_requests_owner_created ON api_requests (partner_id, environment, created_at);
