//! Use-case tests of resolution, the wallet worker and manual review, over mocks.

use opinion_market::{Liquidity, MarketStatus, Pool, RedemptionStatus, Resolution, Side, TradeStatus, redemption};
use opinion_wallet::{
    Ambiguity, Classification, OperationState, RefusalCode, RemoteReference, ReviewReason, WalletFlow,
};
use opinion_webhook::EventType;
use std::time::Duration as StdDuration;

use crate::error::{AppError, ProblemCode};
use crate::opinion::settlement::ports::MarketOperator;
use crate::opinion::settlement::{WorkerSettings, retry_delay};
use crate::opinion::trading::ports::OpenTrade;
use crate::ports::{ChangedRecord, StoreError};
use crate::test_support::settlement::*;
use crate::test_support::{NOW, OPERATOR};
use crate::wallet::ports::MutationOutcome;
use crate::wallet::{ReviewDecision, ReviewFinding};

fn answer(classification: Classification) -> MutationOutcome {
    MutationOutcome {
        classification,
        http_status: Some(200),
        elapsed: StdDuration::from_millis(5),
    }
}

fn applied() -> Classification {
    Classification::Applied {
        remote_reference: RemoteReference::parse("tx-1").expect("reference"),
        balance: 500,
    }
}

fn timed_out() -> Classification {
    Classification::Ambiguous {
        why: Ambiguity::TimedOut,
    }
}

#[tokio::test]
async fn resolution_is_refused_while_a_trade_is_open() {
    let mut mocks = TradingMocks::default();
    mocks
        .markets
        .expect_find_market()
        .returning(|_| Ok(Some(market(MarketStatus::Closed))));
    mocks.settlement.expect_count_open_trades().returning(|_| Ok(1));
    mocks.settlement.expect_resolve_market().never();
    let error = mocks
        .build_settlement()
        .resolve_market(MARKET, Resolution::Yes)
        .await
        .unwrap_err();
    assert!(
        matches!(
            error,
            AppError::Conflict {
                code: ProblemCode::OpenTrades,
                ..
            }
        ),
        "{error:?}"
    );
}

#[tokio::test]
async fn payouts_come_from_the_domain_rule_and_only_positive_ones_are_paid() {
    let winner = held(61, holding(100, 50), holding(40, 20), -5);
    let loser = held(62, holding(0, 0), holding(30, 15), 0);
    let expected = redemption(&winner.record.position, Resolution::Yes);
    let mut mocks = TradingMocks::default();
    mocks
        .markets
        .expect_find_market()
        .returning(|_| Ok(Some(market(MarketStatus::Open))));
    mocks
        .markets
        .expect_update_market_status()
        .times(1)
        .returning(|m, expected| {
            assert_eq!(m.status, MarketStatus::Closed, "the market is closed first");
            assert_eq!(expected, MarketStatus::Open, "over the status it was read in");
            Ok(())
        });
    mocks.settlement.expect_count_open_trades().returning(|_| Ok(0));
    mocks.settlement.expect_market_operators().returning(|_| {
        Ok(vec![MarketOperator {
            operator_id: OPERATOR,
            currency: usd(),
        }])
    });
    let positions = vec![winner, loser];
    mocks
        .settlement
        .expect_unredeemed_positions()
        .returning(move |_| Ok(positions.clone()));
    mocks
        .settlement
        .expect_resolve_market()
        .times(1)
        .returning(move |plan| {
            assert_eq!(plan.expected, MarketStatus::Closed);
            assert_eq!(plan.market.status, MarketStatus::Resolved(Resolution::Yes));
            assert_eq!(plan.positions.len(), 2);
            assert_eq!(plan.redemptions.len(), 1);
            assert_eq!(plan.redemptions[0].amount, expected);
            assert_eq!(plan.redemptions[0].status, RedemptionStatus::Pending);
            assert_eq!(plan.operations.len(), 1);
            assert_eq!(plan.operations[0].record.state, OperationState::Prepared);
            assert_eq!(plan.operations[0].record.amount, expected);
            assert_eq!(plan.operations[0].record.metadata["resolution"], "yes");
            assert_eq!(plan.operations[0].next_attempt_at, Some(NOW));
            assert_eq!(plan.resolutions[0].redemption_count, 1);
            assert_eq!(plan.resolutions[0].payout_total, expected);
            assert_eq!(plan.events.len(), 1);
            assert_eq!(plan.events[0].event_type, EventType::MarketResolved);
            assert_eq!(plan.events[0].data["winningOutcome"], "yes");
            Ok(())
        });
    let resolved = mocks
        .build_settlement()
        .resolve_market(MARKET, Resolution::Yes)
        .await
        .expect("resolved");
    assert_eq!(resolved.resolutions[0].payout_total, 100);
}

