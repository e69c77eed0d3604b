//! New tickets (a repeated client ticket id refused by its key, alone and under
//! concurrency; boarding closed; the cap under concurrency), ticket reads
//! (scoped to their operator, newest first; by client ticket id, to its player), the
//! driver's reads of a flight (a batch in lock order; the tickets due) and a purchase's
//! reads asked for together inside its step.

use std::sync::Arc;

use opinion_app::flight::ports::{FlightChange, FlightStore, FlightUpdate, TicketFilter, TicketOpening, TicketUpdate};
use opinion_app::ports::{StoreError, Transactions, UniqueKey};

use super::production_authorizations::authorization;
use super::*;

/// How the store answers a purchase of `ticket`.
async fn opening(store: &PgStore, ticket: &TicketRecord) -> TicketOpening {
    store.open_ticket(&new_ticket(ticket)).await.expect("open")
}

async fn opened(store: &PgStore, ticket: &TicketRecord) {
    assert_eq!(opening(store, ticket).await, TicketOpening::Opened);
}

/// How the store answers purchases of `tickets` sent all at once.
async fn openings_at_once(
    store: &Arc<PgStore>,
    tickets: impl IntoIterator<Item = TicketRecord>,
) -> Vec<Result<TicketOpening, StoreError>> {
    let attempts: Vec<_> = tickets
        .into_iter()
        .map(|ticket| {
            let (store, new) = (Arc::clone(store), new_ticket(&ticket));
            tokio::spawn(async move { store.open_ticket(&new).await })
        })
        .collect();
    let mut outcomes = Vec::new();
    for attempt in attempts {
        outcomes.push(attempt.await.expect("task"));
    }
    outcomes
}

/// `flight` leaving boarding for `phase`, as the driver moves it.
fn boarding_ends(flight: &FlightRecord, phase: FlightPhase) -> FlightChange {
    let mut after = flight.clone();
    after.phase = phase;
    FlightChange {
        flight: Some(FlightUpdate {
            expected: FlightPhase::Boarding,
            flight: after,
        }),
        ..FlightChange::default()
    }
}

#[tokio::test]
async fn a_ticket_is_stored_with_its_purchase_and_a_repeat_is_refused_by_its_key() {
    let (db, store) = flight_store().await;
    given_operator_with_players(&store, 1, 1).await;
    let flight = given_flight(&store, 1).await;
    let first = ticket(1, 1, 1, &flight);
    opened(&store, &first).await;

    let mut repeat = ticket(1, 1, 2, &flight);
    repeat.client_ticket_id = first.client_ticket_id.clone();
    let refused = store.open_ticket(&new_ticket(&repeat)).await;

    assert!(
        matches!(refused, Err(StoreError::Duplicate(UniqueKey::ClientTicket))),
        "{refused:?}"
    );
    assert_eq!(
        store.find_ticket(operator_id(1), first.id).await.expect("find"),
        Some(first.clone())
    );
    assert_eq!(store.find_ticket(operator_id(1), repeat.id).await.expect("find"), None);
    let purchases = count(
        &db,
        "SELECT count(*) AS count FROM wallet_operations \
         WHERE flow = 'flight_ticket_purchase' AND state = 'sent' AND ticket_id IS NOT NULL",
    )
    .await;
    assert_eq!(purchases, 1);
}

#[tokio::test]
async fn a_client_ticket_id_finds_its_players_ticket_only() {
    let (_db, store) = flight_store().await;
    given_operator_with_players(&store, 1, 2).await;
    given_operator_with_players(&store, 2, 1).await;
    let flight = given_flight(&store, 1).await;
    let bought = ticket(1, 1, 1, &flight);
    opened(&store, &bought).await;
    let client = bought.client_ticket_id.as_str();

    let found = store
        .find_client_ticket(operator_id(1), user_id(1, 1), client)
        .await
        .expect("find");
    let other_player = store
        .find_client_ticket(operator_id(1), user_id(1, 2), client)
        .await
        .expect("other player");
    let other_operator = store
        .find_client_ticket(operator_id(2), user_id(2, 1), client)
        .await
        .expect("other operator");
    let other_id = store
        .find_client_ticket(operator_id(1), user_id(1, 1), "client-2")
        .await
        .expect("other id");

    assert_eq!(found, Some(bought));
    assert_eq!((other_player, other_operator, other_id), (None, None, None));
}

