-- Opinion trading: markets (platform-wide, created by platform staff), each operator's
-- pool and visibility on them, the operator's players, launches and player sessions,
-- trades, positions, wallet operations with their append-only step log, resolutions and
-- redemptions. Every tenant table leads its keys with operator_id (DESIGN.md §3).
-- Money is bigint minor units of the operator's currency; times are timestamptz (UTC).

ALTER TABLE operators
    ADD COLUMN currency text NOT NULL DEFAULT 'USD',
    ADD CONSTRAINT operators_currency_iso CHECK (currency ~ '^[A-Z]{3}$');

-- Markets are shared by all operators (a reference table under Citus); each operator
-- trades its own pool on them.
CREATE TABLE markets (
    id uuid PRIMARY KEY,
    question text NOT NULL,
    rules text NOT NULL,
    close_at timestamptz NOT NULL,
    liquidity bigint NOT NULL,
    fee_bps integer NOT NULL,
    status text NOT NULL DEFAULT 'open',
    resolution text NULL,
    created_at timestamptz NOT NULL,
    closed_at timestamptz NULL,
    resolved_at timestamptz NULL,
    CONSTRAINT markets_liquidity_range CHECK (liquidity BETWEEN 1 AND 1000000000000),
    CONSTRAINT markets_fee_range CHECK (fee_bps BETWEEN 0 AND 1000),
    CONSTRAINT markets_status_known CHECK (status IN ('open', 'closed', 'resolved')),
    CONSTRAINT markets_resolution_iff_resolved CHECK (
        (status = 'resolved') = (resolution IS NOT NULL AND resolved_at IS NOT NULL)
    ),
    CONSTRAINT markets_resolution_known CHECK (resolution IS NULL OR resolution IN ('yes', 'no', 'void'))
);

-- One operator's LMSR pool on a market and whether its players are offered the market.
-- Created on first use; a missing row is an empty, visible pool.
CREATE TABLE market_pools (
    operator_id uuid NOT NULL REFERENCES operators (id),
    market_id uuid NOT NULL REFERENCES markets (id),
    yes_outstanding bigint NOT NULL DEFAULT 0,
    no_outstanding bigint NOT NULL DEFAULT 0,
    hidden boolean NOT NULL DEFAULT false,
    visibility_changed_at timestamptz NULL,
    updated_at timestamptz NOT NULL,
    PRIMARY KEY (operator_id, market_id),
    CONSTRAINT market_pools_outstanding_range CHECK (
        yes_outstanding BETWEEN 0 AND 10000000000000 AND no_outstanding BETWEEN 0 AND 10000000000000
    )
);

-- The operator's players, known by the operator's own id for them.
CREATE TABLE users (
    operator_id uuid NOT NULL REFERENCES operators (id),
    id uuid NOT NULL,
    external_user_id text NOT NULL,
    display_name text NULL,
    language text NULL,
    created_at timestamptz NOT NULL,
    last_launched_at timestamptz NOT NULL,
    PRIMARY KEY (operator_id, id),
    CONSTRAINT users_external_id_key UNIQUE (operator_id, external_user_id),
    CONSTRAINT users_external_id_shape CHECK (length(external_user_id) BETWEEN 1 AND 128),
    CONSTRAINT users_display_name_length CHECK (display_name IS NULL OR length(display_name) BETWEEN 1 AND 200),
    CONSTRAINT users_language_shape CHECK (language IS NULL OR language ~ '^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$')
);

-- A launch: the single-use token the operator hands its player.
CREATE TABLE launches (
    operator_id uuid NOT NULL,
    id uuid NOT NULL,
    user_id uuid NOT NULL,
    return_url text NULL,
    created_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL,
    used_at timestamptz NULL,
    PRIMARY KEY (operator_id, id),
    FOREIGN KEY (operator_id, user_id) REFERENCES users (operator_id, id),
    CONSTRAINT launches_expiry_after_creation CHECK (expires_at > created_at)
);

