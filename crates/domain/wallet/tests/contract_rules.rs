//! One test (or more) per wallet mutation rule of the operator contract, through the
//! public API only, for Opinion's flows and the flight product's. Each fails if its rule
//! is broken.

use std::collections::BTreeMap;

use opinion_core::{FlightId, Label, MarketId, RedemptionId, TicketId, TradeId, WalletOperationId};
use opinion_flight::Multiplier;
use opinion_market::{Outcome, Resolution};
use opinion_wallet::{
    Ambiguity, Amount, BuyCompensationMetadata, Classification, Currency, CurrencyNotAllowed, FlowMetadata, FlowRole,
    IdempotencyKey, MetadataError, MetadataKey, OperationState, Product, ReasonKey, RedemptionMetadata, RefusalCode,
    RemoteReference, ShareCount, StaffResolution, StartupAction, TicketPayoutMetadata, TicketPurchaseMetadata,
    TicketRefundMetadata, TradeMetadata, TransportOutcome, WalletFlow, WalletLogFinding, WalletMutation,
    WalletOperation, classify, validate_metadata,
};
use proptest::prelude::*;

const MARKET: u128 = 11;
const TRADE: u128 = 22;
const FLIGHT: u128 = 55;
const TICKET: u128 = 66;
const PURCHASE_OPERATION: u128 = 77;

fn trade(outcome: Outcome) -> TradeMetadata {
    TradeMetadata {
        market_id: MarketId::from_u128(MARKET),
        trade_id: TradeId::from_u128(TRADE),
        outcome,
        shares: ShareCount::new(40).unwrap(),
    }
}

fn metadata(flow: WalletFlow) -> FlowMetadata {
    match flow {
        WalletFlow::Buy => FlowMetadata::Buy(trade(Outcome::Yes)),
        WalletFlow::Sell => FlowMetadata::Sell(trade(Outcome::No)),
        WalletFlow::BuyCompensation => FlowMetadata::BuyCompensation(BuyCompensationMetadata {
            market_id: MarketId::from_u128(MARKET),
            trade_id: TradeId::from_u128(TRADE),
            compensated_operation_id: WalletOperationId::from_u128(33),
        }),
        WalletFlow::Redemption => FlowMetadata::Redemption(RedemptionMetadata {
            market_id: MarketId::from_u128(MARKET),
            redemption_id: RedemptionId::from_u128(44),
            resolution: Resolution::Yes,
        }),
        WalletFlow::FlightTicketPurchase => FlowMetadata::FlightTicketPurchase(TicketPurchaseMetadata {
            flight_id: FlightId::from_u128(FLIGHT),
            ticket_id: TicketId::from_u128(TICKET),
            auto_cash_out: None,
        }),
        WalletFlow::FlightTicketPayout => FlowMetadata::FlightTicketPayout(TicketPayoutMetadata {
            flight_id: FlightId::from_u128(FLIGHT),
            ticket_id: TicketId::from_u128(TICKET),
            multiplier: Multiplier::from_hundredths(346),
        }),
        WalletFlow::FlightTicketRefund => FlowMetadata::FlightTicketRefund(TicketRefundMetadata {
            flight_id: FlightId::from_u128(FLIGHT),
            ticket_id: TicketId::from_u128(TICKET),
            refund_of: WalletOperationId::from_u128(PURCHASE_OPERATION),
        }),
    }
}

fn mutation(flow: WalletFlow, amount: i64) -> WalletMutation {
    WalletMutation::new(
        "player-1",
        Amount::new(amount).unwrap(),
        "IDR".parse().unwrap(),
        metadata(flow),
    )
    .unwrap()
}

fn primaries() -> impl Iterator<Item = WalletFlow> {
    WalletFlow::ALL
        .into_iter()
        .filter(|flow| flow.role() == FlowRole::Primary)
}

fn ambiguous_answers() -> Vec<Classification> {
    let mut answers: Vec<_> = [
        TransportOutcome::TimedOut,
        TransportOutcome::ConnectionLostAfterSend,
        TransportOutcome::Answered { status: 500, body: b"" },
        TransportOutcome::Answered { status: 503, body: b"" },
        TransportOutcome::Answered { status: 429, body: b"" },
        TransportOutcome::Answered {
            status: 200,
            body: b"{}",
        },
        TransportOutcome::Answered {
            status: 418,
            body: b"teapot",
        },
        TransportOutcome::Answered {
            status: 409,
            body: br#"{"error":{"code":"idempotency_key_in_progress"}}"#,
        },
    ]
    .into_iter()
    .map(classify)
    .collect();
    answers.push(Classification::Ambiguous {
        why: Ambiguity::UnexpectedStatus { status: 302 },
    });
    answers
}

