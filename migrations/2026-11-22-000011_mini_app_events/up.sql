-- One event namespace, `mini_app.`, and player sessions that end.
--
-- Event types were renamed before any release. A database made by an earlier build keeps
-- working: its stored events, deliveries and subscriptions take the new names (an event
-- keeps its data as it was written).
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

UPDATE webhook_events e SET event_type = r.new FROM renamed_event_types r WHERE e.event_type = r.old;
UPDATE webhook_deliveries d SET event_type = r.new FROM renamed_event_types r WHERE d.event_type = r.old;
UPDATE webhook_endpoints e
SET event_types = ARRAY(
    SELECT DISTINCT coalesce(r.new, t.name)
    FROM unnest(e.event_types) AS t (name)
    LEFT JOIN renamed_event_types r ON r.old = t.name
)
WHERE e.event_types && ARRAY(SELECT old FROM renamed_event_types);

-- How a player session ended: a logout, or its expiry once the sweep recorded it. Each
-- session is ended once, in the transaction that writes its event, so it gets exactly one
-- of `mini_app.logout.requested` and `mini_app.session.expired`.
ALTER TABLE player_sessions
    ADD COLUMN ended_at timestamptz NULL,
    ADD COLUMN end_reason text NULL,
    ADD CONSTRAINT player_sessions_end_pair CHECK ((ended_at IS NULL) = (end_reason IS NULL)),
    ADD CONSTRAINT player_sessions_end_reason_known CHECK (end_reason IN ('logout', 'expired'));

-- Sessions that expired before sessions could end are recorded as expired, without an
-- event: nobody could have subscribed to one yet.
UPDATE player_sessions SET ended_at = expires_at, end_reason = 'expired' WHERE expires_at <= now();

-- The sweep finds expired sessions across all operators, like the delivery workers' due
-- index; partial, so it only holds sessions not ended yet.
CREATE INDEX player_sessions_expiring_idx ON player_sessions (expires_at) WHERE ended_at IS NULL;
