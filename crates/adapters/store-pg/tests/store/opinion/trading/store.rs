//! The trading store against a real database: a step commits whole or not at all, every
//! compare-and-set refuses a stale read, a client order id and a player's open trade on a
//! market are unique, and a launch opens one session once, with its login event.

use std::collections::BTreeMap;

use opinion_app::access::ports::OperatorStore;
use opinion_app::model::{Launch, Market, NewEvent, Trade, User, WalletOperationRecord};
use opinion_app::opinion::ports::{MarketStore, VisibilitySettings, VisibilityWrite};
use opinion_app::opinion::settlement::ports::SettlementStore;
use opinion_app::opinion::trading::ports::{
    NewOperation, NewTrade, OperationUpdate, PoolChange, PositionChange, TradeStore, TradeUpdate, TradingChange,
};
use opinion_app::players::ports::PlayerStore;
use opinion_app::ports::{ChangedRecord, StoreError, Transactions, UniqueKey};
use opinion_app::webhooks::store::WebhookStore;
use opinion_core::{EventId, LaunchId, MarketId, PlayerSessionId, TradeId, UserId, WalletOperationId};
use opinion_market::{
    FeeRate, Liquidity, MarketChoice, MarketStatus, OrderKind, Outcome, Pool, Position, PricePpm, Side, TradeStatus,
};
use opinion_wallet::{IdempotencyKey, OperationState, ReasonKey, RequestFingerprint, WalletFlow};
use opinion_webhook::EventType;
use time::Duration;

use crate::fixtures::*;

const MARKET: MarketId = MarketId::from_u128(50);
const USER: UserId = UserId::from_u128(60);

fn market() -> Market {
    Market {
        id: MARKET,
        question: "Will it rain?".into(),
        rules: "YES if it rains.".into(),
        close_at: at(86_400),
        liquidity: Liquidity::new(1_000).expect("liquidity"),
        fee: FeeRate::ZERO,
        status: MarketStatus::Open,
        created_at: T0,
        closed_at: None,
        resolved_at: None,
    }
}

fn user() -> User {
    User {
        id: USER,
        operator_id: operator_id(1),
        external_user_id: "player-1".into(),
        display_name: Some("Ana".into()),
        language: None,
        created_at: T0,
        last_launched_at: T0,
    }
}

fn launch(n: u128) -> Launch {
    Launch {
        id: LaunchId::from_u128(n),
        operator_id: operator_id(1),
        user_id: USER,
        return_url: None,
        locale: None,
        metadata: None,
        product: opinion_wallet::Product::Opinion,
        created_at: T0,
        expires_at: at(300),
    }
}

fn event(n: u128, event_type: EventType) -> NewEvent {
    NewEvent {
        id: EventId::from_u128(n),
        operator_id: operator_id(1),
        event_type,
        data: serde_json::Map::new(),
        created_at: T0,
    }
}

/// Login events in the outbox.
async fn logins(url: &str) -> i64 {
    use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
    #[derive(diesel::QueryableByName)]
    struct Count {
        #[diesel(sql_type = diesel::sql_types::BigInt)]
        count: i64,
    }
    let mut conn = AsyncPgConnection::establish(url).await.expect("connect");
    let rows: Vec<Count> =
        diesel::sql_query("SELECT count(*) AS count FROM webhook_events WHERE event_type = 'mini_app.login.succeeded'")
            .load(&mut conn)
            .await
            .expect("count");
    rows[0].count
}

fn trade(n: u128, client_order_id: &str) -> Trade {
    Trade {
        id: TradeId::from_u128(n),
        operator_id: operator_id(1),
        user_id: USER,
        external_user_id: "player-1".into(),
        market_id: MARKET,
        client_order_id: client_order_id.into(),
        side: Side::Buy,
        outcome: Outcome::Yes,
        order_kind: OrderKind::Shares,
        order_value: 100,
        order_limit: None,
        shares: 100,
        amount: 52,
        fee: 0,
        currency: "USD".parse().expect("currency"),
        price_before: PricePpm::from_ppm(500_000).expect("price"),
        price_after: PricePpm::from_ppm(525_000).expect("price"),
        status: TradeStatus::Pending,
        failure_reason: None,
        created_at: T0,
        settled_at: None,
    }
}

