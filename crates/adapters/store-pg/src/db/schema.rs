//! The diesel view of the tables created by `migrations/`, written by hand; it must
//! match the SQL exactly.

diesel::table! {
    /// Tenants.
    operators (id) {
        id -> Uuid,
        name -> Text,
        created_at -> Timestamptz,
        currency -> Text,
    }
}

diesel::table! {
    /// Operator API keys, stored under their secret's hash.
    api_keys (operator_id, id) {
        operator_id -> Uuid,
        id -> Uuid,
        name -> Text,
        scopes -> Array<Text>,
        hint -> Text,
        secret_hash -> Text,
        created_at -> Timestamptz,
        expires_at -> Nullable<Timestamptz>,
        revoked_at -> Nullable<Timestamptz>,
        last_used_at -> Nullable<Timestamptz>,
        environment -> Text,
        last_used_ip -> Nullable<Inet>,
        last_used_user_agent -> Nullable<Text>,
    }
}

diesel::table! {
    /// Dashboard staff members.
    staff_members (operator_id, id) {
        operator_id -> Uuid,
        id -> Uuid,
        email -> Text,
        name -> Text,
        scopes -> Array<Text>,
        password_hash -> Text,
        disabled -> Bool,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
    }
}

diesel::table! {
    /// Server-side staff sessions.
    staff_sessions (operator_id, id) {
        operator_id -> Uuid,
        id -> Uuid,
        staff_id -> Uuid,
        created_at -> Timestamptz,
        expires_at -> Timestamptz,
        ended_at -> Nullable<Timestamptz>,
    }
}

diesel::table! {
    /// Staff login throttling counters, per e-mail and per client address (hashed).
    staff_login_attempts (kind, key_hash) {
        kind -> Text,
        key_hash -> Bytea,
        window_started_at -> Timestamptz,
        attempts -> Int4,
        locked_until -> Nullable<Timestamptz>,
        lockouts -> Int4,
        updated_at -> Timestamptz,
    }
}

diesel::table! {
    /// The transactional outbox: events written with the business change that caused them.
    webhook_events (operator_id, id) {
        operator_id -> Uuid,
        id -> Uuid,
        event_type -> Text,
        data -> Jsonb,
        created_at -> Timestamptz,
    }
}

diesel::table! {
    /// Markets, shared by every operator.
    markets (id) {
        id -> Uuid,
        question -> Text,
        rules -> Text,
        close_at -> Timestamptz,
        liquidity -> Int8,
        fee_bps -> Int4,
        status -> Text,
        resolution -> Nullable<Text>,
        created_at -> Timestamptz,
        closed_at -> Nullable<Timestamptz>,
        resolved_at -> Nullable<Timestamptz>,
    }
}

diesel::table! {
    /// Each operator's pool and visibility on a market.
    market_pools (operator_id, market_id) {
        operator_id -> Uuid,
        market_id -> Uuid,
        yes_outstanding -> Int8,
        no_outstanding -> Int8,
        visibility_changed_at -> Nullable<Timestamptz>,
        updated_at -> Timestamptz,
        /// The operator's per-market choice: `unset`, `shown` or `hidden`.
        choice -> Text,
    }
}

diesel::table! {
    /// Each operator's market visibility mode; a missing row is the default mode.
    market_visibility_settings (operator_id) {
        operator_id -> Uuid,
        mode -> Text,
        revision -> Int8,
        updated_at -> Timestamptz,
    }
}

diesel::table! {
    /// The operators' players.
    users (operator_id, id) {
        operator_id -> Uuid,
        id -> Uuid,
        external_user_id -> Text,
        display_name -> Nullable<Text>,
        language -> Nullable<Text>,
        created_at -> Timestamptz,
        last_launched_at -> Timestamptz,
    }
}

diesel::table! {
    /// Single-use launch tokens.
    launches (operator_id, id) {
        operator_id -> Uuid,
        id -> Uuid,
        user_id -> Uuid,
        return_url -> Nullable<Text>,
        created_at -> Timestamptz,
        expires_at -> Timestamptz,
        used_at -> Nullable<Timestamptz>,
        locale -> Nullable<Text>,
        metadata -> Nullable<Jsonb>,
        product -> Text,
    }
}

