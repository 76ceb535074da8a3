-- Alama service schema, version 7 (SQLite and PostgreSQL): the origin of a webhook event (issue 43).
-- The request that caused the event: its id (`req_…`, the `X-Request-Id` answered to it), written
-- on the log lines of the event's deliveries, and the W3C `traceparent` it carried (or, with
-- OpenTelemetry export on, that of its request span), continued on every delivery. Both NULL for
-- events made before this step, or by no request.

ALTER TABLE webhook_events ADD COLUMN request_id TEXT;
ALTER TABLE webhook_events ADD COLUMN traceparent TEXT;
