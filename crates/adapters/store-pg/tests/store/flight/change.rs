//! A step of the game is stored whole, with its wallet operations and events, or not at
//! all when any of its preconditions no longer holds.

use opinion_app::flight::ports::{FlightChange, FlightStore, FlightUpdate, TicketUpdate};
use opinion_app::model::WalletOperationStep;
use opinion_app::opinion::settlement::ports::SettlementStore;
use opinion_app::opinion::trading::ports::OperationUpdate;

use super::*;

struct Boarded {
    db: TestDatabase,
    store: PgStore,
    flight: FlightRecord,
    a: TicketRecord,
    b: TicketRecord,
}

/// Flight 1 boarding with two pending tickets of two players of operator 1.
async fn boarded() -> Boarded {
    let (db, store) = flight_store().await;
    given_operator_with_players(&store, 1, 2).await;
    let flight = given_flight(&store, 1).await;
    let (a, b) = (ticket(1, 1, 1, &flight), ticket(1, 2, 2, &flight));
    for ticket in [&a, &b] {
        store.open_ticket(&new_ticket(ticket)).await.expect("open");
    }
    Boarded {
        db,
        store,
        flight,
        a,
        b,
    }
}

fn moved(ticket: &TicketRecord, expected: TicketStatus, status: TicketStatus) -> TicketUpdate {
    let mut after = ticket.clone();
    after.status = status;
    after.updated_at = at(3_600);
    TicketUpdate {
        expected,
        ticket: after,
    }
}

/// Take-off with both tickets active, a refund prepared and an event: `b_expected` is
/// what the step believes ticket b is in.
fn take_off(t: &Boarded, b_expected: TicketStatus) -> FlightChange {
    let mut flying = t.flight.clone();
    flying.phase = FlightPhase::InFlight;
    FlightChange {
        flight: Some(FlightUpdate {
            expected: FlightPhase::Boarding,
            flight: flying,
        }),
        tickets: vec![
            moved(&t.a, TicketStatus::Pending, TicketStatus::Active),
            moved(&t.b, b_expected, TicketStatus::Active),
        ],
        new_operations: vec![new_operation(
            operation(&t.a, WalletFlow::FlightTicketRefund, OperationState::Prepared),
            Some(T0),
        )],
        events: vec![event(&t.a, 1)],
        ..FlightChange::default()
    }
}

async fn events(db: &TestDatabase) -> i64 {
    count(db, "SELECT count(*) AS count FROM webhook_events").await
}

#[tokio::test]
async fn a_failing_ticket_precondition_stores_nothing_of_the_step() {
    let t = boarded().await;

    let applied = t
        .store
        .apply_flight_change(&take_off(&t, TicketStatus::Active))
        .await
        .expect("apply");

    assert!(!applied);
    assert_eq!(
        t.store.find_flight(t.flight.id).await.expect("find"),
        Some(t.flight.clone())
    );
    for ticket in [&t.a, &t.b] {
        let found = t.store.find_ticket(operator_id(1), ticket.id).await.expect("find");
        assert_eq!(found.as_ref(), Some(ticket));
    }
    let refunds = count(
        &t.db,
        "SELECT count(*) AS count FROM wallet_operations WHERE flow = 'flight_ticket_refund'",
    )
    .await;
    assert_eq!(refunds, 0);
    assert_eq!(events(&t.db).await, 0);
}

#[tokio::test]
async fn a_step_commits_its_flight_tickets_operations_and_events_together() {
    let t = boarded().await;
    let change = take_off(&t, TicketStatus::Pending);

    assert!(t.store.apply_flight_change(&change).await.expect("apply"));

    let flight = t.store.find_flight(t.flight.id).await.expect("find").expect("flight");
    assert_eq!(flight.phase, FlightPhase::InFlight);
    for update in &change.tickets {
        let found = t
            .store
            .find_ticket(operator_id(1), update.ticket.id)
            .await
            .expect("find");
        assert_eq!(found.as_ref(), Some(&update.ticket));
    }
    let refund = &change.new_operations[0].record;
    assert_eq!(
        t.store.find_operation_by_id(refund.id).await.expect("find").as_ref(),
        Some(refund)
    );
    let stored = count(
        &t.db,
        &format!(
            "SELECT count(*) AS count FROM webhook_events WHERE operator_id = '{}' \
             AND event_type = 'mini_app.flight.ticket.purchased'",
            sql_id(operator_id(1))
        ),
    )
    .await;
    assert_eq!(stored, 1, "the event is in the outbox with its step");

    assert!(
        !t.store.apply_flight_change(&change).await.expect("again"),
        "the flight is no longer boarding"
    );
    assert_eq!(events(&t.db).await, 1);
}

#[tokio::test]
async fn a_flight_that_moved_meanwhile_refuses_a_step_held_against_it() {
    let t = boarded().await;
    assert!(
        t.store
            .apply_flight_change(&take_off(&t, TicketStatus::Pending))
            .await
            .expect("take off")
    );
    let a = t
        .store
        .find_ticket(operator_id(1), t.a.id)
        .await
        .expect("find")
        .expect("a");
    let cash_out = FlightChange {
        flight_must_be: Some((t.flight.id, FlightPhase::Boarding)),
        tickets: vec![moved(&a, TicketStatus::Active, TicketStatus::Lost)],
        events: vec![event(&a, 2)],
        ..FlightChange::default()
    };

    assert!(!t.store.apply_flight_change(&cash_out).await.expect("refused"));
    assert_eq!(
        t.store.find_ticket(operator_id(1), a.id).await.expect("find"),
        Some(a.clone())
    );
    assert_eq!(events(&t.db).await, 1);

    let held = FlightChange {
        flight_must_be: Some((t.flight.id, FlightPhase::InFlight)),
        ..cash_out
    };
    assert!(t.store.apply_flight_change(&held).await.expect("applied"));
    assert_eq!(events(&t.db).await, 2);
}

#[tokio::test]
async fn an_operation_in_another_state_refuses_the_step() {
    let t = boarded().await;
    let purchase = operation(&t.a, WalletFlow::FlightTicketPurchase, OperationState::Sent);
    let mut applied = purchase.clone();
    applied.state = OperationState::Applied;
    applied.answered_at = Some(at(2));
    let update = |expected| OperationUpdate {
        id: purchase.id,
        expected,
        record: applied.clone(),
        next_attempt_at: None,
        resolution: None,
        step: WalletOperationStep {
            state: OperationState::Applied,
            http_status: Some(200),
            detail: None,
            at: at(2),
        },
    };
    let answered = |expected| FlightChange {
        tickets: vec![moved(&t.a, TicketStatus::Pending, TicketStatus::Active)],
        operation: Some(update(expected)),
        ..FlightChange::default()
    };

    assert!(
        !t.store
            .apply_flight_change(&answered(OperationState::Prepared))
            .await
            .expect("refused")
    );
    assert_eq!(
        t.store.find_ticket(operator_id(1), t.a.id).await.expect("find"),
        Some(t.a.clone())
    );
    assert_eq!(
        t.store.find_operation_by_id(purchase.id).await.expect("find"),
        Some(purchase.clone())
    );

    assert!(
        t.store
            .apply_flight_change(&answered(OperationState::Sent))
            .await
            .expect("applied")
    );
    assert_eq!(
        t.store.find_operation_by_id(purchase.id).await.expect("find"),
        Some(applied)
    );
}
