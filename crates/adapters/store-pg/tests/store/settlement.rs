//! The settlement store against a real database: a resolution writes its market, rows,
//! payouts, operations and events in one transaction or nothing (refused with an open
//! trade, or when a position changed under it); concurrent claimers of due operations get
//! disjoint sets and skip what another holds; stale `sent` operations are found; the
//! reads of manual review; and a paid-out position is never changed by a trading step.

use std::collections::BTreeSet;

use diesel::sql_query;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use opinion_app::model::{WalletOperationRecord, WalletOperationStep};
use opinion_app::ports::{
    OperationUpdate, PositionChange, RedemptionUpdate, SettlementStore, StoreError, TradingChange, TradingStore,
};
use opinion_core::{RedemptionId, UserId, WalletOperationId};
use opinion_market::{MarketStatus, Outcome, Position, RedemptionStatus, Resolution};
use opinion_testkit::TradeSeed;
use opinion_wallet::{OperationState, WalletFlow};

use crate::fixtures::*;
use crate::settlement_fixtures::*;
use crate::trading_fixtures::*;

#[tokio::test]
async fn a_resolution_writes_market_rows_payouts_operations_and_events_together() {
    let (db, store) = store().await;
    given_positions(&db, &store, &[(1, 40), (2, 25)]).await;
    let plan = yes_plan(&store, at(100)).await;
    assert_eq!(plan.positions.len(), 2);
    assert_eq!(plan.positions[0].external_user_id, "p-1");
    store.resolve_market(&plan).await.expect("resolved");

    let market = TradingStore::find_market(&store, the_market())
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
        rows(&db, "webhook_events WHERE event_type = 'market.resolved'").await,
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
        Err(StoreError::Conflict("market"))
    ));
}

/// Nothing of a refused resolution is written.
async fn assert_nothing_written(db: &opinion_testkit::TestDatabase, store: &opinion_store_pg::PgStore) {
    let market = TradingStore::find_market(store, the_market())
        .await
        .expect("find")
        .expect("market");
    assert_eq!(market.status, MarketStatus::Closed);
    for table in [
        "market_resolutions",
        "redemptions",
        "wallet_operations",
        "webhook_events WHERE event_type = 'market.resolved'",
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
        Err(StoreError::Conflict("open_trade"))
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
        Err(StoreError::Conflict("position"))
    ));
    assert_nothing_written(&db, &store).await;

    let mut unknown = yes_plan(&store, at(100)).await;
    unknown.positions.pop();
    assert!(matches!(
        store.resolve_market(&unknown).await,
        Err(StoreError::Conflict("position"))
    ));
    assert_nothing_written(&db, &store).await;
}

/// Resolves the market with players 1..=`n` each owed something; returns the operation ids.
async fn given_due_redemptions(
    n: u16,
) -> (
    opinion_testkit::TestDatabase,
    opinion_store_pg::PgStore,
    BTreeSet<WalletOperationId>,
) {
    let (db, store) = store().await;
    let holdings: Vec<(u16, i64)> = (1..=n).map(|p| (p, 10 * i64::from(p))).collect();
    given_positions(&db, &store, &holdings).await;
    let plan = yes_plan(&store, at(100)).await;
    store.resolve_market(&plan).await.expect("resolved");
    let ids = plan.operations.iter().map(|operation| operation.record.id).collect();
    (db, store, ids)
}

fn ids(claimed: &[WalletOperationRecord]) -> BTreeSet<WalletOperationId> {
    claimed.iter().map(|record| record.id).collect()
}

#[tokio::test]
async fn concurrent_claimers_get_disjoint_operations_marked_sent() {
    let (_db, store, all) = given_due_redemptions(6).await;
    let operator = operator_id(1);
    assert!(
        store
            .claim_due_operations(operator, at(99), 10)
            .await
            .expect("claim")
            .is_empty(),
        "not due yet"
    );
    let (first, second) = tokio::join!(
        store.claim_due_operations(operator, at(110), 4),
        store.claim_due_operations(operator, at(110), 4),
    );
    let (first, second) = (first.expect("claim"), second.expect("claim"));
    assert!(ids(&first).is_disjoint(&ids(&second)), "{first:?} / {second:?}");
    assert_eq!(first.len() + second.len(), 6);
    assert_eq!(ids(&first).union(&ids(&second)).copied().collect::<BTreeSet<_>>(), all);
    for record in first.iter().chain(&second) {
        assert_eq!(
            (record.state, record.attempts, record.sent_at),
            (OperationState::Sent, 1, Some(at(110)))
        );
        let steps = store.operation_steps(operator, record.id).await.expect("steps");
        assert_eq!(
            steps.iter().map(|s| (s.state, s.at)).collect::<Vec<_>>(),
            [(OperationState::Prepared, at(100)), (OperationState::Sent, at(110))]
        );
    }
    assert!(
        store
            .claim_due_operations(operator, at(120), 10)
            .await
            .expect("claim")
            .is_empty()
    );
}