diesel::table! {
    /// Players' sessions in the hosted app.
    player_sessions (operator_id, id) {
        operator_id -> Uuid,
        id -> Uuid,
        user_id -> Uuid,
        launch_id -> Uuid,
        created_at -> Timestamptz,
        expires_at -> Timestamptz,
        ended_at -> Nullable<Timestamptz>,
        end_reason -> Nullable<Text>,
        locale -> Nullable<Text>,
        product -> Text,
    }
}

diesel::table! {
    /// Operators' launch settings: the origins that may frame the hosted app.
    launch_settings (operator_id) {
        operator_id -> Uuid,
        frame_origins -> Array<Text>,
        updated_at -> Timestamptz,
    }
}

diesel::table! {
    /// Operators' brands in the hosted app, one row each, replaced whole.
    operator_branding (operator_id) {
        operator_id -> Uuid,
        name -> Text,
        logo_url -> Nullable<Text>,
        primary_color -> Text,
        accent_color -> Text,
        default_language -> Text,
        updated_at -> Timestamptz,
    }
}

diesel::table! {
    /// What the docs' playground console may send for an operator in production.
    playground_settings (operator_id) {
        operator_id -> Uuid,
        console -> Text,
        updated_at -> Timestamptz,
    }
}

diesel::table! {
    /// Operators' launch hosts, one row each, found by host across operators.
    launch_hosts (host) {
        host -> Text,
        operator_id -> Uuid,
        position -> SmallInt,
    }
}

diesel::table! {
    /// Players' holdings per market.
    positions (operator_id, user_id, market_id) {
        operator_id -> Uuid,
        user_id -> Uuid,
        market_id -> Uuid,
        yes_shares -> Int8,
        yes_cost_basis -> Int8,
        no_shares -> Int8,
        no_cost_basis -> Int8,
        realized_pnl -> Int8,
        redeemed_at -> Nullable<Timestamptz>,
        updated_at -> Timestamptz,
    }
}

diesel::table! {
    /// Buys and sells.
    trades (operator_id, id) {
        operator_id -> Uuid,
        id -> Uuid,
        user_id -> Uuid,
        market_id -> Uuid,
        client_order_id -> Text,
        side -> Text,
        outcome -> Text,
        order_kind -> Text,
        order_value -> Int8,
        order_limit -> Nullable<Int8>,
        shares -> Int8,
        amount -> Int8,
        fee -> Int8,
        currency -> Text,
        price_before_ppm -> Int4,
        price_after_ppm -> Int4,
        status -> Text,
        failure_reason -> Nullable<Text>,
        position_before -> Nullable<Jsonb>,
        created_at -> Timestamptz,
        settled_at -> Nullable<Timestamptz>,
    }
}

diesel::table! {
    /// What each operator's players were paid when a market resolved.
    market_resolutions (operator_id, market_id) {
        operator_id -> Uuid,
        market_id -> Uuid,
        resolution -> Text,
        resolved_at -> Timestamptz,
        redemption_count -> Int8,
        payout_total -> Int8,
        currency -> Text,
    }
}

diesel::table! {
    /// Payouts of positions on resolution.
    redemptions (operator_id, id) {
        operator_id -> Uuid,
        id -> Uuid,
        user_id -> Uuid,
        market_id -> Uuid,
        resolution -> Text,
        amount -> Int8,
        currency -> Text,
        status -> Text,
        created_at -> Timestamptz,
        paid_at -> Nullable<Timestamptz>,
    }
}

diesel::table! {
    /// Wallet mutations, one per business action, of either product: a market for
    /// Opinion's flows, a flight and a ticket for the flight product's.
    wallet_operations (operator_id, id) {
        operator_id -> Uuid,
        id -> Uuid,
        user_id -> Uuid,
        external_user_id -> Text,
        flow -> Text,
        reason -> Text,
        idempotency_key -> Text,
        fingerprint -> Text,
        amount -> Int8,
        currency -> Text,
        metadata -> Jsonb,
        market_id -> Nullable<Uuid>,
        trade_id -> Nullable<Uuid>,
        redemption_id -> Nullable<Uuid>,
        flight_id -> Nullable<Uuid>,
        ticket_id -> Nullable<Uuid>,
        state -> Text,
        attempts -> Int4,
        http_status -> Nullable<Int4>,
        detail -> Nullable<Text>,
        remote_reference -> Nullable<Text>,
        balance_after -> Nullable<Int8>,
        created_at -> Timestamptz,
        sent_at -> Nullable<Timestamptz>,
        answered_at -> Nullable<Timestamptz>,
        next_attempt_at -> Nullable<Timestamptz>,
        resolved_at -> Nullable<Timestamptz>,
        resolved_by -> Nullable<Text>,
        resolution_note -> Nullable<Text>,
        review_reason -> Nullable<Text>,
    }
}

