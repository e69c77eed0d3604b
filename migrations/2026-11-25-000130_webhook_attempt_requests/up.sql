-- What each attempt sent, beside what it received: the address and the three signed
-- headers (the signature is an HMAC output, never the secret). The body is the
-- delivery's event envelope, stored once in webhook_events. NULL for attempts that sent
-- nothing (an envelope over the size limit) and for attempts made before this column.
ALTER TABLE webhook_attempts
    ADD COLUMN request_url text NULL,
    ADD COLUMN request_webhook_id text NULL,
    ADD COLUMN request_webhook_timestamp text NULL,
    ADD COLUMN request_webhook_signature text NULL,
    ADD CONSTRAINT webhook_attempts_request_whole CHECK (
        (request_url IS NULL) = (request_webhook_id IS NULL)
        AND (request_url IS NULL) = (request_webhook_timestamp IS NULL)
        AND (request_url IS NULL) = (request_webhook_signature IS NULL)
    );
