//! The trading mocks (one set for trading, settlement and players) and the trading
//! tests' records: an open market, a player, orders and wallet outcomes.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use async_trait::async_trait;
use opinion_core::{MarketId, OperatorId, PlayerSessionId, UserId};
use opinion_market::{FeeRate, Liquidity, MarketChoice, MarketStatus, OrderKind, Outcome, Pool, Side, VisibilityMode};
use opinion_wallet::{Ambiguity, Classification, RefusalCode, RemoteReference};
use time::macros::datetime;

use crate::access::AuthFailure;
use crate::access::ports::MockOperatorStore;
use crate::error::AppError;
use crate::model::{Market, Operator, OperatorMarket, User};
use crate::opinion::ports::MockMarketStore;
use crate::opinion::settlement::ports::MockSettlementStore;
use crate::opinion::settlement::{MarketSettlement, WorkerSettings};
use crate::opinion::trading::ports::MockTradeStore;
use crate::opinion::trading::{OrderRequest, Trading, TradingPorts};
use crate::players::ports::{MockLaunchSettingsStore, MockPlayerStore, MockProductGate};
use crate::players::{ActingPlayer, PlayerPrincipal, PlayerTokens, Players, PlayersPorts, PlayersSettings};
use crate::ports::{StoreError, TransactionWork, Transactions, WithoutTransactions};
use crate::test_support::{NOW, OPERATOR, counting_random, fixed_clock};
use crate::wallet::ports::{MockWalletAdapterStore, MockWalletGateway, MutationOutcome, WalletAdapterTarget};

/// The market every test trades on.
pub const MARKET: MarketId = MarketId::from_u128(500);

/// The player every test trades as.
pub const USER: UserId = UserId::from_u128(600);

/// The mocks of every Opinion use case that trades, settles or launches, to be given
/// expectations before one of the `build_*`.
#[derive(Default)]
pub struct TradingMocks {
    pub trades: MockTradeStore,
    pub markets: MockMarketStore,
    pub players: MockPlayerStore,
    pub launch_settings: MockLaunchSettingsStore,
    /// Which products launch; Opinion only when a test sets none.
    pub products: Option<MockProductGate>,
    pub settlement: MockSettlementStore,
    pub operators: MockOperatorStore,
    pub wallet_adapters: MockWalletAdapterStore,
    pub wallet: MockWalletGateway,
}

impl TradingMocks {
    /// Mocks whose operator exists (in IDR) with a wallet adapter configured.
    pub fn new() -> Self {
        let mut mocks = Self::default();
        mocks.operators.expect_find_operator().returning(|id| {
            Ok(Some(Operator {
                id,
                name: "Operator".into(),
                currency: "IDR".parse().expect("currency"),
                created_at: NOW,
            }))
        });
        mocks
            .wallet_adapters
            .expect_find_wallet_target()
            .returning(|operator| Ok(Some(target(operator))));
        mocks
    }

    /// Trading over the mocks.
    pub fn build(self) -> Trading {
        self.build_settlement().trading
    }

    /// MarketSettlement (and the trading it builds on) over the mocks.
    pub fn build_settlement(self) -> MarketSettlement {
        let trading = Trading::new(TradingPorts {
            trades: Arc::new(self.trades),
            markets: Arc::new(self.markets),
            operators: Arc::new(self.operators),
            wallet_adapters: Arc::new(self.wallet_adapters),
            wallet: Arc::new(self.wallet),
            transactions: Arc::new(WithoutTransactions),
            clock: fixed_clock(),
            random: counting_random(1_000, [9; 32]),
        });
        MarketSettlement::new(trading, Arc::new(self.settlement), WorkerSettings::default())
    }

    /// Players over the mocks.
    pub fn build_players(self) -> Players {
        Players::new(
            PlayersPorts {
                store: Arc::new(self.players),
                settings: Arc::new(self.launch_settings),
                products: Arc::new(self.products.unwrap_or_else(|| products(false))),
                clock: fixed_clock(),
                random: counting_random(1_000, [9; 32]),
            },
            PlayersSettings {
                public_url: "https://opinion.example".into(),
                launch_ttl: time::Duration::minutes(5),
                player_session_ttl: time::Duration::hours(8),
                tokens: PlayerTokens::new(&[3; 32]).expect("tokens"),
            },
        )
    }
}

/// The operator's wallet adapter.
pub fn target(operator: opinion_core::OperatorId) -> WalletAdapterTarget {
    WalletAdapterTarget {
        operator_id: operator,
        base_url: "https://wallet.example".into(),
        timeout: Duration::from_millis(200),
        signing_secrets: Vec::new(),
    }
}