#[tokio::test]
async fn a_resolved_market_is_never_resolved_again() {
    let mut mocks = TradingMocks::default();
    mocks
        .markets
        .expect_find_market()
        .returning(|_| Ok(Some(market(MarketStatus::Resolved(Resolution::No)))));
    mocks.settlement.expect_resolve_market().never();
    let error = mocks
        .build_settlement()
        .resolve_market(MARKET, Resolution::Yes)
        .await
        .unwrap_err();
    assert!(
        matches!(
            error,
            AppError::Conflict {
                code: ProblemCode::MarketStatus,
                ..
            }
        ),
        "{error:?}"
    );
}

/// A worker pass for one operator whose one due operation is `claimed` and answered by `answer`.
fn worker_with(claimed: opinion_wallet::WalletFlow, attempts: u32, outcome: Classification) -> TradingMocks {
    let mut mocks = TradingMocks::default();
    mocks
        .settlement
        .expect_operators_with_wallet_work()
        .returning(|_, _| Ok(vec![OPERATOR]));
    mocks
        .wallet_adapters
        .expect_find_wallet_target()
        .returning(|_| Ok(Some(target())));
    mocks
        .settlement
        .expect_stale_sent_operations()
        .returning(|_, _, _| Ok(vec![]));
    mocks
        .settlement
        .expect_claim_due_operations()
        .returning(move |_, _, _| Ok(vec![operation(claimed, OperationState::Sent, attempts)]));
    mocks
        .wallet
        .expect_mutate()
        .times(1)
        .returning(move |_, _| answer(outcome.clone()));
    mocks
}

#[tokio::test]
async fn an_applied_redemption_is_paid_with_its_event() {
    let mut mocks = worker_with(WalletFlow::Redemption, 1, applied());
    mocks.trades.expect_apply().times(1).returning(|_, change| {
        let op = change.operation.as_ref().expect("operation");
        let redemption = change.redemption.as_ref().expect("redemption");
        assert_eq!(op.record.state, OperationState::Applied);
        assert_eq!(redemption.status, RedemptionStatus::Paid);
        assert_eq!(redemption.paid_at, Some(NOW));
        assert_eq!(change.events.len(), 1);
        assert_eq!(change.events[0].event_type, EventType::RedemptionProcessed);
        assert_eq!(change.events[0].data["amount"], "60");
        assert_eq!(change.events[0].data["processedAt"], "2026-11-22T12:00:00Z");
        Ok(())
    });
    let pass = mocks.build_settlement().run_wallet_pass().await.expect("pass");
    assert_eq!(pass.sent, 1);
}

#[tokio::test]
async fn an_ambiguous_redemption_goes_to_manual_review_and_is_not_scheduled_again() {
    let mut mocks = worker_with(WalletFlow::Redemption, 1, timed_out());
    mocks.trades.expect_apply().times(1).returning(|_, change| {
        let op = change.operation.as_ref().expect("operation");
        assert_eq!(op.record.state, OperationState::ManualReview);
        assert!(op.next_attempt_at.is_none());
        assert_eq!(
            change.redemption.as_ref().map(|r| r.status),
            Some(RedemptionStatus::ManualReview)
        );
        assert_eq!(
            change.events[0].event_type,
            EventType::WalletOperationManualReviewRequired
        );
        assert_eq!(change.events.len(), 2);
        assert_eq!(change.events[1].event_type, EventType::PayoutPending);
        assert_eq!(change.events[1].data["walletOperationId"], op.record.id.to_string());
        assert_eq!(change.events[1].data["amount"], "60");
        assert_eq!(change.events[1].data["pendingSince"], "2026-11-22T12:00:00Z");
        Ok(())
    });
    mocks.build_settlement().run_wallet_pass().await.expect("pass");
}