fn operation(n: u128, trade: &Trade) -> NewOperation {
    let mut metadata = BTreeMap::new();
    metadata.insert("marketId".to_owned(), MARKET.to_string());
    NewOperation {
        record: WalletOperationRecord {
            id: WalletOperationId::from_u128(n),
            operator_id: operator_id(1),
            user_id: USER,
            external_user_id: "player-1".into(),
            flow: WalletFlow::Buy,
            reason: ReasonKey::for_flow(WalletFlow::Buy),
            idempotency_key: IdempotencyKey::parse(&format!("buy:{}", trade.id)).expect("key"),
            amount: trade.amount,
            currency: trade.currency,
            metadata,
            market_id: Some(MARKET),
            trade_id: Some(trade.id),
            redemption_id: None,
            flight_id: None,
            ticket_id: None,
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
        },
        fingerprint: RequestFingerprint::parse(&"a".repeat(64)).expect("fingerprint"),
        next_attempt_at: None,
    }
}

fn opened(n: u128, client_order_id: &str) -> TradingChange {
    let trade = trade(n, client_order_id);
    TradingChange {
        new_operations: vec![operation(n, &trade)],
        new_trade: Some(NewTrade {
            trade,
            position_before: None,
        }),
        ..TradingChange::default()
    }
}

async fn given_player(store: &opinion_store_pg::PgStore) {
    given_operator(store, 1).await;
    store.insert_market(&market()).await.expect("market");
    store.record_launch(&user(), &launch(1)).await.expect("launch");
}

fn executed(n: u128) -> TradingChange {
    let pending = operation(n, &trade(n, "x")).record;
    let pool = Pool::new(Liquidity::new(1_000).expect("liquidity"));
    let bought = opinion_market::quote_buy_shares(&pool, Outcome::Yes, 100, FeeRate::ZERO).expect("quote");
    TradingChange {
        trade: Some(TradeUpdate {
            id: TradeId::from_u128(n),
            expected: TradeStatus::Pending,
            status: TradeStatus::Executed,
            shares: 100,
            amount: bought.amount,
            fee: 0,
            price_after_ppm: bought.price_after.ppm(),
            failure_reason: None,
            settled_at: Some(at(1)),
        }),
        operation: Some(OperationUpdate {
            id: pending.id,
            expected: OperationState::Sent,
            record: WalletOperationRecord {
                state: OperationState::Applied,
                remote_reference: Some("w-1".into()),
                http_status: Some(200),
                answered_at: Some(at(1)),
                ..pending
            },
            next_attempt_at: None,
            resolution: None,
            step: opinion_app::model::WalletOperationStep {
                state: OperationState::Applied,
                http_status: Some(200),
                detail: None,
                at: at(1),
            },
        }),
        pool: Some(PoolChange {
            market_id: MARKET,
            before: pool,
            after: bought.pool_after,
        }),
        position: Some(PositionChange {
            user_id: USER,
            market_id: MARKET,
            before: None,
            after: Position::default().apply(&bought).expect("position"),
        }),
        events: vec![event(n + 100, EventType::TradeProcessed)],
        ..TradingChange::default()
    }
}

#[tokio::test]
async fn a_step_commits_trade_operation_pool_position_and_events_together() {
    let (_db, store) = store().await;
    given_player(&store).await;
    let operator = operator_id(1);
    store.apply(operator, &opened(1, "a")).await.expect("opened");
    store.apply(operator, &executed(1)).await.expect("executed");
    let found = store
        .find_trade(operator, TradeId::from_u128(1))
        .await
        .expect("find")
        .expect("trade");
    assert_eq!(found.trade.status, TradeStatus::Executed);
    assert_eq!(yes_outstanding(&store, operator).await, 100);
    let position = store
        .find_position(operator, USER, MARKET)
        .await
        .expect("find")
        .expect("position");
    assert_eq!(position.position.holding(Outcome::Yes).shares, 100);
    let operation = store
        .find_operation_by_id(WalletOperationId::from_u128(1))
        .await
        .expect("find")
        .expect("operation");
    assert_eq!(
        (operation.state, operation.remote_reference.as_deref()),
        (OperationState::Applied, Some("w-1"))
    );
}

/// The operator's outstanding YES shares on the market, as the store reads its pool.
async fn yes_outstanding(store: &opinion_store_pg::PgStore, operator: opinion_core::OperatorId) -> i64 {
    store
        .find_operator_market(operator, MARKET)
        .await
        .expect("find")
        .expect("market")
        .pool
        .outstanding(Outcome::Yes)
}

