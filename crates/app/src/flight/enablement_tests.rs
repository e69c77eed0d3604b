//! Enabling and disabling flight over an in-memory flight store and mocked wallet,
//! wallet-test and webhook ports: the facts gathered for the domain's rule, a refusal
//! that changes nothing, and the switch stored with who changed it.

use std::sync::Arc;

use opinion_core::{Page, WalletTestRunId};
use opinion_flight::{
    AuthorizationRequirement, EnablementBlocker, EnablementWarning, Rupiah, SettlementPeriod, ShareBps, Terms,
    TicketLimits,
};
use opinion_wallet::{AdapterBaseUrl, AdapterSecrets, AdapterTimeout};
use opinion_webhook::{EventType, SigningSecret, Subscription};

use crate::access::ports::MockOperatorStore;
use crate::error::AppError;
use crate::flight::{EnableOutcome, FlightGame, FlightPorts, FlightSettings, NewProductionAuthorization};
use crate::model::{Operator, WalletAdapterConfig};
use crate::test_support::flight::{ManualClock, MemoryFlightStore, settings};
use crate::test_support::{NOW, OPERATOR, counting_random};
use crate::wallet::ports::{MockWalletAdapterStore, MockWalletGateway, MockWalletTestRunStore, WalletTestRun};
use crate::webhooks::store::MockWebhookStore;
use crate::webhooks::test_fixtures::endpoint;

const BASE_URL: &str = "https://wallet.example.com/opinion";

/// What the operator has in place.
struct Setup {
    adapter: bool,
    flight_test_passed: bool,
    flight_subscription: bool,
    /// Staging (none needed) or production (a production authorization needed).
    environment: AuthorizationRequirement,
}

const READY: Setup = Setup {
    adapter: true,
    flight_test_passed: true,
    flight_subscription: true,
    environment: AuthorizationRequirement::NotRequired,
};

