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

diesel::allow_tables_to_appear_in_same_query!(
    operators,
    api_keys,
    staff_members,
    staff_sessions,
    webhook_events,
    wallet_adapters
);
