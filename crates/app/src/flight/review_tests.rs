//! Staff resolving the flight product's operations in manual review: the ticket moves
//! with the operation in one step, and nothing is written when the decision is refused.

use std::sync::Arc;

use opinion_core::{FlightTermsId, WalletOperationId};
use opinion_flight::{Multiplier, Rupiah, ShareBps, TicketStatus};
use opinion_wallet::{OperationState, WalletFlow};
use opinion_webhook::EventType;

use crate::error::{AppError, ProblemCode};
use crate::flight::events::RefundReason;
use crate::flight::model::TicketRecord;
use crate::flight::{FlightGame, FlightPorts};
use crate::model::WalletOperationRecord;
use crate::test_support::flight::{ManualClock, MemoryFlightStore, settings};
use crate::test_support::settlement::{FLIGHT, TICKET, operation};
use crate::test_support::{NOW, counting_random};
use crate::wallet::{ReviewDecision, ReviewFinding};

fn game(store: &MemoryFlightStore) -> FlightGame {
    let mocks = crate::test_support::trading::TradingMocks::default();
    let ports = FlightPorts {
        store: Arc::new(store.clone()),
        operators: Arc::new(mocks.operators),
        wallet_adapters: Arc::new(mocks.wallet_adapters),
        wallet: Arc::new(mocks.wallet),
        wallet_test_runs: Arc::new(crate::wallet::ports::MockWalletTestRunStore::new()),
        webhooks: Arc::new(crate::webhooks::store::MockWebhookStore::new()),
        transactions: Arc::new(crate::ports::WithoutTransactions),
        clock: ManualClock::at(NOW),
        random: counting_random(1_000, [9; 32]),
    };
    FlightGame::new(ports, settings())
}

/// The ticket `operation` belongs to, in `status`.
fn ticket_of(operation: &WalletOperationRecord, status: TicketStatus) -> TicketRecord {
    let cashed_out = status == TicketStatus::CashedOut;
    TicketRecord {
        operator_id: operation.operator_id,
        id: TICKET,
        flight_id: FLIGHT,
        user_id: operation.user_id,
        external_user_id: operation.external_user_id.clone(),
        client_ticket_id: "c-1".into(),
        stake: Rupiah::new(10_000).expect("stake"),
        auto_cash_out: None,
        status,
        terms_id: FlightTermsId::from_u128(1),
        share_bps: ShareBps::new(1_500).expect("bps"),
        max_payout: Rupiah::new(1_000_000_000).expect("max"),
        purchase_operation_id: WalletOperationId::from_u128(500),
        cash_out: cashed_out.then(|| Multiplier::from_hundredths(200)),
        cashed_out_at: cashed_out.then_some(NOW),
        payout: cashed_out.then(|| Rupiah::new(20_000).expect("payout")),
        refund_reason: None,
        failure_reason: None,
        created_at: NOW,
        updated_at: NOW,
        settled_at: None,
    }
}

/// A store holding one operation of `flow` in `state` and its ticket in `status`.
fn given(flow: WalletFlow, state: OperationState, status: TicketStatus) -> (MemoryFlightStore, WalletOperationRecord) {
    let store = MemoryFlightStore::default();
    let operation = operation(flow, state, 1);
    let ticket = ticket_of(&operation, status);
    let mut memory = store.memory();
    memory.tickets.insert(ticket.id, ticket);
    memory.operations.push(operation.clone());
    drop(memory);
    (store, operation)
}

fn decision(operation: &WalletOperationRecord, finding: ReviewFinding) -> ReviewDecision {
    ReviewDecision {
        operation_id: operation.id,
        finding,
        resolved_by: "ops-ana".into(),
        note: "wallet log line 88".into(),
    }
}

fn applied() -> ReviewFinding {
    ReviewFinding::Applied {
        remote_reference: "tx-41".into(),
    }
}

fn resolutions(store: &MemoryFlightStore) -> Vec<String> {
    store
        .memory()
        .events
        .iter()
        .filter(|event| event.event_type == EventType::WalletOperationManualReviewResolved)
        .map(|event| event.data["resolution"].as_str().unwrap_or_default().to_owned())
        .collect()
}

