//! `wallet_operations` holds Opinion's and the flight product's operations: each names
//! exactly its product's subject (a market, or a flight and a ticket), flight money is
//! IDR, and Opinion's reads and sweeps never touch a flight operation.

use std::collections::BTreeMap;

use opinion_app::model::{Launch, User, WalletOperationRecord};
use opinion_app::opinion::reads::ports::{OperatorReadStore, WalletOperationFilter};
use opinion_app::opinion::settlement::ports::SettlementStore;
use opinion_app::opinion::trading::ports::{NewOperation, TradeStore, TradingChange};
use opinion_app::players::ports::PlayerStore;
use opinion_app::ports::StoreError;
use opinion_core::{FlightId, LaunchId, MarketId, PageRequest, TicketId, TradeId, UserId, WalletOperationId};
use opinion_wallet::{Currency, IdempotencyKey, OperationState, ReasonKey, RequestFingerprint, WalletFlow};

use crate::fixtures::*;

const USER: UserId = UserId::from_u128(60);
const MARKET: MarketId = MarketId::from_u128(50);
const FLIGHT: FlightId = FlightId::from_u128(70);

async fn given_player(store: &opinion_store_pg::PgStore, operator: u128) {
    given_operator(store, operator).await;
    let user = User {
        id: USER,
        operator_id: operator_id(operator),
        external_user_id: "player-1".into(),
        display_name: None,
        language: None,
        created_at: T0,
        last_launched_at: T0,
    };
    let launch = Launch {
        id: LaunchId::from_u128(operator),
        operator_id: operator_id(operator),
        user_id: USER,
        return_url: None,
        locale: None,
        metadata: None,
        product: opinion_wallet::Product::Opinion,
        created_at: T0,
        expires_at: at(300),
    };
    store.record_launch(&user, &launch).await.expect("launch");
}

/// Operation `n` of `flow`, `sent` at `T0`, with its product's subject.
fn operation(operator: u128, n: u128, flow: WalletFlow) -> WalletOperationRecord {
    let flight = WalletFlow::FLIGHT.contains(&flow);
    let ticket = TicketId::from_u128(n);
    let trade = TradeId::from_u128(n);
    let subject = if flight { ticket.to_string() } else { trade.to_string() };
    let mut metadata = BTreeMap::new();
    if flight {
        metadata.insert("flightId".to_owned(), FLIGHT.to_string());
        metadata.insert("ticketId".to_owned(), ticket.to_string());
    } else {
        metadata.insert("marketId".to_owned(), MARKET.to_string());
    }
    WalletOperationRecord {
        id: WalletOperationId::from_u128(n),
        operator_id: operator_id(operator),
        user_id: USER,
        external_user_id: "player-1".into(),
        flow,
        reason: ReasonKey::for_flow(flow),
        idempotency_key: IdempotencyKey::parse(&format!("{flow}:{subject}")).expect("key"),
        amount: 25_000,
        currency: if flight {
            Currency::IDR
        } else {
            "USD".parse().expect("currency")
        },
        metadata,
        market_id: (!flight).then_some(MARKET),
        flight_id: flight.then_some(FLIGHT),
        ticket_id: flight.then_some(ticket),
        trade_id: (!flight).then_some(trade),
        redemption_id: None,
        state: OperationState::Sent,
        attempts: 1,
        http_status: None,
        detail: None,
        remote_reference: None,
        balance_after: None,
        created_at: T0,
        sent_at: Some(T0),
        answered_at: None,
        resolved_at: None,
        review_reason: None,
    }
}

async fn insert(store: &opinion_store_pg::PgStore, record: WalletOperationRecord) -> Result<(), StoreError> {
    let change = TradingChange {
        new_operations: vec![NewOperation {
            record: record.clone(),
            fingerprint: RequestFingerprint::parse(&"b".repeat(64)).expect("fingerprint"),
            next_attempt_at: None,
        }],
        ..TradingChange::default()
    };
    store.apply(record.operator_id, &change).await
}

