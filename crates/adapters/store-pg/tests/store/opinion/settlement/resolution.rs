//! The settlement store's resolution against a real database: a resolution writes its
//! market, rows, payouts, operations and events in one transaction or nothing (refused
//! with an open trade, or when a position changed under it), and a paid-out position is
//! never changed by a trading step afterwards.

use opinion_app::opinion::ports::MarketStore;
use opinion_app::opinion::settlement::ports::SettlementStore;
use opinion_app::opinion::trading::ports::{PositionChange, TradeStore, TradingChange};
use opinion_app::ports::{ChangedRecord, StoreError};
use opinion_core::{RedemptionId, UserId, WalletOperationId};
use opinion_market::{Holding, MarketStatus, Outcome, Position, RedemptionStatus, Resolution};
use opinion_store_pg::PgStore;
use opinion_testkit::{TestDatabase, TradeSeed};
use opinion_wallet::{OperationState, WalletFlow};

use crate::fixtures::*;
use crate::opinion::settlement::fixtures::*;
use crate::opinion::trading::fixtures::*;

#[tokio::test]
async fn a_resolution_writes_market_rows_payouts_operations_and_events_together() {
    let (db, store) = store().await;
    given_positions(&db, &store, &[(1, 40), (2, 25)]).await;
    let plan = yes_plan(&store, at(100)).await;
    assert_eq!(plan.positions.len(), 2);
    assert_eq!(plan.positions[0].external_user_id, "p-1");
    store.resolve_market(&plan).await.expect("resolved");

    let market = MarketStore::find_market(&store, the_market())
        .await
        .expect("find")
        .expect("market");
    assert_eq!(market.status, MarketStatus::Resolved(Resolution::Yes));
    assert_eq!(market.resolved_at, Some(at(100)));
    let paid = store
        .find_redemption(operator_id(1), RedemptionId::from_u128(100))
        .await
        .expect("find")
        .expect("redemption");
    assert_eq!(
        (paid.amount, paid.status, paid.external_user_id.as_str()),
        (40, RedemptionStatus::Pending, "p-1")
    );
    let operation = store
        .find_operation_by_id(WalletOperationId::from_u128(201))
        .await
        .expect("find")
        .expect("operation");
    assert_eq!(
        (operation.flow, operation.state, operation.amount),
        (WalletFlow::Redemption, OperationState::Prepared, 25)
    );
    let steps = store
        .operation_steps(operator_id(1), operation.id)
        .await
        .expect("steps");
    assert_eq!(
        steps.iter().map(|s| s.state).collect::<Vec<_>>(),
        [OperationState::Prepared]
    );
    assert_eq!(
        rows(
            &db,
            "market_resolutions WHERE redemption_count = 2 AND payout_total = 65"
        )
        .await,
        1
    );
    assert_eq!(
        rows(&db, "webhook_events WHERE event_type = 'mini_app.market.resolved'").await,
        1
    );
    assert!(store.unredeemed_positions(the_market()).await.expect("read").is_empty());
    let held = store
        .find_position(operator_id(1), UserId::from_u128(user_id(1, 1)), the_market())
        .await
        .expect("find")
        .expect("position");
    assert_eq!(held.redeemed_at, Some(at(100)));

    assert!(matches!(
        store.resolve_market(&plan).await,
        Err(StoreError::Conflict(ChangedRecord::Market))
    ));
}

/// Nothing of a refused resolution is written.
async fn assert_nothing_written(db: &TestDatabase, store: &PgStore) {
    let market = MarketStore::find_market(store, the_market())
        .await
        .expect("find")
        .expect("market");
    assert_eq!(market.status, MarketStatus::Closed);
    for table in [
        "market_resolutions",
        "redemptions",
        "wallet_operations",
        "webhook_events WHERE event_type = 'mini_app.market.resolved'",
        "positions WHERE redeemed_at IS NOT NULL",
    ] {
        assert_eq!(rows(db, table).await, 0, "{table}");
    }
}

#[tokio::test]
async fn a_resolution_is_refused_while_a_trade_on_the_market_is_open() {
    let (db, store) = store().await;
    given_positions(&db, &store, &[(1, 40)]).await;
    let plan = yes_plan(&store, at(100)).await;
    let pending = TradeSeed {
        status: "pending",
        ..trade(1, 7, 1, 1, at(50))
    };
    seeder(&db).await.trade(&pending).await;
    assert_eq!(store.count_open_trades(the_market()).await.expect("count"), 1);
    assert!(matches!(
        store.resolve_market(&plan).await,
        Err(StoreError::Conflict(ChangedRecord::OpenTrade))
    ));
    assert_nothing_written(&db, &store).await;
}

#[tokio::test]
async fn a_position_changed_or_added_under_the_resolution_is_a_conflict() {
    let (db, store) = store().await;
    given_positions(&db, &store, &[(1, 40), (2, 25)]).await;
    let mut changed = yes_plan(&store, at(100)).await;
    changed.positions[1].record.position = Position::default();
    assert!(matches!(
        store.resolve_market(&changed).await,
        Err(StoreError::Conflict(ChangedRecord::Position))
    ));
    assert_nothing_written(&db, &store).await;

    let mut unknown = yes_plan(&store, at(100)).await;
    unknown.positions.pop();
    assert!(matches!(
        store.resolve_market(&unknown).await,
        Err(StoreError::Conflict(ChangedRecord::Position))
    ));
    assert_nothing_written(&db, &store).await;
}

#[tokio::test]
async fn a_trading_step_never_changes_a_paid_out_position() {
    let (db, store) = store().await;
    given_positions(&db, &store, &[(1, 40)]).await;
    let user = UserId::from_u128(user_id(1, 1));
    let before = store
        .find_position(operator_id(1), user, the_market())
        .await
        .expect("find")
        .expect("position");
    store
        .resolve_market(&yes_plan(&store, at(100)).await)
        .await
        .expect("resolved");
    let sold = Position::from_parts(
        Holding {
            shares: 0,
            cost_basis: 0,
        },
        before.position.holding(Outcome::No),
        5,
    )
    .expect("position");
    let change = TradingChange {
        position: Some(PositionChange {
            user_id: user,
            market_id: the_market(),
            before: Some(before.position),
            after: sold,
        }),
        ..TradingChange::default()
    };
    assert!(matches!(
        store.apply(operator_id(1), &change).await,
        Err(StoreError::Conflict(ChangedRecord::Position))
    ));
    let after = store
        .find_position(operator_id(1), user, the_market())
        .await
        .expect("find")
        .expect("position");
    assert_eq!((after.position, after.redeemed_at), (before.position, Some(at(100))));
}