fn staff(finding: WalletLogFinding) -> StaffResolution {
    StaffResolution {
        resolved_by: Label::parse("platform-ops").unwrap(),
        finding,
        note: Label::parse("operator wallet log and balance operations checked").unwrap(),
    }
}

/// Rule 1: each flow's mutation carries its row of the matrix, and a missing field is named.
#[test]
fn rule_1_every_flow_carries_its_required_metadata() {
    for flow in WalletFlow::ALL {
        let sent = mutation(flow, 10).metadata_map();
        assert_eq!(validate_metadata(flow, &sent), Ok(metadata(flow)));
        let first = opinion_wallet::required_metadata(flow)[0];
        assert_eq!(
            validate_metadata(flow, &BTreeMap::new()),
            Err(MetadataError::Missing { flow, key: first })
        );
    }
}

/// Rule 2: the same action always carries the same key, and the same payload the same
/// fingerprint, so "same key, different payload" is detectable before it is sent.
#[test]
fn rule_2_same_key_same_payload() {
    for flow in WalletFlow::ALL {
        assert_eq!(
            mutation(flow, 10).idempotency_key(),
            mutation(flow, 10).idempotency_key()
        );
        assert_eq!(mutation(flow, 10).fingerprint(), mutation(flow, 10).fingerprint());
        assert_eq!(
            mutation(flow, 10).idempotency_key(),
            mutation(flow, 11).idempotency_key()
        );
        assert_ne!(mutation(flow, 10).fingerprint(), mutation(flow, 11).fingerprint());
    }
}

/// Rule 4: an ambiguous primary mutation ends in manual review, and from there nothing
/// automatic can happen: no resend, no new answer, no abandoning; only staff.
#[test]
fn ambiguous_primary_buy_goes_to_manual_review_never_back_to_prepared() {
    assert_eq!(
        primaries().collect::<Vec<_>>(),
        [
            WalletFlow::Buy,
            WalletFlow::Sell,
            WalletFlow::Redemption,
            WalletFlow::FlightTicketPurchase,
            WalletFlow::FlightTicketPayout
        ]
    );
    for flow in primaries() {
        for answer in ambiguous_answers() {
            let sent = WalletOperation::prepare(&mutation(flow, 10)).send().unwrap();
            let reviewed = sent.record_answer(&answer).unwrap();
            assert_eq!(reviewed.state(), OperationState::ManualReview, "{flow} {answer:?}");
            assert!(reviewed.send().is_err());
            assert!(reviewed.abandon().is_err());
            assert!(reviewed.record_answer(&Classification::NotSent).is_err());
            assert_eq!(reviewed.recover_at_startup().action, StartupAction::AwaitStaff);
            assert_eq!(
                reviewed.recover_at_startup().operation.state(),
                OperationState::ManualReview
            );
            let resolved = reviewed.resolve(&staff(WalletLogFinding::NotApplied)).unwrap();
            assert_eq!(resolved.state(), OperationState::ResolvedNotApplied);
        }
    }
}

/// Rule 4 after a crash: a primary found sent at start-up is ambiguous.
#[test]
fn primary_found_sent_at_startup_goes_to_manual_review() {
    for flow in primaries() {
        let sent = WalletOperation::prepare(&mutation(flow, 10)).send().unwrap();
        let recovery = sent.recover_at_startup();
        assert_eq!(recovery.operation.state(), OperationState::ManualReview);
        assert_eq!(recovery.action, StartupAction::AwaitStaff);
    }
}

/// Rule 4: a 2xx that cannot be read may still have moved money.
#[test]
fn an_unreadable_success_is_not_taken_as_a_refusal() {
    let answer = classify(TransportOutcome::Answered {
        status: 200,
        body: b"<html>ok</html>",
    });
    assert!(matches!(answer, Classification::Ambiguous { .. }));
}

/// Rules 5 and 6: a compensation's retries (after ambiguity or a crash) all carry the
/// key it was prepared with, and count their attempts.
#[test]
fn compensation_retries_keep_the_original_key() {
    let original = mutation(WalletFlow::BuyCompensation, 10).idempotency_key();
    let mut operation = WalletOperation::prepare(&mutation(WalletFlow::BuyCompensation, 10));
    for (attempt, answer) in ambiguous_answers().into_iter().enumerate() {
        operation = operation.send().unwrap();
        assert_eq!(operation.attempts() as usize, attempt + 1);
        operation = operation.record_answer(&answer).unwrap();
        assert_eq!(operation.state(), OperationState::Prepared, "{answer:?}");
        assert_eq!(operation.key(), &original);
    }
    let crashed = operation.send().unwrap().recover_at_startup();
    assert_eq!(crashed.action, StartupAction::Send);
    assert_eq!(crashed.operation.key(), &original);
    assert_eq!(
        original.to_string(),
        format!("buy_compensation:{}", TradeId::from_u128(TRADE))
    );
}

