-- Webhooks: endpoints, deliveries (one outbox event to one endpoint) and the log of
-- every attempt. Deliveries are created in the transaction that writes their event to
-- the outbox (webhook_events), so an event committed is an event delivered, and all
-- delivery state (schedule, claims, rate limits) lives here, so a restart loses nothing.

CREATE TABLE webhook_endpoints (
    operator_id uuid NOT NULL REFERENCES operators (id),
    id uuid NOT NULL,
    url text NOT NULL,
    description text NULL,
    event_types text[] NOT NULL,
    enabled boolean NOT NULL,
    disabled_reason text NULL,
    rate_limit_per_minute integer NULL,
    -- Signing secrets (`whsec_…`). HMAC needs the secret itself, so it cannot be hashed.
    secret text NOT NULL,
    previous_secret text NULL,
    previous_secret_expires_at timestamptz NULL,
    -- Start of the current failure streak; NULL while healthy.
    failing_since timestamptz NULL,
    -- Rate limit: the earliest time the next attempt may start, reserved atomically by
    -- whichever worker of whichever instance sends next.
    next_send_at timestamptz NULL,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    deleted_at timestamptz NULL,
    PRIMARY KEY (operator_id, id),
    CONSTRAINT webhook_endpoints_url_length CHECK (length(url) BETWEEN 1 AND 2048),
    CONSTRAINT webhook_endpoints_description_length CHECK (description IS NULL OR length(description) BETWEEN 1 AND 500),
    CONSTRAINT webhook_endpoints_event_types_present CHECK (
        cardinality(event_types) > 0 AND array_ndims(event_types) = 1 AND array_position(event_types, NULL) IS NULL
    ),
    CONSTRAINT webhook_endpoints_disabled_has_reason CHECK (
        (enabled AND disabled_reason IS NULL)
        OR (NOT enabled AND disabled_reason IN ('failing', 'gone', 'operator'))
    ),
    CONSTRAINT webhook_endpoints_deleted_is_disabled CHECK (deleted_at IS NULL OR NOT enabled),
    CONSTRAINT webhook_endpoints_rate_limit_range CHECK (rate_limit_per_minute BETWEEN 1 AND 60000),
    CONSTRAINT webhook_endpoints_secret_shape CHECK (secret LIKE 'whsec\_%'),
    CONSTRAINT webhook_endpoints_previous_secret_pair CHECK (
        (previous_secret IS NULL) = (previous_secret_expires_at IS NULL)
        AND (previous_secret IS NULL OR previous_secret LIKE 'whsec\_%')
    )
);

CREATE TABLE webhook_deliveries (
    operator_id uuid NOT NULL,
    id uuid NOT NULL,
    endpoint_id uuid NOT NULL,
    event_id uuid NOT NULL,
    event_type text NOT NULL,
    status text NOT NULL,
    -- Attempts made by the retry schedule, and all attempts (replays included).
    scheduled_attempts integer NOT NULL DEFAULT 0,
    attempt_count integer NOT NULL DEFAULT 0,
    next_attempt_at timestamptz NULL,
    -- The claim of the worker attempting it now; expired claims are taken over.
    lease_token uuid NULL,
    lease_expires_at timestamptz NULL,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    PRIMARY KEY (operator_id, id),
    FOREIGN KEY (operator_id, endpoint_id) REFERENCES webhook_endpoints (operator_id, id),
    FOREIGN KEY (operator_id, event_id) REFERENCES webhook_events (operator_id, id),
    CONSTRAINT webhook_deliveries_once_per_endpoint UNIQUE (operator_id, event_id, endpoint_id),
    CONSTRAINT webhook_deliveries_status_known CHECK (status IN ('pending', 'delivered', 'failed', 'cancelled')),
    CONSTRAINT webhook_deliveries_pending_is_scheduled CHECK ((status = 'pending') = (next_attempt_at IS NOT NULL)),
    CONSTRAINT webhook_deliveries_lease_pair CHECK ((lease_token IS NULL) = (lease_expires_at IS NULL)),
    CONSTRAINT webhook_deliveries_counts CHECK (scheduled_attempts BETWEEN 0 AND attempt_count)
);

-- The one index that does not lead with operator_id: delivery workers claim what is due
-- across all operators. Partial, so it only ever holds pending deliveries.
CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
-- The delivery log's filters, each keyset-paginated by id.
CREATE INDEX webhook_deliveries_endpoint_idx ON webhook_deliveries (operator_id, endpoint_id, id);
CREATE INDEX webhook_deliveries_event_type_idx ON webhook_deliveries (operator_id, event_type, id);
CREATE INDEX webhook_deliveries_status_idx ON webhook_deliveries (operator_id, status, id);
-- Attempts in flight per endpoint, for the per-endpoint cap of a claim.
CREATE INDEX webhook_deliveries_in_flight_idx ON webhook_deliveries (operator_id, endpoint_id, lease_expires_at)
    WHERE status = 'pending' AND lease_expires_at IS NOT NULL;

CREATE TABLE webhook_attempts (
    operator_id uuid NOT NULL,
    delivery_id uuid NOT NULL,
    number integer NOT NULL,
    trigger text NOT NULL,
    started_at timestamptz NOT NULL,
    duration_ms integer NOT NULL,
    status_code integer NULL,
    error text NULL,
    response_body text NULL,
    next_attempt_at timestamptz NULL,
    PRIMARY KEY (operator_id, delivery_id, number),
    FOREIGN KEY (operator_id, delivery_id) REFERENCES webhook_deliveries (operator_id, id),
    CONSTRAINT webhook_attempts_number_positive CHECK (number >= 1),
    CONSTRAINT webhook_attempts_trigger_known CHECK (trigger IN ('scheduled', 'manual')),
    CONSTRAINT webhook_attempts_duration CHECK (duration_ms >= 0),
    CONSTRAINT webhook_attempts_status_code CHECK (status_code BETWEEN 0 AND 65535)
);
