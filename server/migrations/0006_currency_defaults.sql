-- Alama service schema, version 6 (SQLite): a partner's default scorecard per currency (issue 38).
-- A card fully defines its market, so a default is chosen by the statement's currency:
-- (partner, environment, currency) -> version. Each default kept so far becomes the default of
-- its card's own currency (the `currency` of the stored canonical JSON; KES, the only market
-- before issue 38, if absent). 0006_currency_defaults.postgres.sql is the same step for
-- PostgreSQL (only the JSON read differs). Times are BIGINT milliseconds since the epoch.

CREATE TABLE scorecard_defaults_by_currency (
    partner_id TEXT NOT NULL,
    environment TEXT NOT NULL,
    currency TEXT NOT NULL,                 -- ISO 4217, the card's own `currency`
    version TEXT NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (partner_id, environment, currency),
    FOREIGN KEY (partner_id, environment, version) REFERENCES scorecards (partner_id, environment, version)
);

INSERT INTO scorecard_defaults_by_currency (partner_id, environment, currency, version, updated_at)
SELECT d.partner_id, d.environment, COALESCE(json_extract(s.card_json, '$.currency'), 'KES'),
       d.version, d.updated_at
FROM scorecard_defaults d
JOIN scorecards s ON s.partner_id = d.partner_id AND s.environment = d.environment
    AND s.version = d.version;

DROP TABLE scorecard_defaults;

ALTER TABLE scorecard_defaults_by_currency RENAME TO scorecard_defaults;