#[tokio::test]
async fn a_refused_redemption_goes_to_review_with_the_amount_owed() {
    let refusal = Classification::Rejected {
        code: RefusalCode::UserBlocked,
    };
    let mut mocks = worker_with(WalletFlow::Redemption, 1, refusal);
    mocks.trades.expect_apply().times(1).returning(|_, change| {
        let op = change.operation.as_ref().expect("operation");
        assert_eq!(op.record.state, OperationState::ManualReview);
        assert_eq!(op.record.review_reason, Some(ReviewReason::RefusedCredit));
        assert_eq!(op.record.detail.as_deref(), Some("user_blocked"));
        assert!(op.next_attempt_at.is_none());
        assert_eq!(
            change.redemption.as_ref().map(|r| r.status),
            Some(RedemptionStatus::ManualReview)
        );
        let types: Vec<_> = change.events.iter().map(|e| e.event_type).collect();
        assert_eq!(
            types,
            [EventType::WalletOperationManualReviewRequired, EventType::PayoutPending]
        );
        assert_eq!(change.events[0].data["amount"], "60");
        assert_eq!(change.events[0].data["reason"], "user_blocked");
        assert_eq!(change.events[0].data["reviewReason"], "refused_credit");
        assert_eq!(change.events[1].data["reason"], "user_blocked");
        Ok(())
    });
    mocks.build_settlement().run_wallet_pass().await.expect("pass");
}

#[tokio::test]
async fn a_refused_compensation_goes_to_review_with_its_event() {
    let refusal = Classification::Rejected {
        code: RefusalCode::LimitExceeded,
    };
    let mut mocks = worker_with(WalletFlow::BuyCompensation, 1, refusal);
    mocks.trades.expect_apply().times(1).returning(|_, change| {
        let op = change.operation.as_ref().expect("operation");
        assert_eq!(op.record.state, OperationState::ManualReview);
        assert_eq!(op.record.review_reason, Some(ReviewReason::RefusedCredit));
        assert!(change.redemption.is_none() && change.trade.is_none());
        let types: Vec<_> = change.events.iter().map(|e| e.event_type).collect();
        assert_eq!(types, [EventType::WalletOperationManualReviewRequired]);
        Ok(())
    });
    mocks.build_settlement().run_wallet_pass().await.expect("pass");
}

#[tokio::test]
async fn owed_money_is_retried_up_to_the_limit_then_reviewed() {
    let limit = WorkerSettings::default().retry_limit.max_attempts();
    for (flow, outcome) in [
        (WalletFlow::BuyCompensation, timed_out()),
        (WalletFlow::BuyCompensation, Classification::NotSent),
        (WalletFlow::Redemption, Classification::NotSent),
    ] {
        let mut mocks = worker_with(flow, limit - 1, outcome.clone());
        mocks.trades.expect_apply().times(1).returning(|_, change| {
            let op = change.operation.as_ref().expect("operation");
            assert_eq!(op.record.state, OperationState::Prepared);
            assert!(op.next_attempt_at.is_some());
            assert!(change.events.is_empty());
            Ok(())
        });
        mocks.build_settlement().run_wallet_pass().await.expect("pass");

        let mut mocks = worker_with(flow, limit, outcome);
        mocks.trades.expect_apply().times(1).returning(move |_, change| {
            let op = change.operation.as_ref().expect("operation");
            assert_eq!(op.record.state, OperationState::ManualReview, "{flow}");
            assert_eq!(op.record.review_reason, Some(ReviewReason::RetriesExhausted));
            assert!(op.next_attempt_at.is_none(), "never sent again automatically");
            assert_eq!(
                change.events[0].event_type,
                EventType::WalletOperationManualReviewRequired
            );
            assert_eq!(change.events[0].data["reviewReason"], "retries_exhausted");
            Ok(())
        });
        mocks.build_settlement().run_wallet_pass().await.expect("pass");
    }
}

#[tokio::test]
async fn an_ambiguous_compensation_is_retried_later_with_the_same_key() {
    let sent = operation(WalletFlow::BuyCompensation, OperationState::Sent, 3);
    let key = sent.idempotency_key.clone();
    let mut mocks = worker_with(WalletFlow::BuyCompensation, 3, timed_out());
    let delay = retry_delay(&WorkerSettings::default(), 3);
    mocks.trades.expect_apply().times(1).returning(move |_, change| {
        let op = change.operation.as_ref().expect("operation");
        assert_eq!(op.record.state, OperationState::Prepared);
        assert_eq!(op.record.idempotency_key, key);
        assert_eq!(op.next_attempt_at, Some(NOW + delay));
        assert!(change.trade.is_none());
        assert!(change.events.is_empty());
        Ok(())
    });
    mocks.build_settlement().run_wallet_pass().await.expect("pass");
}

