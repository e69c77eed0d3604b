//! Payouts and wallet operations against a real database: filters, steps, and nothing
//! of another operator.

use opinion_app::opinion::reads::ports::{
    OperatorReadStore, RedemptionFilter, ResolutionFilter, WalletOperationFilter,
};
use opinion_core::{PageLimit, PageRequest, TradeId, WalletOperationId};
use opinion_market::{RedemptionStatus, Resolution};
use opinion_testkit::{MarketSeed, RedemptionSeed, ResolutionSeed, StepSeed, WalletOperationSeed, ulid_at};
use opinion_wallet::{OperationState, WalletFlow};
use serde_json::json;

use crate::fixtures::*;
use crate::opinion::trading::fixtures::*;

fn page<K: opinion_core::IdKind>(limit: u32) -> PageRequest<K> {
    PageRequest {
        limit: PageLimit::new(limit).expect("limit"),
        after: None,
    }
}

#[tokio::test]
async fn payouts_and_wallet_operations_filter_and_stay_with_their_operator() {
    let (db, store) = store().await;
    given_operator(&store, 1).await;
    given_operator(&store, 2).await;
    let mut seed = seeder(&db).await;
    seed.market(&MarketSeed {
        status: "resolved",
        resolution: Some("yes"),
        ..market(1)
    })
    .await;
    seed.user(&user(1, 1)).await;
    seed.user(&user(2, 2)).await;
    for operator in [1, 2] {
        seed.resolution(&ResolutionSeed {
            operator,
            market: market_id(1),
            resolution: "yes",
            resolved_at: at(500),
            redemption_count: 1,
            payout_total: 100,
            currency: "USD",
        })
        .await;
    }
    seed.redemption(&RedemptionSeed {
        operator: 1,
        id: ulid_at(at(500), 1),
        user: user_id(1, 1),
        market: market_id(1),
        resolution: "yes",
        amount: 100,
        currency: "USD",
        status: "paid",
        created_at: at(500),
    })
    .await;
    seed.trade(&trade(1, 7, 1, 1, at(100))).await;
    let operation = WalletOperationSeed {
        operator: 1,
        id: ulid_at(at(100), 8),
        user: user_id(1, 1),
        external_user_id: "p-1".into(),
        flow: "buy",
        reason: "opinion.buy",
        idempotency_key: "buy:trd_x".into(),
        amount: 6,
        currency: "USD",
        metadata: json!({"marketId": "mkt_x", "shares": "10"}),
        market: market_id(1),
        trade: Some(ulid_at(at(100), 7)),
        state: "applied",
        http_status: Some(200),
        remote_reference: Some("w-1".into()),
        balance_after: Some(94),
        created_at: at(100),
    };
    seed.wallet_operation(&operation).await;
    for (step, state) in [(1, "prepared"), (2, "sent"), (3, "applied")] {
        seed.step(&StepSeed {
            operator: 1,
            operation: operation.id,
            step,
            state,
            http_status: (state == "applied").then_some(200),
            detail: None,
            at: at(100),
        })
        .await;
    }

    let resolutions = ResolutionFilter {
        resolution: Some(Resolution::Yes),
        ..Default::default()
    };
    let listed = store
        .list_resolutions(operator_id(1), &resolutions, page(50))
        .await
        .expect("list");
    assert_eq!(listed.items.len(), 1);
    assert_eq!(listed.items[0].operator_id, operator_id(1));
    let void = ResolutionFilter {
        resolution: Some(Resolution::Void),
        ..Default::default()
    };
    assert!(
        store
            .list_resolutions(operator_id(1), &void, page(50))
            .await
            .expect("list")
            .items
            .is_empty()
    );

    let paid = RedemptionFilter {
        status: Some(RedemptionStatus::Paid),
        external_user_id: Some("p-1".into()),
        ..Default::default()
    };
    let listed = store
        .list_redemptions(operator_id(1), &paid, page(50))
        .await
        .expect("list");
    assert_eq!(listed.items.len(), 1);
    assert!(
        store
            .list_redemptions(operator_id(2), &paid, page(50))
            .await
            .expect("list")
            .items
            .is_empty()
    );

    let buys = WalletOperationFilter {
        flow: Some(WalletFlow::Buy),
        state: Some(OperationState::Applied),
        ..Default::default()
    };
    let listed = store
        .list_wallet_operations(operator_id(1), &buys, page(50))
        .await
        .expect("list");
    assert_eq!(listed.items.len(), 1);
    assert_eq!(listed.items[0].remote_reference.as_deref(), Some("w-1"));
    assert!(
        store
            .list_wallet_operations(operator_id(2), &buys, page(50))
            .await
            .expect("list")
            .items
            .is_empty()
    );

    let trade_id = TradeId::from_u128(ulid_at(at(100), 7));
    let of_trade = store
        .list_trade_wallet_operations(operator_id(1), trade_id)
        .await
        .expect("list");
    assert_eq!(of_trade.len(), 1);
    assert!(
        store
            .list_trade_wallet_operations(operator_id(2), trade_id)
            .await
            .expect("list")
            .is_empty()
    );
    let id = WalletOperationId::from_u128(operation.id);
    let steps = store
        .list_wallet_operation_steps(operator_id(1), &[id])
        .await
        .expect("steps");
    let states: Vec<OperationState> = steps.iter().map(|(_, step)| step.state).collect();
    assert_eq!(
        states,
        [OperationState::Prepared, OperationState::Sent, OperationState::Applied]
    );
    assert!(
        store
            .list_wallet_operation_steps(operator_id(2), &[id])
            .await
            .expect("steps")
            .is_empty()
    );
}
