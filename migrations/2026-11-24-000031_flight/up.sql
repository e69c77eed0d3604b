-- The flight product: the platform-wide seed chains and flights (one sequence for every
-- operator), and per operator its enablement, its terms versions and its tickets.
--
-- The game's rules (the crash point, the curve, ticket limits, the ticket status machine)
-- live in opinion-flight; the checks below keep the tables honest if a writer ever
-- bypassed them.

-- A seed chain: its terminal seed is the one secret of the game, sealed at rest under
-- the data key like every signing secret; its commitment (hex seed[0]) and salt are
-- public from the moment the chain is made. The sealed seed is text (`v1.<base64>`), as
-- the wallet adapters' signing secrets are.
CREATE TABLE flight_chains (
    id uuid PRIMARY KEY,
    terminal_seed_sealed text NOT NULL,
    length integer NOT NULL,
    salt text NOT NULL,
    commitment text NOT NULL,
    created_at timestamptz NOT NULL,
    CONSTRAINT flight_chains_length_positive CHECK (length >= 1),
    CONSTRAINT flight_chains_seed_sealed CHECK (terminal_seed_sealed ~ '^v1\.[A-Za-z0-9+/]+=*$'),
    CONSTRAINT flight_chains_commitment_hex CHECK (commitment ~ '^[0-9a-f]{64}$')
);

-- One flight (round). Platform-wide rows, so no operator_id: every operator's players
-- fly the same flight. The crash point and instant are stored so that every instance can
-- decide a cash-out by its clock; no read shows them before the crash.
CREATE TABLE flights (
    id uuid PRIMARY KEY,
    chain_id uuid NOT NULL REFERENCES flight_chains (id),
    number integer NOT NULL,
    phase text NOT NULL,
    crash_hundredths bigint NOT NULL,
    boarding_at timestamptz NOT NULL,
    take_off_at timestamptz NOT NULL,
    crash_at timestamptz NOT NULL,
    revealed_seed text NULL,
    crashed_at timestamptz NULL,
    cancelled_at timestamptz NULL,
    settled_at timestamptz NULL,
    CONSTRAINT flights_number_in_chain UNIQUE (chain_id, number),
    CONSTRAINT flights_number_positive CHECK (number >= 1),
    CONSTRAINT flights_phase_known CHECK (phase IN ('boarding', 'in_flight', 'crashed', 'cancelled')),
    CONSTRAINT flights_crash_at_least_one CHECK (crash_hundredths >= 100),
    CONSTRAINT flights_timeline CHECK (take_off_at > boarding_at AND crash_at >= take_off_at),
    CONSTRAINT flights_seed_revealed_when_crashed CHECK ((phase = 'crashed') = (revealed_seed IS NOT NULL)),
    CONSTRAINT flights_revealed_seed_hex CHECK (revealed_seed IS NULL OR revealed_seed ~ '^[0-9a-f]{64}$')
);
-- Two drivers can never open two flights at once: at most one flight is unfinished.
CREATE UNIQUE INDEX flights_one_unfinished ON flights ((true)) WHERE phase IN ('boarding', 'in_flight');
-- Newest first, for the live flight and the lists.
CREATE INDEX flights_by_boarding ON flights (boarding_at DESC, id DESC);

-- Whether an operator's players may buy tickets (platform staff decide).
CREATE TABLE flight_enablements (
    operator_id uuid PRIMARY KEY REFERENCES operators (id),
    enabled boolean NOT NULL,
    changed_at timestamptz NOT NULL,
    changed_by text NOT NULL,
    CONSTRAINT flight_enablements_changed_by_named CHECK (length(changed_by) BETWEEN 1 AND 200)
);