fn game(setup: &Setup, store: &MemoryFlightStore) -> FlightGame {
    let mut operators = MockOperatorStore::new();
    operators.expect_find_operator().returning(|id| {
        Ok((id == OPERATOR).then(|| Operator {
            id,
            name: "Operator".into(),
            currency: "USD".parse().expect("currency"),
            created_at: NOW,
        }))
    });
    let config = setup.adapter.then(|| WalletAdapterConfig {
        operator_id: OPERATOR,
        base_url: AdapterBaseUrl::parse(BASE_URL, true).expect("url"),
        timeout: AdapterTimeout::from_millis(10_000).expect("timeout"),
        secrets: AdapterSecrets::new(SigningSecret::from_random_bytes(&[3; 32]).expect("secret")),
        created_at: NOW - time::Duration::days(2),
        updated_at: NOW - time::Duration::days(1),
        revision: 1,
    });
    let mut adapters = MockWalletAdapterStore::new();
    adapters
        .expect_find_wallet_adapter()
        .returning(move |_| Ok(config.clone()));
    let flight_passed = setup.flight_test_passed;
    let mut runs = MockWalletTestRunStore::new();
    runs.expect_latest_wallet_test_run().returning(move |_| {
        Ok(Some(WalletTestRun {
            id: WalletTestRunId::from_u128(1),
            operator_id: OPERATOR,
            ran_at: NOW - time::Duration::hours(1),
            base_url: BASE_URL.into(),
            opinion_passed: true,
            flight_passed,
            report: serde_json::json!({}),
        }))
    });
    let mut subscribed = endpoint(1);
    if setup.flight_subscription {
        subscribed.subscription =
            Subscription::new([EventType::TradeProcessed, EventType::FlightTicketLost]).expect("subscription");
    }
    let mut webhooks = MockWebhookStore::new();
    webhooks.expect_list_endpoints().returning(move |_, _| {
        Ok(Page {
            items: vec![subscribed.clone()],
            next: None,
        })
    });
    let ports = FlightPorts {
        store: Arc::new(store.clone()),
        operators: Arc::new(operators),
        wallet_adapters: Arc::new(adapters),
        wallet: Arc::new(MockWalletGateway::new()),
        wallet_test_runs: Arc::new(runs),
        webhooks: Arc::new(webhooks),
        transactions: Arc::new(crate::ports::WithoutTransactions),
        clock: ManualClock::at(NOW),
        random: counting_random(1_000, [5; 32]),
    };
    let settings = FlightSettings {
        production_authorization: setup.environment,
        ..settings()
    };
    FlightGame::new(ports, settings)
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

#[tokio::test]
async fn an_operator_with_everything_in_place_is_enabled_and_named_who_did_it() {
    let store = MemoryFlightStore::default();
    let game = game(&READY, &store);
    game.set_first_terms(OPERATOR, terms(), "Ops Staff")
        .await
        .expect("terms");
    let outcome = game.enable(OPERATOR, " Ops Staff ").await.expect("enable");
    let EnableOutcome::Enabled(check) = outcome else {
        panic!("refused: {outcome:?}")
    };
    assert_eq!(check.warnings, []);
    assert!(game.is_enabled(OPERATOR).await.expect("read"));
    let stored = store.memory().enablements[&OPERATOR].clone();
    assert_eq!(
        (stored.enabled, stored.changed_by.as_str(), stored.changed_at),
        (true, "Ops Staff", NOW)
    );
}

#[tokio::test]
async fn a_refusal_lists_every_blocker_and_stores_nothing() {
    let store = MemoryFlightStore::default();
    let setup = Setup {
        flight_test_passed: false,
        flight_subscription: false,
        ..READY
    };
    let game = game(&setup, &store);
    let outcome = game.enable(OPERATOR, "Ops Staff").await.expect("enable");
    let EnableOutcome::Refused(check) = outcome else {
        panic!("enabled: {outcome:?}")
    };
    assert_eq!(
        check.blockers,
        [
            EnablementBlocker::FlightWalletTestNotPassed,
            EnablementBlocker::NoCurrentTerms
        ]
    );
    assert_eq!(check.warnings, [EnablementWarning::NoFlightWebhookSubscription]);
    assert!(store.memory().enablements.is_empty());
    assert!(!game.is_enabled(OPERATOR).await.expect("read"));
}

#[tokio::test]
async fn in_production_enabling_needs_a_valid_production_authorization() {
    let store = MemoryFlightStore::default();
    let setup = Setup {
        environment: AuthorizationRequirement::Required,
        ..READY
    };
    let game = game(&setup, &store);
    game.set_first_terms(OPERATOR, terms(), "Ops Staff")
        .await
        .expect("terms");
    let outcome = game.enable(OPERATOR, "Ops Staff").await.expect("enable");
    let EnableOutcome::Refused(check) = outcome else {
        panic!("enabled: {outcome:?}")
    };
    assert_eq!(check.blockers, [EnablementBlocker::ProductionAuthorizationMissing]);
    assert!(store.memory().enablements.is_empty());

    let new = NewProductionAuthorization {
        reference: "CHG-1042".into(),
        expires_at: None,
    };
    game.authorize_production(OPERATOR, &new, "Compliance")
        .await
        .expect("authorized");
    let outcome = game.enable(OPERATOR, "Ops Staff").await.expect("enable");
    assert!(matches!(outcome, EnableOutcome::Enabled(_)), "{outcome:?}");

    game.revoke_production(OPERATOR, "Compliance").await.expect("revoked");
    let status = game.enablement_status(OPERATOR).await.expect("status");
    assert_eq!(
        status.check.blockers,
        [EnablementBlocker::ProductionAuthorizationMissing]
    );
}

#[tokio::test]
async fn in_production_a_flight_section_not_passed_and_a_missing_authorization_are_both_named() {
    let store = MemoryFlightStore::default();
    let setup = Setup {
        flight_test_passed: false,
        environment: AuthorizationRequirement::Required,
        ..READY
    };
    let game = game(&setup, &store);
    game.set_first_terms(OPERATOR, terms(), "Ops Staff")
        .await
        .expect("terms");
    let outcome = game.enable(OPERATOR, "Ops Staff").await.expect("enable");
    let EnableOutcome::Refused(check) = outcome else {
        panic!("enabled: {outcome:?}")
    };
    assert_eq!(
        check.blockers,
        [
            EnablementBlocker::FlightWalletTestNotPassed,
            EnablementBlocker::ProductionAuthorizationMissing
        ]
    );
    assert!(store.memory().enablements.is_empty());
}

#[tokio::test]
async fn without_a_webhook_subscription_enabling_only_warns() {
    let store = MemoryFlightStore::default();
    let setup = Setup {
        flight_subscription: false,
        ..READY
    };
    let game = game(&setup, &store);
    game.set_first_terms(OPERATOR, terms(), "Ops Staff")
        .await
        .expect("terms");
    let outcome = game.enable(OPERATOR, "Ops Staff").await.expect("enable");
    assert!(
        matches!(&outcome, EnableOutcome::Enabled(check) if check.warnings == [EnablementWarning::NoFlightWebhookSubscription]),
        "{outcome:?}"
    );
}

#[tokio::test]
async fn disabling_is_stored_and_status_shows_the_switch_and_the_check() {
    let store = MemoryFlightStore::default();
    let setup = Setup {
        adapter: false,
        ..READY
    };
    let game = game(&setup, &store);
    game.disable(OPERATOR, "Ops Staff").await.expect("disable");
    let status = game.enablement_status(OPERATOR).await.expect("status");
    assert_eq!(status.enablement.map(|e| e.enabled), Some(false));
    assert_eq!(
        status.check.blockers,
        [EnablementBlocker::NoWalletAdapter, EnablementBlocker::NoCurrentTerms]
    );
}

#[tokio::test]
async fn an_unknown_operator_or_a_nameless_change_is_refused() {
    let store = MemoryFlightStore::default();
    let game = game(&READY, &store);
    let unknown = opinion_core::OperatorId::from_u128(999);
    assert!(matches!(
        game.enable(unknown, "Ops Staff").await,
        Err(AppError::NotFound("operator"))
    ));
    assert!(matches!(
        game.disable(OPERATOR, "   ").await,
        Err(AppError::Invalid { field: "by", .. })
    ));
    assert!(store.memory().enablements.is_empty());
}
