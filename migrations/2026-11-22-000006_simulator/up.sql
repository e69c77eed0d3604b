-- The staging simulator (docs/operator/simulator.md): simulated users with their wallet balances,
-- the keys the simulated wallet has seen, its log of every mutation received, and the
-- markets the simulator created. Tenant rows: every primary key and index leads with the
-- operator, so every instance of the service shares one simulated wallet per operator.

-- A simulated user is a player of the operator's simulated wallet. faults is the queue
-- of faults its next mutations commit (a JSON array, taken from the front). revision
-- counts changes; a change is written only over the revision it read.
CREATE TABLE simulator_users (
    operator_id uuid NOT NULL REFERENCES operators (id),
    id uuid NOT NULL,
    external_user_id text NOT NULL,
    display_name text NULL,
    currency text NOT NULL,
    starting_balance bigint NOT NULL,
    balance bigint NOT NULL,
    disabled boolean NOT NULL,
    faults jsonb NOT NULL,
    revision bigint NOT NULL,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    PRIMARY KEY (operator_id, id),
    CONSTRAINT simulator_users_external_key UNIQUE (operator_id, external_user_id),
    CONSTRAINT simulator_users_external_shape CHECK (length(external_user_id) BETWEEN 1 AND 128),
    CONSTRAINT simulator_users_currency_shape CHECK (currency ~ '^[A-Z]{3}$'),
    CONSTRAINT simulator_users_faults_array CHECK (jsonb_typeof(faults) = 'array')
);

-- What the simulated wallet recorded under each idempotency key (the contract's durable
-- deduplication): the payload's fingerprint, and the answer once one was given (both
-- null while the key's first request is in progress).
CREATE TABLE simulator_wallet_keys (
    operator_id uuid NOT NULL REFERENCES operators (id),
    idempotency_key text NOT NULL,
    fingerprint text NOT NULL,
    answer_status integer NULL,
    answer_body jsonb NULL,
    created_at timestamptz NOT NULL,
    settled_at timestamptz NULL,
    PRIMARY KEY (operator_id, idempotency_key),
    CONSTRAINT simulator_wallet_keys_answer_whole CHECK (
        (answer_status IS NULL) = (answer_body IS NULL) AND (answer_status IS NULL) = (settled_at IS NULL)
    )
);

-- The simulated wallet's log: every mutation request received, what could be read of
-- it, the fault it met and the answer given (delivery: pending, answered or dropped).
CREATE TABLE simulator_wallet_log (
    operator_id uuid NOT NULL REFERENCES operators (id),
    id uuid NOT NULL,
    external_user_id text NULL,
    idempotency_key text NULL,
    flow text NULL,
    amount bigint NULL,
    currency text NULL,
    metadata jsonb NOT NULL,
    fault jsonb NULL,
    applied boolean NOT NULL,
    delivery text NOT NULL,
    answer_status integer NULL,
    answer_body jsonb NULL,
    received_at timestamptz NOT NULL,
    answered_at timestamptz NULL,
    PRIMARY KEY (operator_id, id),
    CONSTRAINT simulator_wallet_log_delivery CHECK (delivery IN ('pending', 'answered', 'dropped'))
);

CREATE INDEX simulator_wallet_log_by_user ON simulator_wallet_log (operator_id, external_user_id, id);

-- Markets created through the simulator, by operator: only these can be resolved
-- through it.
CREATE TABLE simulator_markets (
    operator_id uuid NOT NULL REFERENCES operators (id),
    market_id uuid NOT NULL REFERENCES markets (id),
    created_at timestamptz NOT NULL,
    PRIMARY KEY (operator_id, market_id)
);
