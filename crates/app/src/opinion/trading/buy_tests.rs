//! The buy's contract rules, each a test over mocked ports that fails if the rule breaks:
//! the trade and its debit are stored `sent` before the wallet is called, one key per
//! business action, an ambiguous debit goes to manual review and is never sent again, a
//! debit that cannot be placed is compensated with its own key carrying `marketId`,
//! repeats and racing orders never reach the wallet twice.

use std::sync::{Arc, Mutex};

use mockall::Sequence;
use opinion_market::{Pool, Side, TradeStatus};
use opinion_wallet::{Classification, OperationState, WalletFlow};
use opinion_webhook::EventType;

use crate::access::AuthFailure;
use crate::error::{AppError, ProblemCode};
use crate::opinion::trading::ports::{OpenTrade, TradingChange};
use crate::ports::{StoreError, UniqueKey};
use crate::test_support::trading::*;
use crate::wallet::ports::MutationOutcome;

/// Records every change the store is asked to apply.
#[derive(Clone, Default)]
struct Applied(Arc<Mutex<Vec<TradingChange>>>);

impl Applied {
    fn all(&self) -> Vec<TradingChange> {
        self.0.lock().expect("lock").clone()
    }
}

/// Mocks for a buy at an untouched pool whose debit gets `outcome`; `placement_pool` is
/// the pool when the buy is placed after the debit.
fn buy_mocks(outcome: MutationOutcome, placement_pool: Pool) -> (TradingMocks, Applied) {
    let mut mocks = TradingMocks::new();
    let applied = Applied::default();
    let mut reads = 0;
    mocks
        .trades
        .expect_find_trade_by_client_order()
        .returning(|_, _, _| Ok(None));
    mocks.markets.expect_find_operator_market().returning(move |_, _| {
        reads += 1;
        let pool = if reads == 1 {
            Pool::new(liquidity())
        } else {
            placement_pool
        };
        Ok(Some(market_with(pool, opinion_market::MarketStatus::Open)))
    });
    mocks.trades.expect_find_position().returning(|_, _, _| Ok(None));
    let recorder = applied.clone();
    let mut sequence = Sequence::new();
    mocks
        .trades
        .expect_apply()
        .times(1)
        .in_sequence(&mut sequence)
        .returning({
            let recorder = recorder.clone();
            move |_, change| {
                recorder.0.lock().expect("lock").push(change.clone());
                Ok(())
            }
        });
    mocks
        .wallet
        .expect_mutate()
        .times(1)
        .in_sequence(&mut sequence)
        .returning(move |_, _| outcome.clone());
    mocks
        .trades
        .expect_apply()
        .times(1)
        .in_sequence(&mut sequence)
        .returning(move |_, change| {
            recorder.0.lock().expect("lock").push(change.clone());
            Ok(())
        });
    (mocks, applied)
}

#[tokio::test]
async fn the_trade_and_its_sent_debit_are_stored_before_the_call_and_placed_after() {
    let (mocks, applied) = buy_mocks(applied(), Pool::new(liquidity()));
    let trade = mocks
        .build()
        .buy(&player(), &order(Side::Buy, 1_000), "order-1")
        .await
        .expect("bought");
    assert_eq!(trade.status, TradeStatus::Executed);
    let changes = applied.all();
    let opened = &changes[0];
    let new_trade = &opened.new_trade.as_ref().expect("trade").trade;
    assert_eq!(new_trade.status, TradeStatus::Pending);
    let operation = &opened.new_operations[0].record;
    assert_eq!(operation.state, OperationState::Sent);
    assert_eq!(operation.flow, WalletFlow::Buy);
    assert_eq!(operation.idempotency_key.as_str(), format!("buy:{}", new_trade.id));
    assert_eq!(operation.metadata.get("marketId"), Some(&MARKET.to_string()));
    assert_eq!(operation.amount, new_trade.amount);
    assert_eq!(opened.events.len(), 1);
    let submitted = &opened.events[0];
    assert_eq!(submitted.event_type, EventType::TradeSubmitted);
    assert_eq!(submitted.data["tradeId"], new_trade.id.to_string());
    assert_eq!(submitted.data["marketId"], MARKET.to_string());
    assert_eq!(submitted.data["side"], "buy");
    assert_eq!(submitted.data["outcome"], "yes");
    assert_eq!(submitted.data["amount"], operation.amount.to_string());
    assert_eq!(submitted.data["submittedAt"], "2026-11-22T12:00:00Z");
    let placed = &changes[1];
    assert_eq!(placed.trade.as_ref().map(|t| t.status), Some(TradeStatus::Executed));
    let operation_update = placed.operation.as_ref().expect("operation");
    assert_eq!(operation_update.record.state, OperationState::Applied);
    assert_eq!(operation_update.record.remote_reference.as_deref(), Some("w-1"));
    let pool = placed.pool.as_ref().expect("pool");
    assert_eq!(pool.after.outstanding(opinion_market::Outcome::Yes), 1_000);
    let position = placed.position.as_ref().expect("position");
    assert_eq!(position.after.holding(opinion_market::Outcome::Yes).shares, 1_000);
    assert_eq!(
        position.after.holding(opinion_market::Outcome::Yes).cost_basis,
        trade.amount
    );
    assert_eq!(placed.events.len(), 1);
    assert_eq!(placed.events[0].event_type, EventType::TradeProcessed);
    assert_eq!(placed.events[0].data["amount"], trade.amount.to_string());
    assert_eq!(placed.events[0].data["processedAt"], "2026-11-22T12:00:00Z");
}