#[test]
fn retries_back_off_exponentially_up_to_the_cap() {
    let settings = WorkerSettings::default();
    assert_eq!(retry_delay(&settings, 1), settings.retry_base);
    assert_eq!(retry_delay(&settings, 3), settings.retry_base * 4);
    assert_eq!(retry_delay(&settings, 40), settings.retry_cap);
}

#[tokio::test]
async fn an_operator_without_a_wallet_keeps_its_operations_due() {
    let mut mocks = TradingMocks::default();
    mocks
        .settlement
        .expect_operators_with_wallet_work()
        .returning(|_, _| Ok(vec![OPERATOR]));
    mocks
        .wallet_adapters
        .expect_find_wallet_target()
        .returning(|_| Ok(None));
    mocks.settlement.expect_claim_due_operations().never();
    mocks.settlement.expect_stale_sent_operations().never();
    let pass = mocks.build_settlement().run_wallet_pass().await.expect("pass");
    assert_eq!(pass.without_wallet, 1);
}

/// A sweep that finds `lost` sent long ago.
fn sweeper_with(lost: crate::model::WalletOperationRecord) -> TradingMocks {
    let mut mocks = TradingMocks::default();
    mocks
        .settlement
        .expect_operators_with_wallet_work()
        .withf(|now, grace| *now == NOW && *grace == WorkerSettings::default().grace)
        .returning(|_, _| Ok(vec![OPERATOR]));
    mocks
        .wallet_adapters
        .expect_find_wallet_target()
        .returning(|_| Ok(Some(target())));
    mocks
        .settlement
        .expect_stale_sent_operations()
        .withf(|_, before, _| *before == NOW - time::Duration::seconds(10) - WorkerSettings::default().grace)
        .returning(move |_, _, _| Ok(vec![lost.clone()]));
    mocks
        .settlement
        .expect_claim_due_operations()
        .returning(|_, _, _| Ok(vec![]));
    mocks.wallet.expect_mutate().never();
    mocks
}

#[tokio::test]
async fn a_lost_answer_to_a_sale_puts_it_and_its_trade_in_manual_review() {
    let mut mocks = sweeper_with(operation(WalletFlow::Sell, OperationState::Sent, 1));
    mocks.trades.expect_find_trade().returning(|_, _| {
        Ok(Some(OpenTrade {
            trade: trade(Side::Sell, TradeStatus::Pending),
            position_before: None,
        }))
    });
    mocks.trades.expect_apply().times(1).returning(|_, change| {
        let op = change.operation.as_ref().expect("operation");
        let trade = change.trade.as_ref().expect("trade");
        assert_eq!(op.expected, OperationState::Sent);
        assert_eq!(op.record.state, OperationState::ManualReview);
        assert_eq!(trade.expected, TradeStatus::Pending);
        assert_eq!(trade.status, TradeStatus::ManualReview);
        assert_eq!(
            change.events[0].event_type,
            EventType::WalletOperationManualReviewRequired
        );
        Ok(())
    });
    let pass = mocks.build_settlement().run_wallet_pass().await.expect("pass");
    assert_eq!(pass.recovered, 1);
}

#[tokio::test]
async fn a_lost_answer_to_a_redemption_makes_its_payout_pending() {
    let mut mocks = sweeper_with(operation(WalletFlow::Redemption, OperationState::Sent, 1));
    mocks.trades.expect_apply().times(1).returning(|_, change| {
        let types: Vec<_> = change.events.iter().map(|e| e.event_type).collect();
        assert_eq!(
            change.redemption.as_ref().map(|r| r.status),
            Some(RedemptionStatus::ManualReview)
        );
        assert_eq!(
            types,
            [EventType::WalletOperationManualReviewRequired, EventType::PayoutPending]
        );
        assert_eq!(change.events[1].data["reason"], "the answer to the call was lost");
        Ok(())
    });
    let pass = mocks.build_settlement().run_wallet_pass().await.expect("pass");
    assert_eq!(pass.recovered, 1);
}