diesel::table! {
    /// The append-only step log of wallet operations.
    wallet_operation_steps (operator_id, operation_id, step) {
        operator_id -> Uuid,
        operation_id -> Uuid,
        step -> Int4,
        state -> Text,
        http_status -> Nullable<Int4>,
        detail -> Nullable<Text>,
        at -> Timestamptz,
    }
}

diesel::table! {
    /// Operators' webhook endpoints, their signing secrets sealed (`secret` and
    /// `previous_secret` hold clear values only until the service first seals them).
    webhook_endpoints (operator_id, id) {
        operator_id -> Uuid,
        id -> Uuid,
        url -> Text,
        description -> Nullable<Text>,
        event_types -> Array<Text>,
        enabled -> Bool,
        disabled_reason -> Nullable<Text>,
        rate_limit_per_minute -> Nullable<Int4>,
        secret -> Nullable<Text>,
        previous_secret -> Nullable<Text>,
        previous_secret_expires_at -> Nullable<Timestamptz>,
        failing_since -> Nullable<Timestamptz>,
        next_send_at -> Nullable<Timestamptz>,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
        deleted_at -> Nullable<Timestamptz>,
        max_attempts -> Int4,
        timeout_seconds -> Int4,
        secret_sealed -> Nullable<Text>,
        previous_secret_sealed -> Nullable<Text>,
    }
}

diesel::table! {
    /// One event to one endpoint: its status, schedule and claim.
    webhook_deliveries (operator_id, id) {
        operator_id -> Uuid,
        id -> Uuid,
        endpoint_id -> Uuid,
        event_id -> Uuid,
        event_type -> Text,
        status -> Text,
        scheduled_attempts -> Int4,
        attempt_count -> Int4,
        next_attempt_at -> Nullable<Timestamptz>,
        lease_token -> Nullable<Uuid>,
        lease_expires_at -> Nullable<Timestamptz>,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
    }
}

diesel::table! {
    /// Every attempt at a delivery: what it sent and what it received.
    webhook_attempts (operator_id, delivery_id, number) {
        operator_id -> Uuid,
        delivery_id -> Uuid,
        number -> Int4,
        trigger -> Text,
        started_at -> Timestamptz,
        duration_ms -> Int4,
        status_code -> Nullable<Int4>,
        error -> Nullable<Text>,
        response_body -> Nullable<Text>,
        next_attempt_at -> Nullable<Timestamptz>,
        request_url -> Nullable<Text>,
        request_webhook_id -> Nullable<Text>,
        request_webhook_timestamp -> Nullable<Text>,
        request_webhook_signature -> Nullable<Text>,
    }
}

diesel::table! {
    /// Operators' wallet adapters, their signing secrets sealed.
    wallet_adapters (operator_id) {
        operator_id -> Uuid,
        base_url -> Text,
        timeout_ms -> Int4,
        secret_sealed -> Text,
        secret_hint -> Text,
        previous_secret_sealed -> Nullable<Text>,
        previous_secret_signs_until -> Nullable<Timestamptz>,
        revision -> Int8,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
    }
}

diesel::table! {
    /// Runs of the full-contract wallet test with their verdicts per product.
    wallet_test_runs (operator_id, id) {
        operator_id -> Uuid,
        id -> Uuid,
        ran_at -> Timestamptz,
        base_url -> Text,
        opinion_passed -> Bool,
        flight_passed -> Bool,
        report -> Jsonb,
    }
}

diesel::table! {
    /// Simulated users of the staging simulator and their wallet balances.
    simulator_users (operator_id, id) {
        operator_id -> Uuid,
        id -> Uuid,
        external_user_id -> Text,
        display_name -> Nullable<Text>,
        currency -> Text,
        starting_balance -> Int8,
        balance -> Int8,
        disabled -> Bool,
        faults -> Jsonb,
        revision -> Int8,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
    }
}

diesel::table! {
    /// The simulated wallet's idempotency keys and their answers.
    simulator_wallet_keys (operator_id, idempotency_key) {
        operator_id -> Uuid,
        idempotency_key -> Text,
        fingerprint -> Text,
        answer_status -> Nullable<Int4>,
        answer_body -> Nullable<Jsonb>,
        created_at -> Timestamptz,
        settled_at -> Nullable<Timestamptz>,
    }
}