#[tokio::test]
async fn no_ticket_once_boarding_closed() {
    let (db, store) = flight_store().await;
    given_operator_with_players(&store, 1, 1).await;
    let flight = given_flight(&store, 1).await;
    let take_off = boarding_ends(&flight, FlightPhase::InFlight);
    assert!(store.apply_flight_change(&take_off).await.expect("take off"));

    let refused = opening(&store, &ticket(1, 1, 1, &flight)).await;

    assert_eq!(refused, TicketOpening::BoardingClosed);
    assert_eq!(count(&db, "SELECT count(*) AS count FROM flight_tickets").await, 0);
    assert_eq!(count(&db, "SELECT count(*) AS count FROM wallet_operations").await, 0);
}

#[tokio::test]
async fn concurrent_purchases_of_one_player_stop_at_the_cap() {
    let (db, store) = flight_store().await;
    given_operator_with_players(&store, 1, 1).await;
    let flight = given_flight(&store, 1).await;
    let store = Arc::new(store);

    let outcomes: Vec<TicketOpening> = openings_at_once(&store, (1..=6).map(|n| ticket(1, 1, n, &flight)))
        .await
        .into_iter()
        .map(|outcome| outcome.expect("open"))
        .collect();

    let opened = outcomes.iter().filter(|o| **o == TicketOpening::Opened).count();
    let capped = outcomes.iter().filter(|o| **o == TicketOpening::CapReached).count();
    assert_eq!((opened, capped), (2, 4), "{outcomes:?}");
    assert_eq!(count(&db, "SELECT count(*) AS count FROM flight_tickets").await, 2);
    assert_eq!(count(&db, "SELECT count(*) AS count FROM wallet_operations").await, 2);
}

#[tokio::test]
async fn of_concurrent_twin_purchases_one_is_stored_and_the_others_refused_by_its_key() {
    let (db, store) = flight_store().await;
    given_operator_with_players(&store, 1, 1).await;
    let flight = given_flight(&store, 1).await;
    let store = Arc::new(store);

    let twins = (1..=4).map(|n| TicketRecord {
        client_ticket_id: "client-twin".into(),
        ..ticket(1, 1, n, &flight)
    });
    let outcomes = openings_at_once(&store, twins).await;

    let opened = outcomes
        .iter()
        .filter(|o| matches!(o, Ok(TicketOpening::Opened)))
        .count();
    let refused = outcomes
        .iter()
        .filter(|o| matches!(o, Err(StoreError::Duplicate(UniqueKey::ClientTicket))))
        .count();
    assert_eq!((opened, refused), (1, 3), "{outcomes:?}");
    assert_eq!(count(&db, "SELECT count(*) AS count FROM flight_tickets").await, 1);
    assert_eq!(count(&db, "SELECT count(*) AS count FROM wallet_operations").await, 1);
    assert_eq!(
        count(&db, "SELECT held::bigint AS count FROM flight_held_tickets").await,
        1,
        "the refused twins took no place"
    );
}

#[tokio::test]
async fn a_rejected_ticket_does_not_count_against_the_cap() {
    let (db, store) = flight_store().await;
    given_operator_with_players(&store, 1, 1).await;
    let flight = given_flight(&store, 1).await;
    let mut rejected = ticket(1, 1, 1, &flight);
    rejected.status = TicketStatus::Rejected;
    opened(&store, &rejected).await;
    opened(&store, &ticket(1, 1, 2, &flight)).await;
    opened(&store, &ticket(1, 1, 3, &flight)).await;

    let capped = opening(&store, &ticket(1, 1, 4, &flight)).await;

    assert_eq!(capped, TicketOpening::CapReached);
    assert_eq!(count(&db, "SELECT count(*) AS count FROM flight_tickets").await, 3);
}

