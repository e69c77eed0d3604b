//! Production authorization over an in-memory flight store and a mocked wallet that
//! records every call: in production a ticket without a valid authorization is refused
//! before anything is stored or sent, a revocation stops new tickets while a bought one
//! is still refunded, an expiry stops tickets at its instant; staging needs nothing. The
//! wallet test's gate answers by the same rule.

use std::sync::{Arc, Mutex, PoisonError};

use opinion_flight::{AuthorizationRequirement, AuthorizationStatus, Rupiah, SettlementPeriod, ShareBps, Terms};
use opinion_flight::{FlightPhase, TicketLimits, TicketStatus};
use opinion_wallet::WalletFlow;
use time::Duration;

use crate::access::ports::MockOperatorStore;
use crate::error::{AppError, ProblemCode};
use crate::flight::model::Enablement;
use crate::flight::{FlightGame, FlightPorts, FlightSettings, NewProductionAuthorization, TicketOrder};
use crate::model::Operator;
use crate::test_support::flight::{ManualClock, MemoryFlightStore, settings};
use crate::test_support::trading::{TradingMocks, applied, player};
use crate::test_support::{NOW, OPERATOR, counting_random};
use crate::wallet::ports::{FlightMoneyGate, MockWalletGateway};

pub(super) const STAFF: &str = "compliance@platform.example";

pub(super) struct Game {
    pub(super) game: FlightGame,
    pub(super) store: MemoryFlightStore,
    pub(super) clock: Arc<ManualClock>,
    /// The flow of every wallet call, in order.
    calls: Arc<Mutex<Vec<WalletFlow>>>,
}

impl Game {
    pub(super) fn calls(&self) -> Vec<WalletFlow> {
        self.calls.lock().unwrap_or_else(PoisonError::into_inner).clone()
    }
}

/// An enabled operator with terms in force and a boarding flight, in an environment
/// with `requirement`; the wallet applies every call and records its flow.
pub(super) async fn game(requirement: AuthorizationRequirement) -> Game {
    let store = MemoryFlightStore::default();
    let clock = ManualClock::at(NOW);
    let mocks = TradingMocks::new();
    let mut operators = MockOperatorStore::new();
    operators.expect_find_operator().returning(|id| {
        Ok((id == OPERATOR).then(|| Operator {
            id,
            name: "Operator".into(),
            currency: "USD".parse().expect("currency"),
            created_at: NOW,
        }))
    });
    let calls = Arc::new(Mutex::new(Vec::new()));
    let mut wallet = MockWalletGateway::new();
    let seen = calls.clone();
    wallet.expect_mutate().returning(move |_, mutation| {
        seen.lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(mutation.flow());
        applied()
    });
    let ports = FlightPorts {
        store: Arc::new(store.clone()),
        operators: Arc::new(operators),
        wallet_adapters: Arc::new(mocks.wallet_adapters),
        wallet: Arc::new(wallet),
        wallet_test_runs: Arc::new(crate::wallet::ports::MockWalletTestRunStore::new()),
        webhooks: Arc::new(crate::webhooks::store::MockWebhookStore::new()),
        transactions: Arc::new(crate::ports::WithoutTransactions),
        clock: clock.clone(),
        random: counting_random(1_000, [9; 32]),
    };
    let settings = FlightSettings {
        production_authorization: requirement,
        ..settings()
    };
    let game = FlightGame::new(ports, settings);
    game.set_first_terms(OPERATOR, terms(), STAFF).await.expect("terms");
    store.memory().enablements.insert(OPERATOR, enablement(true));
    game.drive(false).await.expect("board");
    Game {
        game,
        store,
        clock,
        calls,
    }
}

/// Flight switched on or off for the operator by staff at `NOW`.
pub(super) fn enablement(enabled: bool) -> Enablement {
    Enablement {
        operator_id: OPERATOR,
        enabled,
        changed_at: NOW,
        changed_by: STAFF.into(),
    }
}

