//! The sale's rules over mocked ports: it is taken from pool and position and stored
//! `sent` before the credit; a refused credit unwinds it exactly; an ambiguous one goes to
//! manual review; a player cannot sell shares they do not hold.

use std::sync::{Arc, Mutex};

use opinion_market::{Holding, MarketStatus, Outcome, Pool, Position, Side, TradeStatus};
use opinion_wallet::{OperationState, WalletFlow};
use opinion_webhook::EventType;

use crate::access::AuthFailure;
use crate::error::{AppError, ProblemCode};
use crate::model::PositionRecord;
use crate::opinion::trading::ports::{OpenTrade, TradingChange};
use crate::test_support::NOW;
use crate::test_support::trading::*;
use crate::wallet::ports::MutationOutcome;

fn holding_yes(shares: i64) -> Position {
    let yes = Holding {
        shares,
        cost_basis: shares / 2,
    };
    Position::from_parts(yes, Holding::default(), 0).expect("position")
}

fn sold_pool() -> Pool {
    Pool::from_parts(liquidity(), 1_000, 0).expect("pool")
}

/// Mocks for selling 400 of 1000 held YES shares whose credit gets `outcome`.
fn sell_mocks(outcome: MutationOutcome) -> (TradingMocks, Arc<Mutex<Vec<TradingChange>>>) {
    let mut mocks = TradingMocks::new();
    let applied = Arc::new(Mutex::new(Vec::<TradingChange>::new()));
    mocks
        .trades
        .expect_find_trade_by_client_order()
        .returning(|_, _, _| Ok(None));
    let recorder = applied.clone();
    mocks.markets.expect_find_operator_market().returning(move |_, _| {
        // After the sale is opened, the pool is what it stored.
        let opened = recorder
            .lock()
            .expect("lock")
            .first()
            .and_then(|c: &TradingChange| c.pool.clone());
        let pool = opened.map_or_else(sold_pool, |change| change.after);
        Ok(Some(market_with(pool, MarketStatus::Open)))
    });
    let recorder = applied.clone();
    mocks.trades.expect_find_position().returning(move |_, _, _| {
        let opened = recorder.lock().expect("lock").first().and_then(|c| c.position.clone());
        let position = opened.map_or_else(|| holding_yes(1_000), |change| change.after);
        Ok(Some(PositionRecord {
            user_id: USER,
            market_id: MARKET,
            position,
            redeemed_at: None,
            updated_at: NOW,
        }))
    });
    let recorder = applied.clone();
    mocks.trades.expect_find_trade().returning(move |_, _| {
        let opened = recorder.lock().expect("lock")[0].new_trade.clone().expect("trade");
        Ok(Some(OpenTrade {
            trade: opened.trade,
            position_before: opened.position_before,
        }))
    });
    let recorder = applied.clone();
    mocks.trades.expect_apply().times(2).returning(move |_, change| {
        recorder.lock().expect("lock").push(change.clone());
        Ok(())
    });
    mocks
        .wallet
        .expect_mutate()
        .times(1)
        .returning(move |_, _| outcome.clone());
    (mocks, applied)
}

#[tokio::test]
async fn a_sale_is_taken_from_pool_and_position_and_stored_sent_before_the_credit() {
    let (mocks, applied) = sell_mocks(applied());
    let trade = mocks
        .build()
        .sell(&player(), &order(Side::Sell, 400), "sale-1")
        .await
        .expect("sold");
    assert_eq!(trade.status, TradeStatus::Executed);
    let changes = applied.lock().expect("lock").clone();
    let opened = &changes[0];
    assert_eq!(opened.new_operations[0].record.state, OperationState::Sent);
    assert_eq!(opened.new_operations[0].record.flow, WalletFlow::Sell);
    assert_eq!(
        opened.pool.as_ref().map(|p| p.after.outstanding(Outcome::Yes)),
        Some(600)
    );
    assert_eq!(
        opened.position.as_ref().map(|p| p.after.holding(Outcome::Yes).shares),
        Some(600)
    );
    assert_eq!(
        opened.new_trade.as_ref().and_then(|t| t.position_before),
        Some(holding_yes(1_000))
    );
    assert!(changes[1].pool.is_none() && changes[1].position.is_none());
    let submitted: Vec<_> = opened.events.iter().map(|e| e.event_type).collect();
    assert_eq!(submitted, [EventType::TradeSubmitted]);
    assert_eq!(opened.events[0].data["side"], "sell");
    assert_eq!(opened.events[0].data["shares"], "400");
    let processed: Vec<_> = changes[1].events.iter().map(|e| e.event_type).collect();
    assert_eq!(processed, [EventType::TradeProcessed]);
}