#[tokio::test]
async fn tickets_are_read_per_operator_newest_first() {
    let (_db, store) = flight_store().await;
    given_operator_with_players(&store, 1, 2).await;
    given_operator_with_players(&store, 2, 1).await;
    let flight = given_flight(&store, 1).await;
    let (a, b, c) = (
        ticket(1, 1, 1, &flight),
        ticket(1, 2, 2, &flight),
        ticket(1, 1, 3, &flight),
    );
    let other = ticket(2, 1, 4, &flight);
    for ticket in [&a, &b, &c, &other] {
        opened(&store, ticket).await;
    }
    let all = TicketFilter {
        user: None,
        flight: None,
        from: None,
        to: None,
    };

    assert_eq!(store.find_ticket(operator_id(2), a.id).await.expect("find"), None);
    assert_eq!(
        store.find_ticket(operator_id(2), other.id).await.expect("find"),
        Some(other.clone())
    );
    let page = store.tickets(operator_id(1), all, None, 2).await.expect("page");
    assert_eq!(page, vec![c.clone(), b.clone()]);
    let next = store.tickets(operator_id(1), all, Some(b.id), 2).await.expect("next");
    assert_eq!(next, vec![a.clone()]);
    let player = TicketFilter {
        user: Some(user_id(1, 1)),
        flight: Some(flight.id),
        ..all
    };
    assert_eq!(
        store.tickets(operator_id(1), player, None, 10).await.expect("player"),
        vec![c.clone(), a.clone()]
    );
    let window = TicketFilter {
        from: Some(b.created_at),
        to: Some(c.created_at),
        ..all
    };
    assert_eq!(
        store.tickets(operator_id(1), window, None, 10).await.expect("window"),
        vec![b.clone()]
    );

    let pending = store
        .flight_tickets(flight.id, &[TicketStatus::Pending], 10)
        .await
        .expect("of flight");
    assert_eq!(
        pending,
        vec![a, b, c, other],
        "every operator's, in the order a step locks them"
    );
    let limited = store
        .flight_tickets(flight.id, &[TicketStatus::Pending], 2)
        .await
        .expect("limited");
    assert_eq!(limited.len(), 2);
    assert!(limited.iter().all(|ticket| pending.contains(ticket)), "{limited:?}");
    assert!(
        limited[0].operator_id < limited[1].operator_id
            || (limited[0].operator_id == limited[1].operator_id && limited[0].id < limited[1].id),
        "in the order a step locks them: {limited:?}"
    );
    assert_eq!(
        store
            .flight_tickets(flight.id, &[TicketStatus::Active], 10)
            .await
            .expect("none"),
        vec![]
    );
}

#[tokio::test]
async fn the_tickets_due_are_the_active_ones_whose_target_the_curve_reached() {
    let (_db, store) = flight_store().await;
    given_operator_with_players(&store, 1, 3).await;
    given_operator_with_players(&store, 2, 1).await;
    let flight = given_flight(&store, 1).await;
    let with_target = |operator, player, n, target: Option<u64>| TicketRecord {
        auto_cash_out: target.map(Multiplier::from_hundredths),
        ..ticket(operator, player, n, &flight)
    };
    let at_120 = with_target(1, 1, 1, Some(120));
    let at_200 = with_target(1, 2, 2, Some(200));
    let without = with_target(1, 3, 3, None);
    let at_150 = with_target(1, 1, 4, Some(150));
    let other_at_110 = with_target(2, 1, 5, Some(110));
    let still_pending_at_101 = with_target(1, 2, 6, Some(101));
    let flying = [&at_120, &at_200, &without, &at_150, &other_at_110];
    for ticket in flying.iter().copied().chain([&still_pending_at_101]) {
        opened(&store, ticket).await;
    }
    let taken_off = FlightChange {
        flight_must_be: Some((flight.id, FlightPhase::Boarding)),
        tickets: flying
            .iter()
            .map(|ticket| TicketUpdate {
                expected: TicketStatus::Pending,
                ticket: TicketRecord {
                    status: TicketStatus::Active,
                    ..(*ticket).clone()
                },
            })
            .collect(),
        ..FlightChange::default()
    };
    assert!(store.apply_flight_change(&taken_off).await.expect("active"));
    let active = |ticket: &TicketRecord| TicketRecord {
        status: TicketStatus::Active,
        ..ticket.clone()
    };
    let due = |reached, limit| {
        let store = &store;
        async move {
            store
                .tickets_due(flight.id, Multiplier::from_hundredths(reached), limit)
                .await
                .expect("due")
        }
    };

    assert_eq!(
        due(150, 10).await,
        vec![active(&at_120), active(&at_150), active(&other_at_110)],
        "targets at most 1.50x, every operator's, in lock order"
    );
    assert_eq!(due(119, 10).await, vec![active(&other_at_110)]);
    assert_eq!(due(109, 10).await, vec![], "a pending ticket is not due");
    let two = due(150, 2).await;
    assert_eq!(two.len(), 2);
    assert!(
        two.iter()
            .all(|ticket| [120, 150, 110].contains(&ticket.auto_cash_out.expect("target").hundredths()))
    );
}

