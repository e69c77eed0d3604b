//! The settlement store's wallet worker and review reads against a real database:
//! concurrent claimers of due operations get disjoint sets and skip what another
//! transaction holds, stale `sent` operations are found, and manual review is read
//! across operators or scoped to one.

use std::collections::BTreeSet;

use diesel::sql_query;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use opinion_app::model::{WalletAdapterConfig, WalletOperationRecord, WalletOperationStep};
use opinion_app::opinion::settlement::ports::SettlementStore;
use opinion_app::opinion::trading::ports::{OperationUpdate, RedemptionUpdate, TradeStore, TradingChange};
use opinion_app::wallet::ports::WalletAdapterStore;
use opinion_core::WalletOperationId;
use opinion_market::RedemptionStatus;
use opinion_store_pg::{DataKey, PgStore};
use opinion_testkit::TestDatabase;
use opinion_wallet::{AdapterBaseUrl, AdapterSecrets, AdapterTimeout, OperationState};
use opinion_webhook::SigningSecret;
use time::Duration;

use crate::fixtures::*;
use crate::opinion::settlement::fixtures::*;

/// Resolves the market with players 1..=`n` each owed something; returns the operation ids.
async fn given_due_redemptions(n: u16) -> (TestDatabase, PgStore, BTreeSet<WalletOperationId>) {
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
        store
            .operators_with_wallet_work(at(111), Duration::ZERO)
            .await
            .expect("read"),
        [operator]
    );
}

#[tokio::test]
async fn operations_in_flight_are_no_work_until_their_answer_is_overdue() {
    let (_db, store, _) = given_due_redemptions(2).await;
    let operator = operator_id(1);
    let grace = Duration::seconds(60);
    let work = async |now| store.operators_with_wallet_work(now, grace).await.expect("read");
    assert_eq!(work(at(99)).await, [], "not due yet");
    assert_eq!(work(at(110)).await, [operator], "due redemptions are work");
    store.claim_due_operations(operator, at(110), 10).await.expect("claim");
    assert_eq!(
        work(at(170)).await,
        [],
        "sent at 110, in flight until the grace is over"
    );
    assert_eq!(
        work(at(171)).await,
        [operator],
        "without an adapter, no timeout to wait"
    );
    let adapter = WalletAdapterConfig {
        operator_id: operator,
        base_url: AdapterBaseUrl::parse("https://wallet.example.com/opinion", true).expect("url"),
        timeout: AdapterTimeout::from_millis(5_000).expect("timeout"),
        secrets: AdapterSecrets::restore(SigningSecret::from_random_bytes(&[7; 32]).expect("secret"), None),
        created_at: at(0),
        updated_at: at(0),
        revision: 1,
    };
    let keyed = store
        .clone()
        .with_data_key(DataKey::derive(&[1; 32]).expect("data key"));
    assert!(keyed.save_wallet_adapter(&adapter, None).await.expect("adapter"));
    assert_eq!(work(at(175)).await, [], "the wallet's 5 s timeout is waited too");
    assert_eq!(work(at(176)).await, [operator]);
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
