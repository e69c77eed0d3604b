//! The fixed names of the wallet adapter contract (REST v1) that both the platform's
//! client and a wallet need: the paths below the operator's base URL and the header that
//! repeats the idempotency key. The signature headers are Standard Webhooks'
//! (`opinion_webhook::WEBHOOK_*_HEADER`); for a mutation `webhook-id` is the idempotency
//! key, for a balance read a fresh id per read (see [`balance_read_id`]).

/// Path of the mutation call, appended to the base URL.
pub const MUTATIONS_PATH: &str = "/v1/mutations";
/// Path of the balance read, appended to the base URL.
pub const BALANCE_PATH: &str = "/v1/balance";
/// The header repeating the body's `idempotencyKey`, for wallets whose HTTP layer
/// deduplicates by header.
pub const IDEMPOTENCY_KEY_HEADER: &str = "Idempotency-Key";

/// The `webhook-id` of a balance read: `bal_` and a fresh unique suffix (the caller's
/// ULID), so it can never be mistaken for an idempotency key (which always has a `:`).
pub fn balance_read_id(unique: &str) -> String {
    format!("bal_{unique}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn balance_read_ids_are_never_idempotency_keys() {
        let id = balance_read_id("01jdz3qv6mz8x5c0a2t5d4e7f9");
        assert_eq!(id, "bal_01jdz3qv6mz8x5c0a2t5d4e7f9");
        assert!(!id.contains(':'));
    }
}