#[tokio::test]
async fn an_ambiguous_debit_goes_to_manual_review_and_is_never_sent_again() {
    let (mocks, applied) = buy_mocks(timed_out(), Pool::new(liquidity()));
    let trade = mocks
        .build()
        .buy(&player(), &order(Side::Buy, 1_000), "order-1")
        .await
        .expect("answered");
    assert_eq!(trade.status, TradeStatus::ManualReview);
    let settled = &applied.all()[1];
    assert_eq!(
        settled.trade.as_ref().map(|t| t.status),
        Some(TradeStatus::ManualReview)
    );
    assert_eq!(
        settled.operation.as_ref().map(|o| o.record.state),
        Some(OperationState::ManualReview)
    );
    assert!(settled.pool.is_none() && settled.position.is_none() && settled.new_operations.is_empty());
    assert_eq!(
        settled.events[0].event_type,
        EventType::WalletOperationManualReviewRequired
    );
}

#[tokio::test]
async fn a_refused_debit_fails_the_trade_and_moves_nothing() {
    let (mocks, applied) = buy_mocks(refused(), Pool::new(liquidity()));
    let trade = mocks
        .build()
        .buy(&player(), &order(Side::Buy, 1_000), "order-1")
        .await
        .expect("answered");
    assert_eq!(trade.status, TradeStatus::Failed);
    assert_eq!(trade.failure_reason.as_deref(), Some("insufficient_funds"));
    let settled = &applied.all()[1];
    assert!(settled.pool.is_none() && settled.position.is_none() && settled.new_operations.is_empty());
    assert_eq!(
        settled.operation.as_ref().map(|o| o.record.state),
        Some(OperationState::Rejected)
    );
    assert_eq!(settled.events[0].event_type, EventType::TradeFailed);
}

#[tokio::test]
async fn a_debit_that_cannot_be_placed_is_compensated_with_its_own_key_carrying_the_market() {
    let moved = Pool::from_parts(liquidity(), 2_000, 0).expect("pool");
    let (mocks, applied) = buy_mocks(applied(), moved);
    let trade = mocks
        .build()
        .buy(&player(), &order(Side::Buy, 1_000), "order-1")
        .await
        .expect("answered");
    assert_eq!(trade.status, TradeStatus::Failed);
    assert_eq!(trade.failure_reason.as_deref(), Some("price_moved"));
    let changes = applied.all();
    let debit = &changes[0].new_operations[0].record;
    let settled = &changes[1];
    assert!(settled.pool.is_none() && settled.position.is_none());
    assert_eq!(
        settled.operation.as_ref().map(|o| o.record.state),
        Some(OperationState::Applied)
    );
    let compensation = &settled.new_operations[0];
    assert_eq!(compensation.record.flow, WalletFlow::BuyCompensation);
    assert_eq!(compensation.record.state, OperationState::Prepared);
    assert_eq!(
        compensation.record.idempotency_key.as_str(),
        format!("buy_compensation:{}", trade.id)
    );
    assert_eq!(compensation.record.amount, debit.amount);
    assert_eq!(compensation.record.metadata.get("marketId"), Some(&MARKET.to_string()));
    assert_eq!(
        compensation.record.metadata.get("compensatedOperationId"),
        Some(&debit.id.to_string())
    );
    assert!(compensation.next_attempt_at.is_some());
    let types: Vec<_> = settled.events.iter().map(|e| e.event_type).collect();
    assert_eq!(types, [EventType::TradeFailed, EventType::TradeCompensationRequired]);
    let required = &settled.events[1].data;
    assert_eq!(required["tradeId"], trade.id.to_string());
    assert_eq!(required["walletOperationId"], compensation.record.id.to_string());
    assert_eq!(required["compensatedOperationId"], debit.id.to_string());
    assert_eq!(required["amount"], debit.amount.to_string());
    assert_eq!(required["reason"], "price_moved");
    assert_eq!(required["requiredAt"], "2026-11-22T12:00:00Z");
}

#[tokio::test]
async fn a_debit_never_sent_is_abandoned_and_the_trade_fails() {
    let (mocks, applied) = buy_mocks(answered(Classification::NotSent, None), Pool::new(liquidity()));
    let trade = mocks
        .build()
        .buy(&player(), &order(Side::Buy, 1_000), "order-1")
        .await
        .expect("answered");
    assert_eq!(trade.failure_reason.as_deref(), Some("wallet_unreachable"));
    assert_eq!(
        applied.all()[1].operation.as_ref().map(|o| o.record.state),
        Some(OperationState::Abandoned)
    );
}