#[tokio::test]
async fn a_lost_answer_to_a_compensation_out_of_retries_goes_to_review() {
    let limit = WorkerSettings::default().retry_limit.max_attempts();
    let mut mocks = sweeper_with(operation(WalletFlow::BuyCompensation, OperationState::Sent, limit));
    mocks.trades.expect_apply().times(1).returning(|_, change| {
        let op = change.operation.as_ref().expect("operation");
        assert_eq!(op.record.state, OperationState::ManualReview);
        assert_eq!(op.record.review_reason, Some(ReviewReason::RetriesExhausted));
        assert!(op.next_attempt_at.is_none());
        assert_eq!(
            change.events[0].event_type,
            EventType::WalletOperationManualReviewRequired
        );
        Ok(())
    });
    mocks.build_settlement().run_wallet_pass().await.expect("pass");
}

#[tokio::test]
async fn a_lost_answer_to_a_compensation_sends_it_again() {
    let mut mocks = sweeper_with(operation(WalletFlow::BuyCompensation, OperationState::Sent, 2));
    mocks.trades.expect_apply().times(1).returning(|_, change| {
        let op = change.operation.as_ref().expect("operation");
        assert_eq!(op.record.state, OperationState::Prepared);
        assert!(op.next_attempt_at.is_some());
        assert!(change.events.is_empty());
        Ok(())
    });
    mocks.build_settlement().run_wallet_pass().await.expect("pass");
}

fn decision(finding: ReviewFinding) -> ReviewDecision {
    ReviewDecision {
        operation_id: operation(WalletFlow::Buy, OperationState::ManualReview, 1).id,
        finding,
        resolved_by: "ops-ana".into(),
        note: "wallet log line 4411".into(),
    }
}

fn review_of(flow: WalletFlow) -> TradingMocks {
    let mut mocks = TradingMocks::default();
    mocks
        .settlement
        .expect_find_operation_by_id()
        .returning(move |_| Ok(Some(operation(flow, OperationState::ManualReview, 1))));
    mocks
}

#[tokio::test]
async fn a_sale_found_not_applied_is_unwound() {
    let before = held(60, holding(300, 150), holding(0, 0), 0).record.position;
    let mut mocks = review_of(WalletFlow::Sell);
    mocks.trades.expect_find_trade().returning(move |_, _| {
        Ok(Some(OpenTrade {
            trade: trade(Side::Sell, TradeStatus::ManualReview),
            position_before: Some(before),
        }))
    });
    mocks.markets.expect_find_operator_market().returning(|_, _| {
        Ok(Some(crate::model::OperatorMarket {
            market: market(MarketStatus::Open),
            pool: pool(),
            choice: opinion_market::MarketChoice::Unset,
            mode: opinion_market::VisibilityMode::default(),
        }))
    });
    mocks.trades.expect_find_position().returning(|_, _, _| Ok(None));
    // The 100 YES shares sold go back to the (empty) pool.
    let unwound = Pool::from_parts(Liquidity::new(1_000).expect("liquidity"), 100, 0).expect("pool");
    mocks.trades.expect_apply().times(1).returning(move |_, change| {
        let op = change.operation.as_ref().expect("operation");
        assert_eq!(op.record.state, OperationState::ResolvedNotApplied);
        assert_eq!(op.resolution, Some(("ops-ana".into(), "wallet log line 4411".into())));
        assert_eq!(change.trade.as_ref().map(|t| t.status), Some(TradeStatus::Failed));
        assert_eq!(change.pool.as_ref().map(|p| p.after), Some(unwound));
        assert_eq!(change.position.as_ref().map(|p| p.after), Some(before));
        assert!(change.events.iter().any(|e| {
            e.event_type == EventType::WalletOperationManualReviewResolved && e.data["resolution"] == "not_applied"
        }));
        Ok(())
    });
    mocks
        .build_settlement()
        .resolve_review(decision(ReviewFinding::NotApplied))
        .await
        .expect("resolved");
}

#[tokio::test]
async fn a_buy_found_not_applied_fails_its_trade() {
    let mut mocks = review_of(WalletFlow::Buy);
    mocks.trades.expect_find_trade().returning(|_, _| {
        Ok(Some(OpenTrade {
            trade: trade(Side::Buy, TradeStatus::ManualReview),
            position_before: None,
        }))
    });
    mocks.trades.expect_apply().times(1).returning(|_, change| {
        assert_eq!(change.trade.as_ref().map(|t| t.status), Some(TradeStatus::Failed));
        assert!(change.pool.is_none());
        assert!(change.new_operations.is_empty());
        Ok(())
    });
    mocks
        .build_settlement()
        .resolve_review(decision(ReviewFinding::NotApplied))
        .await
        .expect("resolved");
}