/// Rule 6's analogue for the flight product: a ticket refund gives a purchase debit
/// back, names the ticket and the purchase's operation, and its retries (after
/// ambiguity or a crash) all carry the key it was prepared with: the ticket's one
/// refund key.
#[test]
fn rule_6_a_ticket_refund_carries_its_ticket_and_purchase_and_retries_with_its_key() {
    let refund = mutation(WalletFlow::FlightTicketRefund, 10);
    let sent = refund.metadata_map();
    assert_eq!(sent["ticketId"], TicketId::from_u128(TICKET).to_string());
    assert_eq!(sent["flightId"], FlightId::from_u128(FLIGHT).to_string());
    assert_eq!(
        sent["refundOf"],
        WalletOperationId::from_u128(PURCHASE_OPERATION).to_string()
    );
    let original = refund.idempotency_key();
    assert_eq!(
        original.to_string(),
        format!("flight_ticket_refund:{}", TicketId::from_u128(TICKET))
    );
    let mut operation = WalletOperation::prepare(&refund);
    for (attempt, answer) in ambiguous_answers().into_iter().enumerate() {
        operation = operation.send().unwrap();
        assert_eq!(operation.attempts() as usize, attempt + 1);
        operation = operation.record_answer(&answer).unwrap();
        assert_eq!(operation.state(), OperationState::Prepared, "{answer:?}");
        assert_eq!(operation.key(), &original);
    }
    let crashed = operation.send().unwrap().recover_at_startup();
    assert_eq!(crashed.action, StartupAction::Send);
    assert_eq!(crashed.operation.key(), &original);
}

/// Rule 6: a compensation is never given up and never sent to review for ambiguity.
#[test]
fn a_compensation_is_retried_until_a_definite_answer() {
    for flow in [WalletFlow::BuyCompensation, WalletFlow::FlightTicketRefund] {
        let prepared = WalletOperation::prepare(&mutation(flow, 10));
        assert!(prepared.abandon().is_err(), "{flow}");
        let applied = prepared
            .send()
            .unwrap()
            .record_answer(&classify(TransportOutcome::Answered {
                status: 200,
                body: br#"{"status":"applied","remoteReference":"c-1","balance":"10"}"#,
            }))
            .unwrap();
        assert_eq!(applied.state(), OperationState::Applied, "{flow}");
    }
}

/// Rules 6 and 8: every trade mutation, the compensation included, carries `marketId`.
#[test]
fn rule_6_and_8_every_mutation_carries_the_market_id() {
    for flow in WalletFlow::OPINION {
        let sent = mutation(flow, 10).metadata_map();
        assert_eq!(
            sent.get(MetadataKey::MarketId.as_str()).map(String::as_str),
            Some(MarketId::from_u128(MARKET).to_string().as_str()),
            "{flow}"
        );
    }
}

/// Rule 8's analogue: every flight mutation names its flight and ticket (the operator
/// ties a player's flight money to tickets with them), and no market.
#[test]
fn every_flight_mutation_carries_the_flight_and_the_ticket() {
    for flow in WalletFlow::FLIGHT {
        let sent = mutation(flow, 10).metadata_map();
        assert_eq!(sent["flightId"], FlightId::from_u128(FLIGHT).to_string(), "{flow}");
        assert_eq!(sent["ticketId"], TicketId::from_u128(TICKET).to_string(), "{flow}");
        assert!(!sent.contains_key(MetadataKey::MarketId.as_str()), "{flow}");
    }
}

/// Rules 2 and 5 for the flight product: one purchase, one payout and one refund per
/// ticket, forever: each is keyed by the ticket, and the three never share a key.
#[test]
fn a_ticket_has_one_key_per_action() {
    let keys: Vec<_> = WalletFlow::FLIGHT
        .into_iter()
        .map(|flow| mutation(flow, 10).idempotency_key().to_string())
        .collect();
    let ticket = TicketId::from_u128(TICKET);
    assert_eq!(
        keys,
        [
            format!("flight_ticket_purchase:{ticket}"),
            format!("flight_ticket_payout:{ticket}"),
            format!("flight_ticket_refund:{ticket}"),
        ]
    );
}

/// Rule 10: flight mutations are native-IDR; one in another currency cannot be built.
#[test]
fn rule_10_flight_money_is_always_idr() {
    let usd: Currency = "USD".parse().unwrap();
    for flow in WalletFlow::FLIGHT {
        assert_eq!(
            WalletMutation::new("player-1", Amount::new(10).unwrap(), usd, metadata(flow)),
            Err(CurrencyNotAllowed {
                flow,
                product: Product::Flight,
                required: Currency::IDR,
                found: usd
            })
        );
        assert_eq!(mutation(flow, 10).currency(), Currency::IDR);
    }
    for flow in WalletFlow::OPINION {
        let built = WalletMutation::new("player-1", Amount::new(10).unwrap(), usd, metadata(flow));
        assert_eq!(built.map(|m| m.currency()), Ok(usd));
    }
}