#[tokio::test]
async fn a_flight_operation_is_stored_with_its_flight_and_ticket() {
    let (_db, store) = store().await;
    given_player(&store, 1).await;
    let mut purchase = operation(1, 1, WalletFlow::FlightTicketPurchase);
    purchase.state = OperationState::ManualReview;
    insert(&store, purchase.clone()).await.expect("stored");

    let found = store
        .find_operation_by_id(purchase.id)
        .await
        .expect("find")
        .expect("operation");
    assert_eq!(found, purchase);
    assert_eq!(found.market_id, None);
    let in_review = store
        .operations_in_review(Some(operator_id(1)), 10)
        .await
        .expect("list");
    assert_eq!(in_review, [purchase], "staff's review list shows flight operations too");
}

#[tokio::test]
async fn an_operation_names_exactly_its_products_subject() {
    let (_db, store) = store().await;
    given_player(&store, 1).await;
    let without_ticket = WalletOperationRecord {
        ticket_id: None,
        ..operation(1, 1, WalletFlow::FlightTicketPurchase)
    };
    let without_flight = WalletOperationRecord {
        flight_id: None,
        ..operation(1, 2, WalletFlow::FlightTicketPayout)
    };
    let flight_with_market = WalletOperationRecord {
        market_id: Some(MARKET),
        ..operation(1, 3, WalletFlow::FlightTicketRefund)
    };
    let flight_with_trade = WalletOperationRecord {
        trade_id: Some(TradeId::from_u128(4)),
        ..operation(1, 4, WalletFlow::FlightTicketRefund)
    };
    let flight_in_usd = WalletOperationRecord {
        currency: "USD".parse().expect("currency"),
        ..operation(1, 5, WalletFlow::FlightTicketPayout)
    };
    let opinion_without_market = WalletOperationRecord {
        market_id: None,
        ..operation(1, 6, WalletFlow::Buy)
    };
    let opinion_with_ticket = WalletOperationRecord {
        ticket_id: Some(TicketId::from_u128(7)),
        ..operation(1, 7, WalletFlow::Sell)
    };
    for refused in [
        without_ticket,
        without_flight,
        flight_with_market,
        flight_with_trade,
        flight_in_usd,
        opinion_without_market,
        opinion_with_ticket,
    ] {
        let id = refused.id;
        let result = insert(&store, refused).await;
        assert!(matches!(result, Err(StoreError::Unavailable(_))), "{id}: {result:?}");
        assert_eq!(store.find_operation_by_id(id).await.expect("find"), None, "{id}");
    }
    insert(&store, operation(1, 8, WalletFlow::Redemption))
        .await
        .expect("an Opinion operation");
    insert(&store, operation(1, 9, WalletFlow::FlightTicketRefund))
        .await
        .expect("a flight operation");
}

#[tokio::test]
async fn a_ticket_has_one_operation_per_flow() {
    let (_db, store) = store().await;
    given_player(&store, 1).await;
    insert(&store, operation(1, 1, WalletFlow::FlightTicketPurchase))
        .await
        .expect("purchase");
    let again = WalletOperationRecord {
        id: WalletOperationId::from_u128(2),
        ..operation(1, 1, WalletFlow::FlightTicketPurchase)
    };
    let result = insert(&store, again).await;
    assert!(matches!(result, Err(StoreError::Duplicate(_))), "{result:?}");
}

#[tokio::test]
async fn opinions_reads_and_sweeps_leave_flight_operations_alone() {
    let (_db, store) = store().await;
    given_player(&store, 1).await;
    given_player(&store, 2).await;
    let opinion = operation(1, 1, WalletFlow::Buy);
    insert(&store, opinion.clone()).await.expect("opinion");
    insert(&store, operation(1, 2, WalletFlow::FlightTicketPurchase))
        .await
        .expect("flight");
    insert(&store, operation(2, 3, WalletFlow::FlightTicketPayout))
        .await
        .expect("flight only");

    let listed = store
        .list_wallet_operations(
            operator_id(1),
            &WalletOperationFilter::default(),
            PageRequest::default(),
        )
        .await
        .expect("list");
    assert_eq!(
        listed.items,
        std::slice::from_ref(&opinion),
        "balance operations are Opinion's"
    );
    let stale = store
        .stale_sent_operations(operator_id(1), at(3_600), 10)
        .await
        .expect("stale");
    assert_eq!(stale, [opinion], "Opinion's sweeper recovers Opinion's operations only");
    let with_work = store
        .operators_with_wallet_work(at(3_600), time::Duration::ZERO)
        .await
        .expect("operators");
    assert_eq!(
        with_work,
        [operator_id(1)],
        "a flight operation is no work of Opinion's worker"
    );
}
