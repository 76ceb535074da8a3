-- Alama service schema, version 5: scorecards as data (issue 14). A partner's own scorecards,
-- per environment, and which one is its default there.
-- Plain SQL that SQLite and PostgreSQL both run; times are BIGINT milliseconds since the epoch.

-- Versions are immutable: (partner, environment, version) is added once; the same version
-- with other content is refused (`scorecard_conflict`), the same content again is a no-op.
CREATE TABLE scorecards (
    partner_id TEXT NOT NULL REFERENCES partners (id),
    environment TEXT NOT NULL CHECK (environment IN ('sandbox', 'live')),
    version TEXT NOT NULL,
    sha256 TEXT NOT NULL,                   -- of card_json, the canonical JSON
    card_json TEXT NOT NULL,                -- Scorecard::to_json(): compact, canonical
    created_at BIGINT NOT NULL,
    PRIMARY KEY (partner_id, environment, version)
);

-- At most one default per partner and environment (absent: the engine's built-in scorecard).
CREATE TABLE scorecard_defaults (
    partner_id TEXT NOT NULL,
    environment TEXT NOT NULL,
    version TEXT NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (partner_id, environment),
    FOREIGN KEY (partner_id, environment, version) REFERENCES scorecards (partner_id, environment, version)
);