#[tokio::test]
async fn a_repeated_client_order_id_returns_the_first_trade_without_calling_the_wallet_even_on_a_closed_market() {
    let first = {
        let (mocks, applied) = buy_mocks(applied(), Pool::new(liquidity()));
        mocks
            .build()
            .buy(&player(), &order(Side::Buy, 1_000), "order-1")
            .await
            .expect("bought");
        applied.all()[0].new_trade.clone().expect("trade").trade
    };
    let mut mocks = TradingMocks::new();
    let stored = first.clone();
    mocks
        .trades
        .expect_find_trade_by_client_order()
        .returning(move |_, _, _| {
            Ok(Some(OpenTrade {
                trade: crate::model::Trade {
                    status: TradeStatus::Executed,
                    ..stored.clone()
                },
                position_before: None,
            }))
        });
    let closed_since = market_with(Pool::new(liquidity()), opinion_market::MarketStatus::Closed);
    mocks
        .markets
        .expect_find_operator_market()
        .returning(move |_, _| Ok(Some(closed_since.clone())));
    mocks.wallet.expect_mutate().never();
    mocks.trades.expect_apply().never();
    let trading = mocks.build();
    let again = trading
        .buy(&player(), &order(Side::Buy, 1_000), "order-1")
        .await
        .expect("replayed");
    assert_eq!((again.id, again.status), (first.id, TradeStatus::Executed));
    let other = trading.buy(&player(), &order(Side::Buy, 999), "order-1").await;
    assert!(matches!(
        other,
        Err(AppError::Conflict {
            code: ProblemCode::ClientOrderIdReused,
            ..
        })
    ));
}

#[tokio::test]
async fn a_second_open_order_on_the_same_market_never_reaches_the_wallet() {
    let mut mocks = TradingMocks::new();
    mocks
        .trades
        .expect_find_trade_by_client_order()
        .returning(|_, _, _| Ok(None));
    mocks
        .markets
        .expect_find_operator_market()
        .returning(|_, _| Ok(Some(open_market())));
    mocks
        .trades
        .expect_apply()
        .times(1)
        .returning(|_, _| Err(StoreError::Duplicate(UniqueKey::OpenTrade)));
    mocks.wallet.expect_mutate().never();
    let refused = mocks.build().buy(&player(), &order(Side::Buy, 1_000), "order-2").await;
    assert!(matches!(
        refused,
        Err(AppError::Conflict {
            code: ProblemCode::TradeInProgress,
            ..
        })
    ));
}

#[tokio::test]
async fn orders_on_hidden_closed_or_unknown_markets_are_refused_before_anything_is_stored() {
    let mut hidden = open_market();
    hidden.choice = opinion_market::MarketChoice::Hidden;
    let closed = market_with(Pool::new(liquidity()), opinion_market::MarketStatus::Closed);
    for (market, expected) in [
        (Some(hidden), "not_found"),
        (Some(closed), "market_not_open"),
        (None, "not_found"),
    ] {
        let mut mocks = TradingMocks::new();
        mocks
            .trades
            .expect_find_trade_by_client_order()
            .returning(|_, _, _| Ok(None));
        mocks
            .markets
            .expect_find_operator_market()
            .returning(move |_, _| Ok(market.clone()));
        mocks.trades.expect_apply().never();
        mocks.wallet.expect_mutate().never();
        let error = mocks
            .build()
            .buy(&player(), &order(Side::Buy, 10), "order-3")
            .await
            .expect_err("refused");
        let code = match &error {
            AppError::NotFound(_) => "not_found",
            AppError::Conflict { code, .. } => code.as_str(),
            other => panic!("unexpected {other:?}"),
        };
        assert_eq!(code, expected);
    }
}

#[tokio::test]
async fn the_player_is_made_sure_of_inside_the_opening_step() {
    let (mocks, _) = buy_mocks(applied(), Pool::new(liquidity()));
    let steps = WatchedSteps::default();
    let mut trading = mocks.build();
    trading.ports.transactions = Arc::new(steps.clone());
    let player = PlayerInSteps {
        steps: steps.clone(),
        confirmed_inside: Arc::default(),
    };
    let trade = trading
        .buy(&player, &order(Side::Buy, 1_000), "order-1")
        .await
        .expect("bought");
    assert_eq!(trade.status, TradeStatus::Executed);
    assert!(player.confirmed_inside.load(std::sync::atomic::Ordering::SeqCst));
}

#[tokio::test]
async fn an_ended_session_is_refused_before_the_order_is_judged_and_nothing_is_read() {
    let mut mocks = TradingMocks::new();
    mocks.trades.expect_find_trade_by_client_order().never();
    mocks.markets.expect_find_operator_market().never();
    mocks.trades.expect_apply().never();
    mocks.wallet.expect_mutate().never();
    let trading = mocks.build();
    for (side, client_order_id) in [
        (Side::Buy, "order-1"),
        (Side::Sell, "order-1"),
        (Side::Buy, "not an id!"),
    ] {
        let error = trading
            .buy(&EndedSession, &order(side, 1_000), client_order_id)
            .await
            .expect_err("refused");
        assert!(
            matches!(error, AppError::Unauthenticated(AuthFailure::SessionEnded)),
            "{side:?} {client_order_id}: {error:?}"
        );
    }
}
