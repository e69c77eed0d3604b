//! How database failures become the ports' `StoreError`: a unique violation is a
//! `Duplicate` named after what it protects, anything else is `Unavailable`, logged here
//! where the span still says which operation failed.

use diesel::result::{DatabaseErrorKind, Error as DieselError};
use opinion_app::ports::{StoreError, TimeLimit, UniqueKey};

/// The subject a unique constraint protects, as `StoreError::Duplicate` names it.
fn duplicate_subject(constraint: Option<&str>) -> UniqueKey {
    match constraint {
        Some("staff_members_email_key") => UniqueKey::StaffEmail,
        Some("api_keys_secret_hash_key") => UniqueKey::ApiKeyHash,
        Some("operators_pkey") => UniqueKey::OperatorId,
        Some("api_keys_pkey") => UniqueKey::ApiKeyId,
        Some("launch_hosts_pkey") => UniqueKey::LaunchHost,
        Some("staff_members_pkey") => UniqueKey::StaffId,
        Some("staff_sessions_pkey") => UniqueKey::StaffSessionId,
        Some("trades_client_order_key") => UniqueKey::ClientOrder,
        Some("flight_tickets_client_id") => UniqueKey::ClientTicket,
        Some("trades_one_open_per_user_market") => UniqueKey::OpenTrade,
        Some("wallet_operations_key") => UniqueKey::IdempotencyKey,
        Some("wallet_adapters_pkey") => UniqueKey::WalletAdapter,
        Some("simulator_users_external_key") => UniqueKey::SimulatedUser,
        Some("flight_settlement_payments_reference_key") => UniqueKey::PaymentReference,
        _ => UniqueKey::Other,
    }
}

/// The session time limit a database error reports, by PostgreSQL's message (diesel
/// keeps no SQLSTATE): 57014 for the statement limit, 55P03 for the lock wait, 57P05 for
/// an idle transaction. The server's messages are read in English, its default.
fn passed_limit(message: &str) -> Option<TimeLimit> {
    if message.contains("due to statement timeout") {
        Some(TimeLimit::Statement)
    } else if message.contains("due to lock timeout") {
        Some(TimeLimit::Lock)
    } else if message.contains("due to idle-in-transaction timeout") {
        Some(TimeLimit::IdleInTransaction)
    } else {
        None
    }
}

/// Maps a diesel error of a query or transaction.
pub(crate) fn from_diesel(error: DieselError) -> StoreError {
    match &error {
        DieselError::DatabaseError(DatabaseErrorKind::UniqueViolation, info) => {
            let subject = duplicate_subject(info.constraint_name());
            tracing::debug!(%subject, "unique constraint refused the write");
            StoreError::Duplicate(subject)
        }
        DieselError::DatabaseError(_, info) if let Some(limit) = passed_limit(info.message()) => {
            tracing::error!(error = %error, %limit, "a database time limit passed");
            StoreError::TimedOut(limit)
        }
        _ => unavailable("query failed", &error),
    }
}

/// An `Unavailable` for a failure that is not the caller's doing; logged once, here.
pub(crate) fn unavailable(what: &str, error: &dyn std::fmt::Display) -> StoreError {
    tracing::error!(error = %error, "{what}");
    StoreError::Unavailable(format!("{what}: {error}"))
}

/// An error with every cause under it, `outer: inner: …`: the connection errors of
/// tokio-postgres say only "error performing TLS handshake" themselves, and the reason
/// (an unknown issuer, a name mismatch) is in their source.
pub(crate) fn with_causes(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut cause = error.source();
    while let Some(inner) = cause {
        let inner_text = inner.to_string();
        if !text.ends_with(&inner_text) {
            text.push_str(": ");
            text.push_str(&inner_text);
        }
        cause = inner.source();
    }
    text
}

/// A stored value the domain refuses: the database holds something this code never
/// writes, so it is reported as a store failure rather than handed on.
pub(crate) fn corrupt(table: &str, id: uuid::Uuid, problem: &dyn std::fmt::Display) -> StoreError {
    tracing::error!(table, %id, problem = %problem, "corrupt row");
    StoreError::Unavailable(format!("corrupt row in {table} ({id}): {problem}"))
}

/// A stored text parsed back into its domain type; a value the domain refuses is a
/// corrupt row of `table`.
pub(crate) fn parsed<T>(table: &str, id: uuid::Uuid, text: &str) -> Result<T, StoreError>
where
    T: std::str::FromStr,
    T::Err: std::fmt::Display,
{
    text.parse().map_err(|problem| corrupt(table, id, &problem))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_duplicates_by_constraint() {
        assert_eq!(
            duplicate_subject(Some("staff_members_email_key")),
            UniqueKey::StaffEmail
        );
        assert_eq!(
            duplicate_subject(Some("api_keys_secret_hash_key")),
            UniqueKey::ApiKeyHash
        );
        assert_eq!(
            duplicate_subject(Some("simulator_users_external_key")),
            UniqueKey::SimulatedUser
        );
        assert_eq!(duplicate_subject(None), UniqueKey::Other);
    }

    #[test]
    fn other_failures_are_unavailable() {
        assert!(matches!(from_diesel(DieselError::NotFound), StoreError::Unavailable(_)));
    }
}
