-- The transactional outbox of webhook events (DESIGN.md §3, §6): a business change and
-- the events it causes are written in one transaction, so an event exists if and only
-- if its change committed. Delivery to endpoints reads from here after the commit.

CREATE TABLE webhook_events (
    operator_id uuid NOT NULL REFERENCES operators (id),
    id uuid NOT NULL,
    event_type text NOT NULL,
    data jsonb NOT NULL,
    created_at timestamptz NOT NULL,
    PRIMARY KEY (operator_id, id),
    CONSTRAINT webhook_events_type_shape CHECK (event_type ~ '^[a-z_]+(\.[a-z_]+)+$'),
    CONSTRAINT webhook_events_data_is_object CHECK (jsonb_typeof(data) = 'object')
);