#[tokio::test]
async fn a_redemption_is_paid_or_refused_by_the_finding() {
    for (finding, status, event) in [
        (
            ReviewFinding::Applied {
                remote_reference: "tx-77".into(),
            },
            RedemptionStatus::Paid,
            EventType::RedemptionProcessed,
        ),
        (
            ReviewFinding::NotApplied,
            RedemptionStatus::Refused,
            EventType::RedemptionFailed,
        ),
    ] {
        let mut mocks = review_of(WalletFlow::Redemption);
        mocks.trades.expect_apply().times(1).returning(move |_, change| {
            let types: Vec<_> = change.events.iter().map(|e| e.event_type).collect();
            assert_eq!(
                change.redemption.as_ref().map(|r| (r.expected, r.status)),
                Some((RedemptionStatus::ManualReview, status))
            );
            assert_eq!(types, [event, EventType::WalletOperationManualReviewResolved]);
            if event == EventType::RedemptionFailed {
                assert_eq!(change.events[0].data["reason"], "wallet_not_applied");
            }
            Ok(())
        });
        mocks
            .build_settlement()
            .resolve_review(decision(finding))
            .await
            .expect("resolved");
    }
}

#[tokio::test]
async fn only_operations_in_review_take_a_resolution() {
    let mut mocks = TradingMocks::default();
    mocks
        .settlement
        .expect_find_operation_by_id()
        .returning(|_| Ok(Some(operation(WalletFlow::Buy, OperationState::Applied, 1))));
    mocks.trades.expect_apply().never();
    let error = mocks
        .build_settlement()
        .resolve_review(decision(ReviewFinding::NotApplied))
        .await
        .unwrap_err();
    assert!(
        matches!(
            error,
            AppError::Conflict {
                code: ProblemCode::NotInReview,
                ..
            }
        ),
        "{error:?}"
    );
}

#[tokio::test]
async fn a_flight_operation_is_listed_but_not_resolved_here() {
    for flow in WalletFlow::FLIGHT {
        for finding in [
            ReviewFinding::NotApplied,
            ReviewFinding::Applied {
                remote_reference: "tx-9".into(),
            },
        ] {
            let mut mocks = review_of(flow);
            mocks.trades.expect_apply().never();
            mocks.trades.expect_find_trade().never();
            let error = mocks
                .build_settlement()
                .resolve_review(decision(finding))
                .await
                .unwrap_err();
            let AppError::Conflict { code, detail } = error else {
                panic!("{flow}: {error:?}");
            };
            assert_eq!(code, ProblemCode::ProductMismatch, "{flow}");
            assert!(detail.contains("resolved by the flight product"), "{detail}");
        }
    }
    let mut mocks = TradingMocks::default();
    mocks.settlement.expect_operations_in_review().returning(|_, _| {
        Ok(vec![
            operation(WalletFlow::Buy, OperationState::ManualReview, 1),
            operation(WalletFlow::FlightTicketPurchase, OperationState::ManualReview, 1),
        ])
    });
    let listed = mocks
        .build_settlement()
        .operations_in_review(None)
        .await
        .expect("listed");
    let flows: Vec<_> = listed.iter().map(|op| op.flow).collect();
    assert_eq!(flows, [WalletFlow::Buy, WalletFlow::FlightTicketPurchase]);
    assert_eq!(listed[1].market_id, None);
    assert!(listed[1].ticket_id.is_some() && listed[1].flight_id.is_some());
}

#[tokio::test]
async fn a_lost_race_is_a_conflict_for_staff() {
    let mut mocks = review_of(WalletFlow::Redemption);
    mocks
        .trades
        .expect_apply()
        .returning(|_, _| Err(StoreError::Conflict(ChangedRecord::Redemption)));
    let error = mocks
        .build_settlement()
        .resolve_review(decision(ReviewFinding::NotApplied))
        .await
        .unwrap_err();
    assert!(
        matches!(
            error,
            AppError::Conflict {
                code: ProblemCode::ChangedMeanwhile,
                ..
            }
        ),
        "{error:?}"
    );
}