fn terms() -> Terms {
    let limits = TicketLimits::new(
        Rupiah::new(1_000).expect("min"),
        Rupiah::new(1_000_000).expect("max"),
        Rupiah::new(100_000_000).expect("payout"),
        2,
    )
    .expect("limits");
    Terms::new(
        ShareBps::new(1_500).expect("bps"),
        limits,
        SettlementPeriod::CalendarMonth,
        14,
    )
    .expect("terms")
}

pub(super) fn order(client_ticket_id: &str) -> TicketOrder {
    TicketOrder {
        stake: Rupiah::new(10_000).expect("stake"),
        auto_cash_out: None,
        client_ticket_id: client_ticket_id.into(),
    }
}

pub(super) fn authorization(reference: &str, expires_at: Option<time::OffsetDateTime>) -> NewProductionAuthorization {
    NewProductionAuthorization {
        reference: reference.into(),
        expires_at,
    }
}

fn assert_missing(result: Result<impl std::fmt::Debug, AppError>) {
    match result {
        Err(AppError::Conflict { code, .. }) => assert_eq!(code, ProblemCode::ProductionAuthorizationMissing),
        other => panic!("expected production_authorization_missing, got {other:?}"),
    }
}

#[tokio::test]
async fn in_production_a_ticket_without_authorization_is_refused_before_anything_is_stored_or_sent() {
    let t = game(AuthorizationRequirement::Required).await;

    assert_missing(t.game.buy_ticket(&player(), &order("c-1")).await);

    assert_eq!(t.calls(), [], "the wallet saw nothing");
    let memory = t.store.memory();
    assert!(memory.tickets.is_empty());
    assert!(memory.operations.is_empty());
}

#[tokio::test]
async fn staging_and_development_buy_without_any_authorization() {
    let t = game(AuthorizationRequirement::NotRequired).await;

    let ticket = t.game.buy_ticket(&player(), &order("c-1")).await.expect("bought");

    assert_eq!(ticket.status, TicketStatus::Active);
    assert_eq!(t.calls(), [WalletFlow::FlightTicketPurchase]);
    let book = t.game.production_authorization(OPERATOR).await.expect("book");
    assert_eq!(book.status(), AuthorizationStatus::NotRequired);
}

#[tokio::test]
async fn a_revocation_stops_new_tickets_at_once_while_the_bought_one_is_still_refunded() {
    let t = game(AuthorizationRequirement::Required).await;
    let recorded = t
        .game
        .authorize_production(OPERATOR, &authorization("CHG-1042", None), STAFF)
        .await
        .expect("authorized");
    assert_eq!(recorded.recorded_at, NOW);
    let bought = t.game.buy_ticket(&player(), &order("c-1")).await.expect("bought");
    assert_eq!(bought.status, TicketStatus::Active);

    t.clock.advance_ms(500);
    let stopped = t
        .game
        .revoke_production(OPERATOR, "ops@platform.example")
        .await
        .expect("revoked");
    assert_eq!(stopped, 1);
    assert_missing(t.game.buy_ticket(&player(), &order("c-2")).await);
    assert_eq!(
        t.calls(),
        [WalletFlow::FlightTicketPurchase],
        "no debit after the revocation"
    );

    // A new driver cancels the boarding flight: the bought ticket is refunded all the same.
    t.game.drive(true).await.expect("take over");
    assert_eq!(
        t.store.memory().flights.last().map(|flight| flight.phase),
        Some(FlightPhase::Cancelled)
    );
    let pass = t.game.run_money_pass().await.expect("money pass");
    assert_eq!(pass.sent, 1);
    assert_eq!(
        t.calls(),
        [WalletFlow::FlightTicketPurchase, WalletFlow::FlightTicketRefund]
    );
    assert_eq!(t.store.memory().tickets[&bought.id].status, TicketStatus::Refunded);

    let book = t.game.production_authorization(OPERATOR).await.expect("book");
    let AuthorizationStatus::Missing(Some(latest)) = book.status() else {
        panic!("revoked: {:?}", book.status());
    };
    let revocation = latest.revocation.clone().expect("stamped");
    assert_eq!(revocation.at, NOW + Duration::milliseconds(500));
    assert_eq!(revocation.by, "ops@platform.example");
    assert_eq!(latest.reference.as_str(), "CHG-1042");
}