/// The player.
pub fn player() -> PlayerPrincipal {
    PlayerPrincipal {
        operator_id: OPERATOR,
        user: User {
            id: USER,
            operator_id: OPERATOR,
            external_user_id: "player-7".into(),
            display_name: None,
            language: None,
            created_at: NOW,
            last_launched_at: NOW,
        },
        session_id: PlayerSessionId::from_u128(700),
    }
}

/// The market as the operator sees it, with `pool`.
pub fn market_with(pool: Pool, status: MarketStatus) -> OperatorMarket {
    OperatorMarket {
        market: Market {
            id: MARKET,
            question: "Will it rain?".into(),
            rules: "Resolves YES if it rains.".into(),
            close_at: datetime!(2026-12-31 00:00 UTC),
            liquidity: liquidity(),
            fee: FeeRate::from_bps(100).expect("fee"),
            status,
            created_at: NOW,
            closed_at: None,
            resolved_at: None,
        },
        pool,
        choice: MarketChoice::Unset,
        mode: VisibilityMode::default(),
    }
}

/// The liquidity of the market.
pub fn liquidity() -> Liquidity {
    Liquidity::new(1_000).expect("liquidity")
}

/// An open market with an untouched pool.
pub fn open_market() -> OperatorMarket {
    market_with(Pool::new(liquidity()), MarketStatus::Open)
}

/// An order.
pub fn order(side: Side, value: i64) -> OrderRequest {
    OrderRequest {
        market_id: MARKET,
        side,
        outcome: Outcome::Yes,
        kind: OrderKind::Shares,
        value,
        limit: None,
    }
}

/// A wallet outcome with `classification`.
pub fn answered(classification: Classification, status: Option<u16>) -> MutationOutcome {
    MutationOutcome {
        classification,
        http_status: status,
        elapsed: Duration::from_millis(5),
    }
}

/// The wallet applied the mutation.
pub fn applied() -> MutationOutcome {
    answered(
        Classification::Applied {
            remote_reference: RemoteReference::parse("w-1").expect("reference"),
            balance: 10_000,
        },
        Some(200),
    )
}

/// The wallet refused: insufficient funds.
pub fn refused() -> MutationOutcome {
    answered(
        Classification::Rejected {
            code: RefusalCode::InsufficientFunds,
        },
        Some(422),
    )
}

/// No answer in time.
pub fn timed_out() -> MutationOutcome {
    answered(
        Classification::Ambiguous {
            why: Ambiguity::TimedOut,
        },
        None,
    )
}

/// A product gate where Opinion is on and flight is on only when `flight_enabled`.
pub fn products(flight_enabled: bool) -> MockProductGate {
    let mut gate = MockProductGate::new();
    gate.expect_product_enabled()
        .returning(move |_, product| Ok(product == opinion_wallet::Product::Opinion || flight_enabled));
    gate
}

/// A player whose session ended before the order: every use case must refuse it first.
pub struct EndedSession;

impl ActingPlayer for EndedSession {
    fn operator_id(&self) -> OperatorId {
        OPERATOR
    }

    async fn confirm(&self) -> Result<PlayerPrincipal, AppError> {
        Err(AppError::Unauthenticated(AuthFailure::SessionEnded))
    }
}

/// Steps that note whether one is running, so a test can see what ran inside one.
#[derive(Clone, Default)]
pub struct WatchedSteps {
    running: Arc<AtomicBool>,
    /// How many steps ran.
    pub count: Arc<AtomicUsize>,
}

impl WatchedSteps {
    /// Whether a step is running now.
    pub fn inside(&self) -> bool {
        self.running.load(Ordering::SeqCst)
    }
}

#[async_trait]
impl Transactions for WatchedSteps {
    async fn run<'a>(&self, work: TransactionWork<'a>) -> Result<(), StoreError> {
        self.count.fetch_add(1, Ordering::SeqCst);
        self.running.store(true, Ordering::SeqCst);
        work.await;
        self.running.store(false, Ordering::SeqCst);
        Ok(())
    }
}

/// The test player, noting whether it was made sure of inside a step of `steps`.
pub struct PlayerInSteps {
    pub steps: WatchedSteps,
    /// Set when `confirm` ran inside a step, cleared when outside one.
    pub confirmed_inside: Arc<AtomicBool>,
}

impl ActingPlayer for PlayerInSteps {
    fn operator_id(&self) -> OperatorId {
        OPERATOR
    }

    async fn confirm(&self) -> Result<PlayerPrincipal, AppError> {
        self.confirmed_inside.store(self.steps.inside(), Ordering::SeqCst);
        Ok(player())
    }
}
