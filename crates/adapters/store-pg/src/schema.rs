//! The diesel view of the tables created by `migrations/`, written by hand; it must
//! match the SQL exactly.

diesel::table! {
    /// Tenants.
    operators (id) {
        id -> Uuid,
        name -> Text,
        created_at -> Timestamptz,
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
    /// Operators' webhook endpoints.
    webhook_endpoints (operator_id, id) {
        operator_id -> Uuid,
        id -> Uuid,
        url -> Text,
        description -> Nullable<Text>,
        event_types -> Array<Text>,
        enabled -> Bool,
        disabled_reason -> Nullable<Text>,
        rate_limit_per_minute -> Nullable<Int4>,
        secret -> Text,
        previous_secret -> Nullable<Text>,
        previous_secret_expires_at -> Nullable<Timestamptz>,
        failing_since -> Nullable<Timestamptz>,
        next_send_at -> Nullable<Timestamptz>,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
        deleted_at -> Nullable<Timestamptz>,
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
    /// Every attempt at a delivery.
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
    }
}

diesel::allow_tables_to_appear_in_same_query!(
    operators,
    api_keys,
    staff_members,
    staff_sessions,
    webhook_events,
    webhook_endpoints,
    webhook_deliveries,
    webhook_attempts,
);