-- A player's session in the hosted app, opened by exchanging a launch token.
CREATE TABLE player_sessions (
    operator_id uuid NOT NULL,
    id uuid NOT NULL,
    user_id uuid NOT NULL,
    launch_id uuid NOT NULL,
    created_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL,
    PRIMARY KEY (operator_id, id),
    FOREIGN KEY (operator_id, user_id) REFERENCES users (operator_id, id),
    CONSTRAINT player_sessions_one_per_launch UNIQUE (operator_id, launch_id),
    CONSTRAINT player_sessions_expiry_after_creation CHECK (expires_at > created_at)
);

-- A player's holdings in one market (see opinion-market's Position).
CREATE TABLE positions (
    operator_id uuid NOT NULL,
    user_id uuid NOT NULL,
    market_id uuid NOT NULL REFERENCES markets (id),
    yes_shares bigint NOT NULL DEFAULT 0,
    yes_cost_basis bigint NOT NULL DEFAULT 0,
    no_shares bigint NOT NULL DEFAULT 0,
    no_cost_basis bigint NOT NULL DEFAULT 0,
    realized_pnl bigint NOT NULL DEFAULT 0,
    redeemed_at timestamptz NULL,
    updated_at timestamptz NOT NULL,
    PRIMARY KEY (operator_id, user_id, market_id),
    FOREIGN KEY (operator_id, user_id) REFERENCES users (operator_id, id),
    CONSTRAINT positions_not_negative CHECK (
        yes_shares >= 0 AND yes_cost_basis >= 0 AND no_shares >= 0 AND no_cost_basis >= 0
    )
);
CREATE INDEX positions_by_market ON positions (operator_id, market_id);

-- One buy or sell by one player. A buy is debited first and placed after; a sale is
-- taken from the pool and the position first and credited after (docs/decisions.md).
CREATE TABLE trades (
    operator_id uuid NOT NULL,
    id uuid NOT NULL,
    user_id uuid NOT NULL,
    market_id uuid NOT NULL REFERENCES markets (id),
    client_order_id text NOT NULL,
    side text NOT NULL,
    outcome text NOT NULL,
    order_kind text NOT NULL,
    order_value bigint NOT NULL,
    order_limit bigint NULL,
    shares bigint NOT NULL,
    amount bigint NOT NULL,
    fee bigint NOT NULL,
    currency text NOT NULL,
    price_before_ppm integer NOT NULL,
    price_after_ppm integer NOT NULL,
    status text NOT NULL,
    failure_reason text NULL,
    position_before jsonb NULL,
    created_at timestamptz NOT NULL,
    settled_at timestamptz NULL,
    PRIMARY KEY (operator_id, id),
    FOREIGN KEY (operator_id, user_id) REFERENCES users (operator_id, id),
    CONSTRAINT trades_client_order_key UNIQUE (operator_id, user_id, client_order_id),
    CONSTRAINT trades_client_order_shape CHECK (length(client_order_id) BETWEEN 1 AND 64),
    CONSTRAINT trades_side_known CHECK (side IN ('buy', 'sell')),
    CONSTRAINT trades_outcome_known CHECK (outcome IN ('yes', 'no')),
    CONSTRAINT trades_order_kind_known CHECK (order_kind IN ('shares', 'amount')),
    CONSTRAINT trades_status_known CHECK (status IN ('pending', 'manual_review', 'executed', 'failed')),
    CONSTRAINT trades_positive CHECK (shares > 0 AND amount >= 0 AND fee >= 0 AND order_value > 0),
    CONSTRAINT trades_settled_iff_final CHECK ((status IN ('executed', 'failed')) = (settled_at IS NOT NULL))
);
-- At most one trade per player and market waits for its wallet at a time: two racing
-- orders cannot both reach the wallet.
CREATE UNIQUE INDEX trades_one_open_per_user_market ON trades (operator_id, user_id, market_id)
    WHERE status IN ('pending', 'manual_review');
CREATE INDEX trades_by_user ON trades (operator_id, user_id, id);
CREATE INDEX trades_by_market ON trades (operator_id, market_id, id);

-- What an operator's players were paid when a market resolved (one row per operator
-- that had a pool on the market).
CREATE TABLE market_resolutions (
    operator_id uuid NOT NULL REFERENCES operators (id),
    market_id uuid NOT NULL REFERENCES markets (id),
    resolution text NOT NULL,
    resolved_at timestamptz NOT NULL,
    redemption_count bigint NOT NULL,
    payout_total bigint NOT NULL,
    currency text NOT NULL,
    PRIMARY KEY (operator_id, market_id),
    CONSTRAINT market_resolutions_known CHECK (resolution IN ('yes', 'no', 'void'))
);

