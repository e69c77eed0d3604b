-- Reverts session endings and the event namespace.
DROP INDEX player_sessions_expiring_idx;
ALTER TABLE player_sessions
    DROP CONSTRAINT player_sessions_end_reason_known,
    DROP CONSTRAINT player_sessions_end_pair,
    DROP COLUMN end_reason,
    DROP COLUMN ended_at;

CREATE TEMPORARY TABLE renamed_event_types (old text PRIMARY KEY, new text NOT NULL) ON COMMIT DROP;
INSERT INTO renamed_event_types (old, new) VALUES
    ('user.launched', 'mini_app.login.succeeded'),
    ('trade.executed', 'mini_app.trade.processed'),
    ('trade.failed', 'mini_app.trade.failed'),
    ('market.visibility_changed', 'mini_app.market.visibility_changed'),
    ('market.resolved', 'mini_app.market.resolved'),
    ('redemption.paid', 'mini_app.redemption.processed'),
    ('wallet_operation.manual_review_required', 'mini_app.wallet_operation.manual_review_required'),
    ('wallet_operation.manual_review_resolved', 'mini_app.wallet_operation.manual_review_resolved'),
    ('webhook_endpoint.disabled', 'mini_app.webhook_endpoint.disabled');

UPDATE webhook_events e SET event_type = r.old FROM renamed_event_types r WHERE e.event_type = r.new;
UPDATE webhook_deliveries d SET event_type = r.old FROM renamed_event_types r WHERE d.event_type = r.new;
UPDATE webhook_endpoints e
SET event_types = ARRAY(
    SELECT DISTINCT coalesce(r.old, t.name)
    FROM unnest(e.event_types) AS t (name)
    LEFT JOIN renamed_event_types r ON r.new = t.name
)
WHERE e.event_types && ARRAY(SELECT new FROM renamed_event_types);
