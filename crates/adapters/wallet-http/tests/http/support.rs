//! A gateway with a fixed clock, targets and mutations for the tests.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use opinion_app::ports::{Clock, Random};
use opinion_app::wallet::ports::{MutationOutcome, WalletAdapterTarget, WalletGateway};
use opinion_core::{MarketId, OperatorId, TradeId};
use opinion_market::Outcome;
use opinion_wallet::{Amount, FlowMetadata, MutationRequest, ShareCount, TradeMetadata, WalletMutation};
use opinion_wallet_http::{AddressPolicy, HttpWalletGateway};
use opinion_webhook::SigningSecret;
use time::OffsetDateTime;
use time::macros::datetime;
use ulid::Ulid;

/// The time every call is made at.
pub const NOW: OffsetDateTime = datetime!(2026-11-22 10:15:30.123 UTC);

struct FixedClock;

impl Clock for FixedClock {
    fn now(&self) -> OffsetDateTime {
        NOW
    }
}

#[derive(Default)]
struct CountingRandom(AtomicU64);

impl Random for CountingRandom {
    fn ulid(&self) -> Ulid {
        Ulid(u128::from(self.0.fetch_add(1, Ordering::SeqCst)))
    }

    fn secret_bytes(&self) -> [u8; 32] {
        [7; 32]
    }
}

/// A gateway that may call any address.
pub fn gateway() -> HttpWalletGateway {
    gateway_with(AddressPolicy::Any)
}

/// A gateway under `policy`.
pub fn gateway_with(policy: AddressPolicy) -> HttpWalletGateway {
    HttpWalletGateway::new(Arc::new(FixedClock), Arc::new(CountingRandom::default()), policy)
}

/// The secret numbered `n`.
pub fn secret(n: u8) -> SigningSecret {
    SigningSecret::from_random_bytes(&[n; 32]).expect("secret")
}

/// A target at `base_url` with a 2 s time-out, signing with secret 1.
pub fn target(base_url: &str) -> WalletAdapterTarget {
    WalletAdapterTarget {
        operator_id: OperatorId::from_u128(9),
        base_url: base_url.to_owned(),
        timeout: Duration::from_secs(2),
        signing_secrets: vec![secret(1)],
    }
}

/// A buy of `amount` by `player-1`.
pub fn buy(amount: i64) -> WalletMutation {
    WalletMutation::new(
        "player-1",
        Amount::new(amount).expect("amount"),
        "IDR".parse().expect("currency"),
        FlowMetadata::Buy(TradeMetadata {
            market_id: MarketId::from_u128(1),
            trade_id: TradeId::from_u128(2),
            outcome: Outcome::Yes,
            shares: ShareCount::new(10).expect("shares"),
        }),
    )
    .expect("mutation")
}

/// Sends `mutation` to `base_url` with a fresh gateway.
pub async fn mutate(base_url: &str, mutation: &WalletMutation) -> MutationOutcome {
    gateway().mutate(&target(base_url), mutation).await
}

/// The body the gateway sends for `mutation` at [`NOW`].
pub fn expected_body(mutation: &WalletMutation) -> MutationRequest {
    MutationRequest::of(mutation, "2026-11-22T10:15:30.123Z".parse().expect("time"))
}

/// A port nothing listens on (bound, then released).
pub async fn closed_port() -> u16 {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    listener.local_addr().expect("address").port()
}