-- A position's payout on resolution; only positions owed something get one.
CREATE TABLE redemptions (
    operator_id uuid NOT NULL,
    id uuid NOT NULL,
    user_id uuid NOT NULL,
    market_id uuid NOT NULL REFERENCES markets (id),
    resolution text NOT NULL,
    amount bigint NOT NULL,
    currency text NOT NULL,
    status text NOT NULL,
    created_at timestamptz NOT NULL,
    paid_at timestamptz NULL,
    PRIMARY KEY (operator_id, id),
    FOREIGN KEY (operator_id, user_id) REFERENCES users (operator_id, id),
    CONSTRAINT redemptions_one_per_position UNIQUE (operator_id, market_id, user_id),
    CONSTRAINT redemptions_positive CHECK (amount > 0),
    CONSTRAINT redemptions_status_known CHECK (status IN ('pending', 'paid', 'manual_review', 'refused'))
);
CREATE INDEX redemptions_by_user ON redemptions (operator_id, user_id, id);

-- Every call of an operator's wallet, one row per business action (its one idempotency
-- key), with the current state; every step is also appended to wallet_operation_steps.
CREATE TABLE wallet_operations (
    operator_id uuid NOT NULL,
    id uuid NOT NULL,
    user_id uuid NOT NULL,
    external_user_id text NOT NULL,
    flow text NOT NULL,
    reason text NOT NULL,
    idempotency_key text NOT NULL,
    fingerprint text NOT NULL,
    amount bigint NOT NULL,
    currency text NOT NULL,
    metadata jsonb NOT NULL,
    market_id uuid NOT NULL,
    trade_id uuid NULL,
    redemption_id uuid NULL,
    state text NOT NULL,
    attempts integer NOT NULL DEFAULT 0,
    http_status integer NULL,
    detail text NULL,
    remote_reference text NULL,
    balance_after bigint NULL,
    created_at timestamptz NOT NULL,
    sent_at timestamptz NULL,
    answered_at timestamptz NULL,
    next_attempt_at timestamptz NULL,
    resolved_at timestamptz NULL,
    resolved_by text NULL,
    resolution_note text NULL,
    PRIMARY KEY (operator_id, id),
    FOREIGN KEY (operator_id, user_id) REFERENCES users (operator_id, id),
    -- Contract rules 2 and 5: one operation per key, so one key per business action.
    CONSTRAINT wallet_operations_key UNIQUE (operator_id, idempotency_key),
    CONSTRAINT wallet_operations_flow_known CHECK (flow IN ('buy', 'sell', 'buy_compensation', 'redemption')),
    CONSTRAINT wallet_operations_state_known CHECK (state IN (
        'prepared', 'sent', 'applied', 'rejected', 'manual_review', 'resolved_applied', 'resolved_not_applied', 'abandoned'
    )),
    CONSTRAINT wallet_operations_amount_positive CHECK (amount > 0),
    CONSTRAINT wallet_operations_metadata_object CHECK (jsonb_typeof(metadata) = 'object')
);
CREATE INDEX wallet_operations_by_user ON wallet_operations (operator_id, user_id, id);
-- Sweepers: operations sent and never answered, compensations and redemptions due.
CREATE INDEX wallet_operations_in_flight ON wallet_operations (state, sent_at) WHERE state = 'sent';
CREATE INDEX wallet_operations_due ON wallet_operations (next_attempt_at) WHERE state = 'prepared';
CREATE INDEX wallet_operations_in_review ON wallet_operations (operator_id, id) WHERE state = 'manual_review';

-- Append-only: every step of every wallet operation, with its UTC time.
CREATE TABLE wallet_operation_steps (
    operator_id uuid NOT NULL,
    operation_id uuid NOT NULL,
    step integer NOT NULL,
    state text NOT NULL,
    http_status integer NULL,
    detail text NULL,
    at timestamptz NOT NULL,
    PRIMARY KEY (operator_id, operation_id, step),
    FOREIGN KEY (operator_id, operation_id) REFERENCES wallet_operations (operator_id, id)
);