diesel::table! {
    /// The simulated wallet's log of every mutation received.
    simulator_wallet_log (operator_id, id) {
        operator_id -> Uuid,
        id -> Uuid,
        external_user_id -> Nullable<Text>,
        idempotency_key -> Nullable<Text>,
        flow -> Nullable<Text>,
        amount -> Nullable<Int8>,
        currency -> Nullable<Text>,
        metadata -> Jsonb,
        fault -> Nullable<Jsonb>,
        applied -> Bool,
        delivery -> Text,
        answer_status -> Nullable<Int4>,
        answer_body -> Nullable<Jsonb>,
        received_at -> Timestamptz,
        answered_at -> Nullable<Timestamptz>,
    }
}

diesel::table! {
    /// Markets created through the simulator.
    simulator_markets (operator_id, market_id) {
        operator_id -> Uuid,
        market_id -> Uuid,
        created_at -> Timestamptz,
    }
}

diesel::table! {
    /// The flight product's seed chains; the terminal seed is sealed at rest.
    flight_chains (id) {
        id -> Uuid,
        terminal_seed_sealed -> Text,
        length -> Int4,
        salt -> Text,
        commitment -> Text,
        created_at -> Timestamptz,
    }
}

diesel::table! {
    /// Flights (rounds), platform-wide.
    flights (id) {
        id -> Uuid,
        chain_id -> Uuid,
        number -> Int4,
        phase -> Text,
        crash_hundredths -> Int8,
        boarding_at -> Timestamptz,
        take_off_at -> Timestamptz,
        crash_at -> Timestamptz,
        revealed_seed -> Nullable<Text>,
        crashed_at -> Nullable<Timestamptz>,
        cancelled_at -> Nullable<Timestamptz>,
        settled_at -> Nullable<Timestamptz>,
    }
}

diesel::table! {
    /// Whether an operator's players may buy flight tickets.
    flight_enablements (operator_id) {
        operator_id -> Uuid,
        enabled -> Bool,
        changed_at -> Timestamptz,
        changed_by -> Text,
    }
}

diesel::table! {
    /// Production authorizations of an operator's flight product, never edited: a
    /// revocation stamps one once, a renewal is a new row.
    flight_production_authorizations (operator_id, id) {
        operator_id -> Uuid,
        id -> Uuid,
        reference -> Text,
        recorded_at -> Timestamptz,
        recorded_by -> Text,
        expires_at -> Nullable<Timestamptz>,
        revoked_at -> Nullable<Timestamptz>,
        revoked_by -> Nullable<Text>,
    }
}

diesel::table! {
    /// Versions of an operator's flight terms.
    flight_terms (operator_id, id) {
        operator_id -> Uuid,
        id -> Uuid,
        effective_from -> Timestamptz,
        share_bps -> Int4,
        min_stake -> Int8,
        max_stake -> Int8,
        max_payout -> Int8,
        tickets_per_flight -> Int2,
        settlement_period -> Text,
        payment_due_days -> Int2,
        created_at -> Timestamptz,
        created_by -> Text,
        cancelled_at -> Nullable<Timestamptz>,
        cancelled_by -> Nullable<Text>,
    }
}

diesel::table! {
    /// Flight tickets: one stake of one player on one flight.
    flight_tickets (operator_id, id) {
        operator_id -> Uuid,
        id -> Uuid,
        flight_id -> Uuid,
        user_id -> Uuid,
        external_user_id -> Text,
        client_ticket_id -> Text,
        stake -> Int8,
        auto_cash_out -> Nullable<Int8>,
        status -> Text,
        terms_id -> Uuid,
        share_bps -> Int4,
        max_payout -> Int8,
        purchase_operation_id -> Uuid,
        cash_out_hundredths -> Nullable<Int8>,
        cashed_out_at -> Nullable<Timestamptz>,
        payout -> Nullable<Int8>,
        refund_reason -> Nullable<Text>,
        failure_reason -> Nullable<Text>,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
        settled_at -> Nullable<Timestamptz>,
    }
}

diesel::table! {
    /// How many tickets each player holds on the flight it last bought on, against the
    /// cap of tickets per flight.
    flight_held_tickets (operator_id, user_id) {
        operator_id -> Uuid,
        user_id -> Uuid,
        flight_id -> Uuid,
        held -> Int2,
    }
}

