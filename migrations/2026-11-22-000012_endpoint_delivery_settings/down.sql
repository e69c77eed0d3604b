-- Reverts dead letters and per-endpoint delivery settings.
UPDATE webhook_deliveries SET status = 'failed' WHERE status = 'dead_letter';
ALTER TABLE webhook_deliveries
    DROP CONSTRAINT webhook_deliveries_status_known,
    ADD CONSTRAINT webhook_deliveries_status_known CHECK (status IN ('pending', 'delivered', 'failed', 'cancelled'));
ALTER TABLE webhook_endpoints
    DROP CONSTRAINT webhook_endpoints_timeout_range,
    DROP CONSTRAINT webhook_endpoints_max_attempts_range,
    DROP COLUMN timeout_seconds,
    DROP COLUMN max_attempts;
