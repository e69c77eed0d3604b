//! The platform's wallet client pointed at a fake wallet.

use std::sync::Arc;
use std::time::Duration;

use opinion_app::ports::{Clock, Random};
use opinion_app::wallet::ports::{MutationOutcome, WalletAdapterTarget, WalletGateway};
use opinion_core::{MarketId, OperatorId, TradeId};
use opinion_market::Outcome;
use opinion_testkit::FakeWallet;
use opinion_wallet::{Amount, FlowMetadata, ShareCount, TradeMetadata, WalletMutation};
use opinion_wallet_http::{AddressPolicy, HttpWalletGateway};
use opinion_webhook::SigningSecret;
use time::OffsetDateTime;
use ulid::Ulid;

/// The secret the platform signs with in these tests.
pub const SECRET: &str = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
/// The player every test trades for.
pub const PLAYER: &str = "player-1";

struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> OffsetDateTime {
        OffsetDateTime::now_utc()
    }
}

struct TestRandom;

impl Random for TestRandom {
    fn ulid(&self) -> Ulid {
        Ulid::new()
    }

    fn secret_bytes(&self) -> [u8; 32] {
        [1; 32]
    }
}

/// The client, as production wiring builds it but allowed to call local addresses.
pub fn client() -> HttpWalletGateway {
    HttpWalletGateway::new(Arc::new(SystemClock), Arc::new(TestRandom), AddressPolicy::Any)
}

/// A target at the wallet, signing with `secrets` and waiting up to `timeout`.
pub fn target(wallet: &FakeWallet, secrets: &[&str], timeout: Duration) -> WalletAdapterTarget {
    WalletAdapterTarget {
        operator_id: OperatorId::from_u128(1),
        base_url: wallet.url(),
        timeout,
        signing_secrets: secrets
            .iter()
            .map(|text| text.parse::<SigningSecret>().expect("secret"))
            .collect(),
    }
}

/// A wallet holding `balance` for [`PLAYER`], checking [`SECRET`].
pub async fn wallet_with(balance: i64) -> FakeWallet {
    let wallet = FakeWallet::start().await;
    wallet.set_balance(PLAYER, balance);
    wallet.set_secret(SECRET);
    wallet
}

/// Trade `trade`'s buy (a debit) or sell (a credit) of `amount` for [`PLAYER`].
pub fn trade(trade: u128, sell: bool, amount: i64) -> WalletMutation {
    let metadata = TradeMetadata {
        market_id: MarketId::from_u128(7),
        trade_id: TradeId::from_u128(trade),
        outcome: Outcome::Yes,
        shares: ShareCount::new(10).expect("shares"),
    };
    let metadata = if sell {
        FlowMetadata::Sell(metadata)
    } else {
        FlowMetadata::Buy(metadata)
    };
    WalletMutation::new(
        PLAYER,
        Amount::new(amount).expect("amount"),
        "IDR".parse().expect("currency"),
        metadata,
    )
    .expect("mutation")
}

/// Sends `mutation` signed with [`SECRET`], waiting up to two seconds.
pub async fn send(wallet: &FakeWallet, mutation: &WalletMutation) -> MutationOutcome {
    client()
        .mutate(&target(wallet, &[SECRET], Duration::from_secs(2)), mutation)
        .await
}

/// Waits (polling, at most ten seconds) until `condition` holds of the wallet.
pub async fn eventually(wallet: &FakeWallet, condition: impl Fn(&FakeWallet) -> bool) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while !condition(wallet) {
        assert!(tokio::time::Instant::now() < deadline, "the wallet never got there");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}