#[tokio::test]
async fn a_purchases_reads_asked_for_together_inside_a_step_see_its_uncommitted_writes() {
    let (_db, store) = flight_store().await;
    let mut read = None;
    store
        .run(Box::pin(async {
            given_operator_with_players(&store, 1, 1).await;
            let boarding = given_flight(&store, 1).await;
            store.save_enablement(&enablement(1)).await.expect("enable");
            store
                .add_production_authorization(&authorization(1, T0, None))
                .await
                .expect("authorize");
            let bought = ticket(1, 1, 1, &boarding);
            opened(&store, &bought).await;
            let op = operator_id(1);
            let (first, enablement, authorizations, latest, terms) = tokio::join!(
                store.find_client_ticket(op, bought.user_id, &bought.client_ticket_id),
                store.find_enablement(op),
                store.production_authorizations(op),
                store.latest_flight(),
                store.terms_versions(op),
            );
            read = Some((
                first.expect("first").map(|found| found.id),
                enablement.expect("enablement").is_some_and(|found| found.enabled),
                authorizations.expect("authorizations").len(),
                latest.expect("latest").map(|found| found.id),
                terms.expect("terms").len(),
            ));
            false
        }))
        .await
        .expect("rolled back");
    let bought = ticket(1, 1, 1, &flight(1));
    assert_eq!(read, Some((Some(bought.id), true, 1, Some(flight(1).id), 1)));
    assert_eq!(
        store.latest_flight().await.expect("latest"),
        None,
        "nothing was committed"
    );
}

/// `ticket` moved from `pending` to `rejected`, as a refused debit leaves it.
fn rejection(ticket: &TicketRecord) -> FlightChange {
    let mut rejected = ticket.clone();
    rejected.status = TicketStatus::Rejected;
    FlightChange {
        tickets: vec![TicketUpdate {
            expected: TicketStatus::Pending,
            ticket: rejected,
        }],
        ..FlightChange::default()
    }
}

#[tokio::test]
async fn a_ticket_rejected_after_its_purchase_gives_its_place_back() {
    let (db, store) = flight_store().await;
    given_operator_with_players(&store, 1, 1).await;
    let flight = given_flight(&store, 1).await;
    let (first, second) = (ticket(1, 1, 1, &flight), ticket(1, 1, 2, &flight));
    opened(&store, &first).await;
    opened(&store, &second).await;
    let capped = opening(&store, &ticket(1, 1, 3, &flight)).await;

    assert!(store.apply_flight_change(&rejection(&first)).await.expect("reject"));

    assert_eq!(capped, TicketOpening::CapReached);
    opened(&store, &ticket(1, 1, 4, &flight)).await;
    let capped = opening(&store, &ticket(1, 1, 5, &flight)).await;
    assert_eq!(capped, TicketOpening::CapReached);
    assert_eq!(count(&db, "SELECT count(*) AS count FROM flight_tickets").await, 3);
}

#[tokio::test]
async fn a_players_places_start_afresh_on_the_next_flight_and_a_late_rejection_leaves_them() {
    let (_db, store) = flight_store().await;
    given_operator_with_players(&store, 1, 1).await;
    let earlier = given_flight(&store, 1).await;
    let (first, second) = (ticket(1, 1, 1, &earlier), ticket(1, 1, 2, &earlier));
    opened(&store, &first).await;
    opened(&store, &second).await;
    let land = boarding_ends(&earlier, FlightPhase::Cancelled);
    assert!(store.apply_flight_change(&land).await.expect("land"));
    let next = given_flight(&store, 2).await;
    opened(&store, &ticket(1, 1, 3, &next)).await;

    assert!(store.apply_flight_change(&rejection(&first)).await.expect("reject"));
    opened(&store, &ticket(1, 1, 4, &next)).await;

    let capped = opening(&store, &ticket(1, 1, 5, &next)).await;
    assert_eq!(capped, TicketOpening::CapReached);
}