#[tokio::test]
async fn a_pool_row_made_before_any_trade_is_moved_by_the_first_placement() {
    let (_db, store) = store().await;
    given_player(&store).await;
    let operator = operator_id(1);
    // A visibility choice made before any trade leaves an empty pool row.
    let shown = VisibilityWrite {
        expected_revision: 0,
        mode: VisibilitySettings::default().mode,
        at: at(0),
        events: Vec::new(),
    };
    store
        .set_market_choice(operator, MARKET, MarketChoice::Shown, &shown)
        .await
        .expect("choice")
        .expect("market exists");
    assert_eq!(yes_outstanding(&store, operator).await, 0);
    store.apply(operator, &opened(1, "a")).await.expect("opened");
    store.apply(operator, &executed(1)).await.expect("executed");
    assert_eq!(yes_outstanding(&store, operator).await, 100);
    // The same move again starts from empty, finds the row moved and is refused.
    store.apply(operator, &opened(2, "b")).await.expect("opened");
    assert!(matches!(
        store.apply(operator, &executed(2)).await,
        Err(StoreError::Conflict(ChangedRecord::Pool))
    ));
}

/// The player's first buy opened and placed, then a second opened whose settlement
/// (`executed(2)`) read the pool as it was before the first: a stale step to refuse.
/// Returns the operator.
async fn given_buy_1_placed_and_buy_2_opened(store: &opinion_store_pg::PgStore) -> opinion_core::OperatorId {
    given_player(store).await;
    let operator = operator_id(1);
    store.apply(operator, &opened(1, "a")).await.expect("opened");
    store.apply(operator, &executed(1)).await.expect("executed");
    store.apply(operator, &opened(2, "b")).await.expect("opened");
    operator
}

/// Trade 2's settlement (`executed(2)`) was refused: the trade is still pending, its
/// operation still sent, and its event, sent after the refused pool move in the same
/// pipeline, gone with it.
async fn the_stale_settlement_of_trade_2_left_nothing(
    store: &opinion_store_pg::PgStore,
    operator: opinion_core::OperatorId,
) {
    let found = store
        .find_trade(operator, TradeId::from_u128(2))
        .await
        .expect("find")
        .expect("trade");
    assert_eq!(found.trade.status, TradeStatus::Pending);
    let operation = store
        .find_operation_by_id(WalletOperationId::from_u128(2))
        .await
        .expect("find")
        .expect("operation");
    assert_eq!(operation.state, OperationState::Sent);
    assert!(
        store
            .find_event(operator, EventId::from_u128(102))
            .await
            .expect("find")
            .is_none()
    );
}

#[tokio::test]
async fn a_stale_read_rolls_the_whole_step_back() {
    let (_db, store) = store().await;
    let operator = given_buy_1_placed_and_buy_2_opened(&store).await;
    // The second buy read the pool before the first was placed: refused, nothing written.
    let stale = executed(2);
    assert!(matches!(
        store.apply(operator, &stale).await,
        Err(StoreError::Conflict(_))
    ));
    the_stale_settlement_of_trade_2_left_nothing(&store, operator).await;
    assert!(
        store
            .find_event(operator, EventId::from_u128(101))
            .await
            .expect("find")
            .is_some()
    );
    // A trade can be moved once: a second settlement finds it no longer pending.
    assert!(matches!(
        store.apply(operator, &executed(1)).await,
        Err(StoreError::Conflict(ChangedRecord::Trade))
    ));
}

#[tokio::test]
async fn client_order_ids_and_open_trades_are_unique_per_player() {
    let (_db, store) = store().await;
    given_player(&store).await;
    let operator = operator_id(1);
    store.apply(operator, &opened(1, "a")).await.expect("opened");
    assert!(matches!(
        store.apply(operator, &opened(2, "b")).await,
        Err(StoreError::Duplicate(UniqueKey::OpenTrade))
    ));
    store.apply(operator, &executed(1)).await.expect("executed");
    assert!(matches!(
        store.apply(operator, &opened(3, "a")).await,
        Err(StoreError::Duplicate(UniqueKey::ClientOrder))
    ));
    store
        .apply(operator, &opened(4, "b"))
        .await
        .expect("a new order once the first ended");
    let by_id = store
        .find_trade_by_client_order(operator, USER, "b")
        .await
        .expect("find")
        .expect("trade");
    assert_eq!(by_id.trade.id, TradeId::from_u128(4));
}

