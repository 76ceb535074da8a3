-- Alama service schema, version 9 (issue 54): applications and statements seen before.
-- An application (several statements of one applicant scored as one, `POST /v1/applications`)
-- is a row of `reports` of kind 'application' (id `app_…`): it is claimed, completed, failed,
-- erased, kept for the retention period and counted exactly as an analysis is.
ALTER TABLE reports ADD COLUMN kind TEXT NOT NULL DEFAULT 'analysis';

-- Keyed fingerprints of the rows of statements analysed under a consent (server/src/seen_before.rs):
-- no statement text, only the smallest 64 fingerprints of each statement (16 hex digits of
-- HMAC-SHA256 under a key derived from the server's fingerprint key, over a row's receipt and
-- amounts), the report they came with and the consent. Deleted when the report is erased.
CREATE TABLE statement_fingerprints (
    partner_id TEXT NOT NULL REFERENCES partners (id),
    environment TEXT NOT NULL CHECK (environment IN ('sandbox', 'live')),
    fingerprint TEXT NOT NULL,
    report_id TEXT NOT NULL REFERENCES reports (id),
    consent_id TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX statement_fingerprints_lookup ON statement_fingerprints (partner_id, environment, fingerprint);
CREATE INDEX statement_fingerprints_report ON statement_fingerprints (report_id);
CREATE INDEX statement_fingerprints_consent ON statement_fingerprints (consent_id);
CREATE INDEX statement_fingerprints_created ON statement_fingerprints (created_at);