#[tokio::test]
async fn the_wallet_tests_gate_follows_the_authorization_in_production_and_is_open_elsewhere() {
    let staging = game(AuthorizationRequirement::NotRequired).await;
    assert!(staging.game.flight_money_may_move(OPERATOR).await.expect("asked"));

    let t = game(AuthorizationRequirement::Required).await;
    assert!(!t.game.flight_money_may_move(OPERATOR).await.expect("asked"));
    let expires_at = NOW + Duration::hours(1);
    t.game
        .authorize_production(OPERATOR, &authorization("CHG-1042", Some(expires_at)), STAFF)
        .await
        .expect("authorized");
    assert!(t.game.flight_money_may_move(OPERATOR).await.expect("asked"));
    t.clock.set(expires_at);
    assert!(!t.game.flight_money_may_move(OPERATOR).await.expect("asked"), "expired");
    t.game
        .authorize_production(OPERATOR, &authorization("CHG-1043", None), STAFF)
        .await
        .expect("renewed");
    assert!(t.game.flight_money_may_move(OPERATOR).await.expect("asked"));
    t.game.revoke_production(OPERATOR, STAFF).await.expect("revoked");
    assert!(!t.game.flight_money_may_move(OPERATOR).await.expect("asked"), "revoked");
}

#[tokio::test]
async fn an_authorization_stops_at_its_expiry_and_a_new_one_authorizes_again() {
    let t = game(AuthorizationRequirement::Required).await;
    let expires_at = NOW + Duration::seconds(1);
    t.game
        .authorize_production(OPERATOR, &authorization("CHG-1042", Some(expires_at)), STAFF)
        .await
        .expect("authorized");

    t.clock.set(expires_at - Duration::milliseconds(1));
    t.game
        .buy_ticket(&player(), &order("c-1"))
        .await
        .expect("bought before the expiry");
    t.clock.set(expires_at);
    assert_missing(t.game.buy_ticket(&player(), &order("c-2")).await);
    assert_eq!(t.calls(), [WalletFlow::FlightTicketPurchase]);

    t.game
        .authorize_production(OPERATOR, &authorization("CHG-1043", None), STAFF)
        .await
        .expect("renewed");
    t.game.buy_ticket(&player(), &order("c-2")).await.expect("bought again");
    let book = t.game.production_authorization(OPERATOR).await.expect("book");
    assert_eq!(book.records.len(), 2, "the expired record is kept");
    assert!(
        matches!(book.status(), AuthorizationStatus::Authorized(record) if record.reference.as_str() == "CHG-1043")
    );
}

#[tokio::test]
async fn recording_checks_the_reference_the_expiry_the_author_and_the_operator() {
    let t = game(AuthorizationRequirement::Required).await;
    let invalid = |result: Result<_, AppError>| match result {
        Err(AppError::Invalid { field, .. }) => field,
        other => panic!("expected a refusal, got {other:?}"),
    };
    assert_eq!(
        invalid(
            t.game
                .authorize_production(OPERATOR, &authorization("  ", None), STAFF)
                .await
        ),
        "reference"
    );
    assert_eq!(
        invalid(
            t.game
                .authorize_production(OPERATOR, &authorization("CHG-1", Some(NOW)), STAFF)
                .await
        ),
        "expiresAt"
    );
    assert_eq!(
        invalid(
            t.game
                .authorize_production(OPERATOR, &authorization("CHG-1", None), " ")
                .await
        ),
        "by"
    );
    let unknown = opinion_core::OperatorId::from_u128(99);
    assert!(matches!(
        t.game
            .authorize_production(unknown, &authorization("CHG-1", None), STAFF)
            .await,
        Err(AppError::NotFound("operator"))
    ));
    assert!(matches!(
        t.game.revoke_production(unknown, STAFF).await,
        Err(AppError::NotFound("operator"))
    ));
    assert!(t.store.memory().authorizations.is_empty(), "nothing was recorded");
    assert_eq!(
        t.game
            .revoke_production(OPERATOR, STAFF)
            .await
            .expect("nothing to revoke"),
        0
    );
}
