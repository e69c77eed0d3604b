ALTER TABLE webhook_attempts
    DROP CONSTRAINT webhook_attempts_request_whole,
    DROP COLUMN request_url,
    DROP COLUMN request_webhook_id,
    DROP COLUMN request_webhook_timestamp,
    DROP COLUMN request_webhook_signature;
