-- Each endpoint's own delivery settings, and dead letters.
--
-- The bounds are opinion-webhook's (`delivery_settings.rs`); existing endpoints get the
-- schedule every endpoint had: twelve attempts of fifteen seconds. The service always
-- writes both, so no default stays on the columns.
ALTER TABLE webhook_endpoints
    ADD COLUMN max_attempts integer NOT NULL DEFAULT 12,
    ADD COLUMN timeout_seconds integer NOT NULL DEFAULT 15,
    ADD CONSTRAINT webhook_endpoints_max_attempts_range CHECK (max_attempts BETWEEN 1 AND 20),
    ADD CONSTRAINT webhook_endpoints_timeout_range CHECK (timeout_seconds BETWEEN 1 AND 30);
ALTER TABLE webhook_endpoints
    ALTER COLUMN max_attempts DROP DEFAULT,
    ALTER COLUMN timeout_seconds DROP DEFAULT;

-- A delivery whose attempts ran out is a dead letter: never tried again on its own,
-- listed by its status (webhook_deliveries_status_idx), replayable. `failed` stays for
-- deliveries ended otherwise (410, a disabling failure, an event too large to send).
ALTER TABLE webhook_deliveries
    DROP CONSTRAINT webhook_deliveries_status_known,
    ADD CONSTRAINT webhook_deliveries_status_known
        CHECK (status IN ('pending', 'delivered', 'dead_letter', 'failed', 'cancelled'));

-- Deliveries that already ran through all twelve attempts, and whose last answer was not a
-- 410, were exhausted: they are dead letters now.
UPDATE webhook_deliveries d
SET status = 'dead_letter'
WHERE d.status = 'failed'
  AND d.scheduled_attempts >= 12
  AND NOT EXISTS (
      SELECT 1 FROM webhook_attempts a
      WHERE a.operator_id = d.operator_id AND a.delivery_id = d.id AND a.status_code = 410
  );
