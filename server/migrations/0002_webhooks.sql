-- Alama service schema, version 2: webhook endpoints and the durable outbox of their events.

CREATE TABLE webhook_endpoints (
    id TEXT PRIMARY KEY,                    -- whe_…
    partner_id TEXT NOT NULL REFERENCES partners (id),
    environment TEXT NOT NULL CHECK (environment IN ('sandbox', 'live')),
    url TEXT NOT NULL,
    secret TEXT NOT NULL,                   -- whsec_<base64>: needed in clear to sign deliveries
    created_at BIGINT NOT NULL,
    removed_at BIGINT
);
CREATE INDEX webhook_endpoints_owner ON webhook_endpoints (partner_id, environment);

-- One row per event and endpoint, written in the transaction that completes the report.
CREATE TABLE webhook_events (
    id TEXT PRIMARY KEY,                    -- msg_…, the webhook-id header (the same on every retry)
    partner_id TEXT NOT NULL REFERENCES partners (id),
    environment TEXT NOT NULL CHECK (environment IN ('sandbox', 'live')),
    endpoint_id TEXT NOT NULL REFERENCES webhook_endpoints (id),
    report_id TEXT NOT NULL REFERENCES reports (id),
    event_type TEXT NOT NULL,
    payload TEXT NOT NULL,                  -- the exact JSON body sent
    status TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
    attempts BIGINT NOT NULL,
    next_attempt_at BIGINT NOT NULL,
    locked_until BIGINT,                    -- a worker's lease while it delivers
    last_status BIGINT,                     -- HTTP status of the last attempt
    last_error TEXT,
    created_at BIGINT NOT NULL,
    delivered_at BIGINT
);
CREATE INDEX webhook_events_due ON webhook_events (status, next_attempt_at);
CREATE INDEX webhook_events_owner_created ON webhook_events (partner_id, environment, created_at);