#[tokio::test]
async fn a_launch_opens_one_session_once_and_never_after_expiry() {
    let (db, store) = store().await;
    given_player(&store).await;
    let operator = operator_id(1);
    let session = PlayerSessionId::from_u128(9);
    let login = event(20, EventType::LoginSucceeded);
    let (found_launch, found_player) = store
        .find_launch(operator, LaunchId::from_u128(1))
        .await
        .expect("find")
        .expect("the launch");
    assert_eq!((found_launch.user_id, found_player.id), (USER, USER));
    assert!(
        store
            .find_launch(operator_id(2), LaunchId::from_u128(1))
            .await
            .expect("find")
            .is_none()
    );
    let opened = store
        .open_player_session(operator, LaunchId::from_u128(1), session, at(10), at(3_600), &login)
        .await
        .expect("open");
    let (stored, player) = opened.expect("a session");
    assert_eq!((stored.user_id, player.external_user_id.as_str()), (USER, "player-1"));
    assert_eq!(stored.ended_at, None);
    assert_eq!(logins(db.url()).await, 1, "the login event is written with the session");
    let again = store
        .open_player_session(
            operator,
            LaunchId::from_u128(1),
            PlayerSessionId::from_u128(10),
            at(11),
            at(3_600),
            &event(21, EventType::LoginSucceeded),
        )
        .await
        .expect("open");
    assert!(again.is_none(), "a launch token works once");
    store.record_launch(&user(), &launch(2)).await.expect("launch");
    let late = store
        .open_player_session(
            operator,
            LaunchId::from_u128(2),
            PlayerSessionId::from_u128(11),
            at(301),
            at(3_600),
            &event(22, EventType::LoginSucceeded),
        )
        .await
        .expect("open");
    assert!(late.is_none(), "an expired launch opens nothing");
    assert_eq!(logins(db.url()).await, 1, "a refused login writes no event");
    let found = store.find_player_session(operator, session).await.expect("find");
    assert_eq!(found.map(|(s, _)| s.expires_at), Some(at(3_600)));
    assert!(
        store
            .find_player_session(operator_id(2), session)
            .await
            .expect("find")
            .is_none()
    );
}

#[tokio::test]
async fn launching_again_keeps_the_player_and_updates_what_was_given() {
    let (_db, store) = store().await;
    given_player(&store).await;
    let renamed = User {
        id: UserId::from_u128(61),
        display_name: None,
        language: Some("pt-BR".into()),
        last_launched_at: at(60) + Duration::seconds(1),
        ..user()
    };
    let stored = store
        .record_launch(
            &renamed,
            &Launch {
                id: LaunchId::from_u128(3),
                ..launch(3)
            },
        )
        .await
        .expect("launch");
    assert_eq!(stored.id, USER, "the same external id is the same player");
    assert_eq!(stored.display_name.as_deref(), Some("Ana"), "an omitted name is kept");
    assert_eq!(stored.language.as_deref(), Some("pt-BR"));
}

#[tokio::test]
async fn inside_a_step_a_refused_change_leaves_nothing_and_the_step_goes_on() {
    let (_db, store) = store().await;
    let operator = given_buy_1_placed_and_buy_2_opened(&store).await;
    let mut answers = Vec::new();
    store
        .run(Box::pin(async {
            // Stale: refused by the pool's compare-and-set, after the trade, operation
            // and step writes before it in the pipeline had run.
            answers.push(store.apply(operator, &executed(2)).await);
            // A client order id already used: refused by the database itself.
            answers.push(store.apply(operator, &opened(3, "a")).await);
            given_operator(&store, 3).await;
            true
        }))
        .await
        .expect("committed");
    assert!(
        matches!(
            answers.as_slice(),
            [
                Err(StoreError::Conflict(ChangedRecord::Pool)),
                Err(StoreError::Duplicate(_))
            ]
        ),
        "{answers:?}"
    );
    the_stale_settlement_of_trade_2_left_nothing(&store, operator).await;
    assert!(
        store
            .find_trade(operator, TradeId::from_u128(3))
            .await
            .expect("find")
            .is_none()
    );
    assert!(
        store.find_operator(operator_id(3)).await.expect("find").is_some(),
        "the step went on and committed"
    );
}