diesel::table! {
    /// The platform's statement signing keys (public halves); one is current.
    statement_keys (key_id) {
        key_id -> Text,
        public_key -> Text,
        created_at -> Timestamptz,
        retired_at -> Nullable<Timestamptz>,
    }
}

diesel::table! {
    /// Every operator's chain of signed documents: statements and corrections.
    flight_statements (operator_id, sequence) {
        operator_id -> Uuid,
        sequence -> Int8,
        id -> Uuid,
        kind -> Text,
        document -> Text,
        document_hash -> Text,
        previous_hash -> Nullable<Text>,
        key_id -> Text,
        signature -> Text,
        issued_at -> Timestamptz,
    }
}

diesel::table! {
    /// Finalized settlement reports, one per operator and period.
    flight_settlement_reports (operator_id, id) {
        operator_id -> Uuid,
        id -> Uuid,
        period_start -> Timestamptz,
        period_end -> Timestamptz,
        ticket_count -> Int8,
        stakes -> Int8,
        payouts -> Int8,
        refunds -> Int8,
        ggr -> Int8,
        share -> Int8,
        amount_due -> Int8,
        direction -> Text,
        due_date -> Date,
        lines_sha256 -> Text,
        statement_sequence -> Int8,
        finalized_at -> Timestamptz,
    }
}

diesel::table! {
    /// Signed corrections of finalized statements, each a document of the operator's chain.
    flight_statement_corrections (operator_id, id) {
        operator_id -> Uuid,
        id -> Uuid,
        report_id -> Uuid,
        statement_hash -> Text,
        amount_change -> Int8,
        reason -> Text,
        issued_by -> Text,
        document_sequence -> Int8,
        issued_at -> Timestamptz,
    }
}

diesel::table! {
    /// A finalized statement's proof record: root, size, sealed player key, raw exchange answer.
    flight_report_proofs (operator_id, report_id) {
        operator_id -> Uuid,
        report_id -> Uuid,
        merkle_root -> Text,
        leaf_count -> Int8,
        player_key_sealed -> Text,
        exchange_answer -> Nullable<Bytea>,
    }
}

diesel::table! {
    /// Payments recorded against finalized settlement reports.
    flight_settlement_payments (operator_id, id) {
        operator_id -> Uuid,
        id -> Uuid,
        report_id -> Uuid,
        amount -> Int8,
        direction -> Text,
        paid_on -> Date,
        reference -> Text,
        recorded_by -> Text,
        remaining_due -> Int8,
        remaining_direction -> Text,
        recorded_at -> Timestamptz,
    }
}

diesel::table! {
    /// Each line's leaf hash in its statement's tree.
    flight_proof_leaves (operator_id, report_id, leaf_index) {
        operator_id -> Uuid,
        report_id -> Uuid,
        leaf_index -> Int8,
        ticket_id -> Uuid,
        leaf_hash -> Bytea,
    }
}

diesel::table! {
    /// The root of each complete block of 1 024 leaves of a statement's tree.
    flight_proof_blocks (operator_id, report_id, block_index) {
        operator_id -> Uuid,
        report_id -> Uuid,
        block_index -> Int8,
        root -> Bytea,
    }
}

diesel::allow_tables_to_appear_in_same_query!(
    operators,
    api_keys,
    staff_members,
    staff_sessions,
    staff_login_attempts,
    webhook_events,
    webhook_endpoints,
    webhook_deliveries,
    webhook_attempts,
    markets,
    market_pools,
    market_visibility_settings,
    users,
    launches,
    player_sessions,
    launch_settings,
    launch_hosts,
    operator_branding,
    playground_settings,
    positions,
    trades,
    market_resolutions,
    redemptions,
    wallet_operations,
    wallet_operation_steps,
    wallet_adapters,
    wallet_test_runs,
    simulator_users,
    simulator_wallet_keys,
    simulator_wallet_log,
    simulator_markets,
    flight_chains,
    flights,
    flight_enablements,
    flight_production_authorizations,
    flight_terms,
    flight_tickets,
    flight_held_tickets,
    statement_keys,
    flight_statements,
    flight_settlement_reports,
    flight_statement_corrections,
    flight_settlement_payments,
    flight_report_proofs,
    flight_proof_leaves,
    flight_proof_blocks,
);