/// Rule 7: what staff reconcile with is kept: the wallet's reference of an applied answer.
#[test]
fn rule_7_an_applied_answer_keeps_the_remote_reference() {
    let answer = classify(TransportOutcome::Answered {
        status: 201,
        body: br#"{"status":"applied","remoteReference":"W-778","balance":"0"}"#,
    });
    let Classification::Applied { remote_reference, .. } = answer else {
        panic!("not applied: {answer:?}");
    };
    assert_eq!(remote_reference, RemoteReference::parse("W-778").unwrap());
}

/// Rule 10: the existing reason keys are stable.
#[test]
fn rule_10_reason_keys_are_stable() {
    let keys: Vec<_> = WalletFlow::ALL
        .into_iter()
        .map(|flow| mutation(flow, 10).reason())
        .collect();
    assert_eq!(
        keys,
        [
            "opinion.buy",
            "opinion.sell",
            "opinion.buy_compensation",
            "opinion.redemption",
            "flight_ticket_purchase",
            "flight_ticket_payout",
            "flight_ticket_refund"
        ]
        .map(|k| k.parse::<ReasonKey>().unwrap())
    );
}

/// A definite refusal settles a primary: nothing moved, nothing to review.
#[test]
fn a_definite_refusal_is_final() {
    for flow in [WalletFlow::Buy, WalletFlow::FlightTicketPurchase] {
        let refused = WalletOperation::prepare(&mutation(flow, 10))
            .send()
            .unwrap()
            .record_answer(&Classification::Rejected {
                code: RefusalCode::InsufficientFunds,
            })
            .unwrap();
        assert_eq!(refused.state(), OperationState::Rejected, "{flow}");
        assert!(refused.send().is_err(), "{flow}");
    }
}

#[derive(Debug, Clone)]
enum Event {
    Send,
    Answer(Classification),
    Abandon,
    Resolve(bool),
    Restart,
}

fn events() -> impl Strategy<Value = Event> {
    let answers = {
        let mut all = ambiguous_answers();
        all.push(Classification::NotSent);
        all.push(Classification::Rejected {
            code: RefusalCode::UserBlocked,
        });
        all.push(Classification::Rejected {
            code: RefusalCode::IdempotencyKeyReused,
        });
        all.push(Classification::Applied {
            remote_reference: RemoteReference::parse("r").unwrap(),
            balance: 1,
        });
        all
    };
    prop_oneof![
        Just(Event::Send),
        proptest::sample::select(answers).prop_map(Event::Answer),
        Just(Event::Abandon),
        any::<bool>().prop_map(Event::Resolve),
        Just(Event::Restart),
    ]
}

fn apply(operation: &WalletOperation, event: &Event) -> WalletOperation {
    let next = match event {
        Event::Send => operation.send(),
        Event::Answer(answer) => operation.record_answer(answer),
        Event::Abandon => operation.abandon(),
        Event::Resolve(applied) => operation.resolve(&staff(if *applied {
            WalletLogFinding::Applied {
                remote_reference: RemoteReference::parse("r").unwrap(),
            }
        } else {
            WalletLogFinding::NotApplied
        })),
        Event::Restart => Ok(operation.recover_at_startup().operation),
    };
    next.unwrap_or_else(|_| operation.clone())
}

proptest! {
    /// Rules 3, 4 and 5 over any history: the key never changes, terminal states are
    /// final, a primary never goes from sent back to prepared unless the request
    /// provably never left, and manual review is left only by a staff resolution.
    #[test]
    fn no_history_breaks_the_state_machine(
        flow in proptest::sample::select(WalletFlow::ALL.to_vec()),
        history in proptest::collection::vec(events(), 0..40),
    ) {
        let mut operation = WalletOperation::prepare(&mutation(flow, 10));
        let key: IdempotencyKey = operation.key().clone();
        for event in &history {
            let next = apply(&operation, event);
            prop_assert_eq!(next.key(), &key);
            prop_assert_eq!(next.flow(), flow);
            let (from, to) = (operation.state(), next.state());
            if from.is_terminal() {
                prop_assert_eq!(to, from);
            }
            if from == OperationState::ManualReview && to != from {
                prop_assert!(matches!(event, Event::Resolve(_)));
            }
            if flow.role() == FlowRole::Primary && from == OperationState::Sent && to == OperationState::Prepared {
                prop_assert!(matches!(event, Event::Answer(Classification::NotSent)));
            }
            prop_assert!(next.attempts() >= operation.attempts());
            operation = next;
        }
    }
}
