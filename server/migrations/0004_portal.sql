-- Alama service schema, version 4: the developer portal (issue 13). Users of a partner, their
-- one-time sign-in links, database sessions and the record of failed sign-ins (throttling).
-- Plain SQL that SQLite and PostgreSQL both run; times are BIGINT milliseconds since the epoch.

CREATE TABLE portal_users (
    id TEXT PRIMARY KEY,                    -- usr_…
    partner_id TEXT NOT NULL REFERENCES partners (id),
    email TEXT NOT NULL UNIQUE,             -- lowercased
    password_hash TEXT,                     -- Argon2id PHC string; NULL until set from a sign-in link
    created_at BIGINT NOT NULL
);

-- One-time sign-in links: single use, 24 h; only the SHA-256 of the token is kept.
CREATE TABLE portal_links (
    token_hash TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES portal_users (id),
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    used_at BIGINT
);

-- Sessions: the cookie holds a random token, the table its SHA-256.
CREATE TABLE portal_sessions (
    id_hash TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES portal_users (id),
    csrf_token TEXT NOT NULL,
    environment TEXT NOT NULL CHECK (environment IN ('sandbox', 'live')),
    created_at BIGINT NOT NULL,
    last_seen_at BIGINT NOT NULL
);
CREATE INDEX portal_sessions_user ON portal_sessions (user_id);

-- Failed sign-ins by subject (`email:…` or `addr:…`), counted over a sliding window.
CREATE TABLE portal_signin_failures (
    subject TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX portal_signin_failures_subject ON portal_signin_failures (subject, created_at);