-- Versions of an operator's terms: the one in force at an instant is the latest whose
-- effective_from is at or before it and that was not cancelled before taking effect.
CREATE TABLE flight_terms (
    operator_id uuid NOT NULL REFERENCES operators (id),
    id uuid NOT NULL,
    effective_from timestamptz NOT NULL,
    share_bps integer NOT NULL,
    min_stake bigint NOT NULL,
    max_stake bigint NOT NULL,
    max_payout bigint NOT NULL,
    tickets_per_flight smallint NOT NULL,
    settlement_period text NOT NULL,
    payment_due_days smallint NOT NULL,
    created_at timestamptz NOT NULL,
    created_by text NOT NULL,
    cancelled_at timestamptz NULL,
    PRIMARY KEY (operator_id, id),
    CONSTRAINT flight_terms_share_bps_range CHECK (share_bps BETWEEN 0 AND 10000),
    CONSTRAINT flight_terms_limits_ordered CHECK (min_stake >= 1 AND min_stake <= max_stake AND max_stake <= max_payout),
    CONSTRAINT flight_terms_ticket_cap_range CHECK (tickets_per_flight BETWEEN 1 AND 10),
    CONSTRAINT flight_terms_period_known CHECK (settlement_period IN ('calendar_month')),
    CONSTRAINT flight_terms_due_days_range CHECK (payment_due_days BETWEEN 1 AND 90)
);
CREATE INDEX flight_terms_by_effect ON flight_terms (operator_id, effective_from DESC);

-- One stake on one flight. The share in basis points and the terms version are frozen
-- at purchase; later terms never reprice a ticket.
CREATE TABLE flight_tickets (
    operator_id uuid NOT NULL,
    id uuid NOT NULL,
    flight_id uuid NOT NULL REFERENCES flights (id),
    user_id uuid NOT NULL,
    external_user_id text NOT NULL,
    client_ticket_id text NOT NULL,
    stake bigint NOT NULL,
    auto_cash_out bigint NULL,
    status text NOT NULL,
    terms_id uuid NOT NULL,
    share_bps integer NOT NULL,
    max_payout bigint NOT NULL,
    purchase_operation_id uuid NOT NULL,
    cash_out_hundredths bigint NULL,
    cashed_out_at timestamptz NULL,
    payout bigint NULL,
    refund_reason text NULL,
    failure_reason text NULL,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    settled_at timestamptz NULL,
    PRIMARY KEY (operator_id, id),
    FOREIGN KEY (operator_id, user_id) REFERENCES users (operator_id, id),
    FOREIGN KEY (operator_id, terms_id) REFERENCES flight_terms (operator_id, id),
    -- A player's repeated purchase (same client id) finds the first ticket.
    CONSTRAINT flight_tickets_client_id UNIQUE (operator_id, user_id, client_ticket_id),
    CONSTRAINT flight_tickets_client_id_shape CHECK (length(client_ticket_id) BETWEEN 1 AND 64),
    CONSTRAINT flight_tickets_stake_positive CHECK (stake >= 1),
    CONSTRAINT flight_tickets_auto_cash_out_range CHECK (auto_cash_out IS NULL OR auto_cash_out >= 101),
    CONSTRAINT flight_tickets_status_known CHECK (status IN (
        'pending', 'active', 'cashed_out', 'lost', 'refunding', 'refunded', 'review', 'rejected'
    )),
    CONSTRAINT flight_tickets_share_bps_range CHECK (share_bps BETWEEN 0 AND 10000),
    CONSTRAINT flight_tickets_cash_out_complete CHECK (
        (status = 'cashed_out') = (cash_out_hundredths IS NOT NULL AND payout IS NOT NULL AND cashed_out_at IS NOT NULL)
    ),
    CONSTRAINT flight_tickets_refund_reason_known CHECK (
        refund_reason IS NULL OR refund_reason IN ('flight_cancelled', 'boarding_closed', 'review')
    ),
    CONSTRAINT flight_tickets_payout_capped CHECK (payout IS NULL OR payout <= max_payout)
);
CREATE INDEX flight_tickets_by_operator ON flight_tickets (operator_id, id DESC);
CREATE INDEX flight_tickets_of_player ON flight_tickets (operator_id, user_id, flight_id);
CREATE INDEX flight_tickets_of_flight_by_operator ON flight_tickets (operator_id, flight_id, id DESC);
-- The driver settles a flight's tickets across operators: one of the few indexes not
-- led by the operator, like the outbox's.
CREATE INDEX flight_tickets_open_of_flight ON flight_tickets (flight_id, status)
    WHERE status IN ('pending', 'active');

-- Which product a launch opens, and so which app its session shows.
ALTER TABLE launches ADD COLUMN product text NOT NULL DEFAULT 'opinion',
    ADD CONSTRAINT launches_product_known CHECK (product IN ('opinion', 'flight'));
ALTER TABLE player_sessions ADD COLUMN product text NOT NULL DEFAULT 'opinion',
    ADD CONSTRAINT player_sessions_product_known CHECK (product IN ('opinion', 'flight'));
