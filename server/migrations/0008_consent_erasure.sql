-- Alama service schema, version 8 (issue 52): a revoked consent erased on request keeps its
-- evidence of consent (purpose, scopes, notice and its SHA-256, times, grant method and evidence
-- reference) and, instead of the customer's name and phone number, a keyed fingerprint of them
-- (`v1:` + HMAC-SHA256 under the server's fingerprint key), so a later claim about who agreed
-- can still be checked (Kenya's Data Protection Act 2019, s. 32(1): the burden of proof).
ALTER TABLE consents ADD COLUMN customer_fingerprint TEXT;
ALTER TABLE consents ADD COLUMN erased_at BIGINT;