#[tokio::test]
async fn a_debit_found_applied_is_refunded_because_the_ticket_never_flew() {
    let purchase = WalletFlow::FlightTicketPurchase;
    let (store, operation) = given(purchase, OperationState::ManualReview, TicketStatus::Review);

    let resolved = game(&store)
        .resolve_review(decision(&operation, applied()))
        .await
        .expect("resolved");

    assert_eq!(resolved.operation.state, OperationState::ResolvedApplied);
    assert_eq!(resolved.operation.remote_reference.as_deref(), Some("tx-41"));
    assert_eq!(resolved.ticket.status, TicketStatus::Refunding);
    assert_eq!(resolved.ticket.refund_reason, Some(RefundReason::Review));
    let memory = store.memory();
    let refund = memory
        .operations
        .iter()
        .find(|op| op.flow == WalletFlow::FlightTicketRefund)
        .expect("a refund owed");
    assert_eq!(
        (refund.state, refund.amount, refund.ticket_id),
        (OperationState::Prepared, 10_000, Some(TICKET))
    );
    drop(memory);
    assert_eq!(resolutions(&store), ["applied"]);
}

#[tokio::test]
async fn a_debit_found_not_applied_rejects_the_ticket_and_moves_no_money() {
    let purchase = WalletFlow::FlightTicketPurchase;
    let (store, operation) = given(purchase, OperationState::ManualReview, TicketStatus::Review);

    let resolved = game(&store)
        .resolve_review(decision(&operation, ReviewFinding::NotApplied))
        .await
        .expect("resolved");

    assert_eq!(resolved.operation.state, OperationState::ResolvedNotApplied);
    assert_eq!(resolved.ticket.status, TicketStatus::Rejected);
    assert_eq!(resolved.ticket.settled_at, Some(NOW));
    assert_eq!(store.memory().operations.len(), 1, "no refund");
    assert_eq!(resolutions(&store), ["not_applied"]);
}

#[tokio::test]
async fn a_payout_found_applied_settles_its_ticket_and_one_found_not_applied_stays_owed() {
    let payout = WalletFlow::FlightTicketPayout;
    let (store, operation) = given(payout, OperationState::ManualReview, TicketStatus::CashedOut);
    let resolved = game(&store)
        .resolve_review(decision(&operation, applied()))
        .await
        .expect("resolved");
    assert_eq!(
        (resolved.ticket.status, resolved.ticket.settled_at),
        (TicketStatus::CashedOut, Some(NOW))
    );

    let (store, operation) = given(payout, OperationState::ManualReview, TicketStatus::CashedOut);
    let resolved = game(&store)
        .resolve_review(decision(&operation, ReviewFinding::NotApplied))
        .await
        .expect("resolved");
    assert_eq!(resolved.operation.state, OperationState::ResolvedNotApplied);
    assert_eq!(
        (resolved.ticket.status, resolved.ticket.settled_at),
        (TicketStatus::CashedOut, None)
    );
    assert_eq!(store.memory().operations.len(), 1, "never sent again");
}

#[tokio::test]
async fn an_operation_not_in_review_or_of_another_product_is_refused_and_nothing_is_written() {
    let purchase = WalletFlow::FlightTicketPurchase;
    let (store, operation) = given(purchase, OperationState::Applied, TicketStatus::Active);
    let error = game(&store)
        .resolve_review(decision(&operation, applied()))
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

    let (store, operation) = given(WalletFlow::Buy, OperationState::ManualReview, TicketStatus::Review);
    let error = game(&store)
        .resolve_review(decision(&operation, applied()))
        .await
        .unwrap_err();
    assert!(matches!(error, AppError::NotFound(_)), "{error:?}");
    let memory = store.memory();
    assert!(memory.events.is_empty());
    assert_eq!(memory.tickets[&TICKET].status, TicketStatus::Review);
}

#[tokio::test]
async fn a_ticket_that_is_not_in_review_refuses_the_resolution_whole() {
    let purchase = WalletFlow::FlightTicketPurchase;
    let (store, operation) = given(purchase, OperationState::ManualReview, TicketStatus::Active);
    let error = game(&store)
        .resolve_review(decision(&operation, ReviewFinding::NotApplied))
        .await
        .unwrap_err();
    assert!(matches!(error, AppError::Internal(_)), "{error:?}");
    let memory = store.memory();
    assert_eq!(memory.operations[0].state, OperationState::ManualReview);
    assert!(memory.events.is_empty());
}