#[tokio::test]
async fn a_claim_skips_operations_another_transaction_holds() {
    let (db, store, all) = given_due_redemptions(4).await;
    let held: Vec<WalletOperationId> = all.iter().copied().take(2).collect();
    let mut conn = AsyncPgConnection::establish(db.url()).await.expect("connect");
    let claimed = conn
        .transaction::<_, diesel::result::Error, _>(async |conn| {
            let list = held
                .iter()
                .map(|id| format!("'{}'", uuid::Uuid::from_u128(id.as_u128())))
                .collect::<Vec<_>>()
                .join(", ");
            sql_query(format!(
                "SELECT id FROM wallet_operations WHERE id IN ({list}) FOR UPDATE"
            ))
            .execute(conn)
            .await?;
            Ok(store.claim_due_operations(operator_id(1), at(110), 10).await)
        })
        .await
        .expect("transaction")
        .expect("claim");
    let expected: BTreeSet<WalletOperationId> = all.iter().copied().skip(2).collect();
    assert_eq!(ids(&claimed), expected);
    let rest = store
        .claim_due_operations(operator_id(1), at(111), 10)
        .await
        .expect("claim");
    assert_eq!(ids(&rest), held.into_iter().collect());
}

#[tokio::test]
async fn stale_sent_operations_are_the_operators_sent_before_the_limit() {
    let (_db, store, all) = given_due_redemptions(3).await;
    let operator = operator_id(1);
    assert!(
        store
            .stale_sent_operations(operator, at(1_000), 10)
            .await
            .expect("read")
            .is_empty(),
        "prepared is not sent"
    );
    store.claim_due_operations(operator, at(110), 10).await.expect("claim");
    assert!(
        store
            .stale_sent_operations(operator, at(110), 10)
            .await
            .expect("read")
            .is_empty(),
        "sent at the limit is not stale"
    );
    let stale = store.stale_sent_operations(operator, at(111), 10).await.expect("read");
    assert_eq!(ids(&stale), all);
    assert_eq!(
        store
            .stale_sent_operations(operator, at(111), 2)
            .await
            .expect("read")
            .len(),
        2
    );
    assert!(
        store
            .stale_sent_operations(operator_id(2), at(111), 10)
            .await
            .expect("read")
            .is_empty()
    );
    assert_eq!(
        store.operators_with_wallet_work(at(111)).await.expect("read"),
        [operator]
    );
}

/// Moves a claimed redemption's operation and redemption to manual review.
fn to_review(record: &WalletOperationRecord) -> TradingChange {
    let next = WalletOperationRecord {
        state: OperationState::ManualReview,
        detail: Some("the answer to the call was lost".into()),
        ..record.clone()
    };
    TradingChange {
        operation: Some(OperationUpdate {
            id: record.id,
            expected: OperationState::Sent,
            next_attempt_at: None,
            resolution: None,
            step: WalletOperationStep {
                state: OperationState::ManualReview,
                http_status: None,
                detail: next.detail.clone(),
                at: at(200),
            },
            record: next,
        }),
        redemption: Some(RedemptionUpdate {
            id: record.redemption_id.expect("a redemption's operation"),
            expected: RedemptionStatus::Pending,
            status: RedemptionStatus::ManualReview,
            paid_at: None,
        }),
        ..TradingChange::default()
    }
}

#[tokio::test]
async fn review_reads_list_show_and_scope_by_operator() {
    let (_db, store, _) = given_due_redemptions(2).await;
    given_operator(&store, 2).await;
    let operator = operator_id(1);
    let claimed = store.claim_due_operations(operator, at(110), 10).await.expect("claim");
    store.apply(operator, &to_review(&claimed[1])).await.expect("to review");
    store.apply(operator, &to_review(&claimed[0])).await.expect("to review");

    let all = store.operations_in_review(None, 10).await.expect("list");
    assert_eq!(
        all.iter().map(|r| r.id).collect::<Vec<_>>(),
        [claimed[0].id, claimed[1].id],
        "oldest first"
    );
    assert_eq!(store.operations_in_review(None, 1).await.expect("list").len(), 1);
    assert_eq!(
        store
            .operations_in_review(Some(operator), 10)
            .await
            .expect("list")
            .len(),
        2
    );
    assert!(
        store
            .operations_in_review(Some(operator_id(2)), 10)
            .await
            .expect("list")
            .is_empty()
    );

    let found = store
        .find_operation_by_id(claimed[0].id)
        .await
        .expect("find")
        .expect("operation");
    assert_eq!(found.state, OperationState::ManualReview);
    assert!(
        store
            .find_operation_by_id(WalletOperationId::from_u128(9))
            .await
            .expect("find")
            .is_none()
    );
    let steps = store.operation_steps(operator, found.id).await.expect("steps");
    assert_eq!(
        steps.iter().map(|s| s.state).collect::<Vec<_>>(),
        [
            OperationState::Prepared,
            OperationState::Sent,
            OperationState::ManualReview
        ]
    );
    assert!(
        store
            .operation_steps(operator_id(2), found.id)
            .await
            .expect("steps")
            .is_empty()
    );
    let redemption = found.redemption_id.expect("redemption");
    let read = store
        .find_redemption(operator, redemption)
        .await
        .expect("find")
        .expect("redemption");
    assert_eq!(read.status, RedemptionStatus::ManualReview);
    assert!(
        store
            .find_redemption(operator_id(2), redemption)
            .await
            .expect("find")
            .is_none()
    );
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
        opinion_market::Holding {
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
        Err(StoreError::Conflict("position"))
    ));
    let after = store
        .find_position(operator_id(1), user, the_market())
        .await
        .expect("find")
        .expect("position");
    assert_eq!((after.position, after.redeemed_at), (before.position, Some(at(100))));
}