#[tokio::test]
async fn a_refused_credit_unwinds_the_sale_exactly() {
    let (mocks, applied) = sell_mocks(refused());
    let trade = mocks
        .build()
        .sell(&player(), &order(Side::Sell, 400), "sale-1")
        .await
        .expect("answered");
    assert_eq!(trade.status, TradeStatus::Failed);
    let unwound = applied.lock().expect("lock")[1].clone();
    assert_eq!(unwound.pool.map(|p| p.after), Some(sold_pool()));
    assert_eq!(unwound.position.map(|p| p.after), Some(holding_yes(1_000)));
    assert_eq!(
        unwound.operation.map(|o| o.record.state),
        Some(OperationState::Rejected)
    );
    let types: Vec<_> = unwound.events.iter().map(|e| e.event_type).collect();
    assert_eq!(types, [EventType::TradeFailed]);
    assert_eq!(unwound.events[0].data["reason"], "insufficient_funds");
}

#[tokio::test]
async fn an_ambiguous_credit_goes_to_manual_review_and_keeps_the_sale_in_place() {
    let (mocks, applied) = sell_mocks(timed_out());
    let trade = mocks
        .build()
        .sell(&player(), &order(Side::Sell, 400), "sale-1")
        .await
        .expect("answered");
    assert_eq!(trade.status, TradeStatus::ManualReview);
    let settled = applied.lock().expect("lock")[1].clone();
    assert!(settled.pool.is_none() && settled.position.is_none());
    let types: Vec<_> = settled.events.iter().map(|e| e.event_type).collect();
    assert_eq!(types, [EventType::WalletOperationManualReviewRequired]);
}

#[tokio::test]
async fn nobody_sells_shares_they_do_not_hold() {
    let mut mocks = TradingMocks::new();
    mocks
        .trades
        .expect_find_trade_by_client_order()
        .returning(|_, _, _| Ok(None));
    mocks
        .markets
        .expect_find_operator_market()
        .returning(|_, _| Ok(Some(market_with(sold_pool(), MarketStatus::Open))));
    mocks.trades.expect_find_position().returning(|_, _, _| Ok(None));
    mocks.trades.expect_apply().never();
    mocks.wallet.expect_mutate().never();
    let refused = mocks.build().sell(&player(), &order(Side::Sell, 400), "sale-2").await;
    assert!(matches!(
        refused,
        Err(AppError::Conflict {
            code: ProblemCode::InsufficientShares,
            ..
        })
    ));
}

#[tokio::test]
async fn an_ended_session_sells_nothing_and_is_refused_before_the_order_is_judged() {
    let mut mocks = TradingMocks::new();
    mocks.trades.expect_find_trade_by_client_order().never();
    mocks.trades.expect_find_position().never();
    mocks.trades.expect_apply().never();
    mocks.wallet.expect_mutate().never();
    let trading = mocks.build();
    for (side, client_order_id) in [(Side::Sell, "order-1"), (Side::Buy, "order-1"), (Side::Sell, "")] {
        let error = trading
            .sell(&EndedSession, &order(side, 400), client_order_id)
            .await
            .expect_err("refused");
        assert!(
            matches!(error, AppError::Unauthenticated(AuthFailure::SessionEnded)),
            "{side:?} {client_order_id:?}: {error:?}"
        );
    }
}
