//! The flight product's operator reads against a real database: flights newest first
//! across pages, the operator's tickets with every filter, ticket totals, the flight
//! wallet operations only, and nothing of another operator.

use opinion_app::flight::reads::ports::{
    FlightFilter, FlightOperationFilter, FlightReadStore, TicketFilter, TicketTotals,
};
use opinion_app::opinion::reads::ports::TimeRange;
use opinion_core::{FlightId, IdKind, OperatorId, PageLimit, PageRequest, TicketId};
use opinion_flight::{FlightPhase, Rupiah, TicketStatus};
use opinion_testkit::{ChainSeed, FlightOperationSeed, FlightSeed, Seeder, TermsSeed, TicketSeed, ulid_at};
use opinion_wallet::WalletFlow;
use serde_json::json;

use crate::fixtures::*;
use crate::opinion::trading::fixtures::*;

fn page<K: IdKind>(limit: u32) -> PageRequest<K> {
    PageRequest {
        limit: PageLimit::new(limit).expect("limit"),
        after: None,
    }
}

const CHAIN: u128 = 77;

fn flight_bits(n: u16) -> u128 {
    ulid_at(at(i64::from(n) * 60), n)
}

fn ticket_bits(n: u16) -> u128 {
    ulid_at(at(i64::from(n)), 1_000 + n)
}

fn terms_bits(operator: u128) -> u128 {
    ulid_at(at(0), 2_000) + operator
}

/// Flight `n` boarding `n` minutes after `T0`.
fn flight(n: u16, phase: &'static str) -> FlightSeed {
    FlightSeed {
        id: flight_bits(n),
        chain: CHAIN,
        number: i32::from(n),
        phase,
        crash_hundredths: 346,
        boarding_at: at(i64::from(n) * 60),
        revealed_seed: (phase == "crashed").then(|| format!("{n:064x}")),
    }
}

/// Ticket `n` of `operator`'s player `player` on flight `flight`, bought `n` s after `T0`.
fn ticket(operator: u128, n: u16, flight: u16, player: u16, stake: i64, status: &'static str) -> TicketSeed {
    TicketSeed {
        operator,
        id: ticket_bits(n),
        flight: flight_bits(flight),
        user: user_id(operator, player),
        external_user_id: format!("p-{player}"),
        stake,
        auto_cash_out: None,
        status,
        terms: terms_bits(operator),
        share_bps: 1_500,
        cash_out: None,
        payout: None,
        refund_reason: None,
        created_at: at(i64::from(n)),
    }
}

/// Two operators; three flights (two crashed, one in the air); five tickets of operator
/// 1 (a cash-out, a loss, a refund, an active and a pending one) and one of operator 2.
async fn given_flights_and_tickets(seed: &mut Seeder) {
    seed.user(&user(1, 1))
        .await
        .user(&user(1, 2))
        .await
        .user(&user(2, 1))
        .await;
    seed.flight_chain(&ChainSeed {
        id: CHAIN,
        length: 10,
        salt: "store-reads-salt".into(),
        commitment: "a".repeat(64),
        created_at: at(0),
    })
    .await;
    seed.flight(&flight(1, "crashed"))
        .await
        .flight(&flight(2, "crashed"))
        .await
        .flight(&flight(3, "in_flight"))
        .await;
    for operator in [1, 2] {
        seed.flight_terms(&TermsSeed {
            operator,
            id: terms_bits(operator),
            share_bps: 1_500,
            effective_from: at(0),
        })
        .await;
    }
    let cashed_out = TicketSeed {
        cash_out: Some(346),
        payout: Some(34_600),
        ..ticket(1, 61, 1, 1, 10_000, "cashed_out")
    };
    let refunded = TicketSeed {
        refund_reason: Some("flight_cancelled"),
        ..ticket(1, 121, 2, 1, 5_000, "refunded")
    };
    seed.flight_ticket(&cashed_out).await;
    seed.flight_ticket(&ticket(1, 62, 1, 2, 20_000, "lost")).await;
    seed.flight_ticket(&refunded).await;
    seed.flight_ticket(&ticket(1, 181, 3, 1, 7_000, "active")).await;
    seed.flight_ticket(&ticket(1, 182, 3, 2, 3_000, "pending")).await;
    seed.flight_ticket(&ticket(2, 63, 1, 1, 99_999, "lost")).await;
}

fn ids(tickets: &[opinion_app::flight::model::TicketRecord]) -> Vec<TicketId> {
    tickets.iter().map(|ticket| ticket.id).collect()
}

fn tickets_numbered(numbers: &[u16]) -> Vec<TicketId> {
    numbers.iter().map(|n| TicketId::from_u128(ticket_bits(*n))).collect()
}

#[tokio::test]
async fn flights_page_newest_first_with_their_chain_and_a_boarding_window() {
    let (db, store) = store().await;
    given_operator(&store, 1).await;
    given_operator(&store, 2).await;
    given_flights_and_tickets(&mut seeder(&db).await).await;

    let first = store
        .list_flights(&FlightFilter::default(), page(2))
        .await
        .expect("page");
    let numbers: Vec<u32> = first.items.iter().map(|flight| flight.number).collect();
    assert_eq!(numbers, [3, 2]);
    assert_eq!(first.items[1].phase, FlightPhase::Crashed);
    assert_eq!(first.items[1].salt.as_str(), "store-reads-salt");
    assert_eq!(first.items[1].commitment.to_hex(), "a".repeat(64));
    let second = PageRequest {
        after: first.next,
        ..page(2)
    };
    let second = store
        .list_flights(&FlightFilter::default(), second)
        .await
        .expect("page");
    assert_eq!(second.items.iter().map(|flight| flight.number).collect::<Vec<_>>(), [1]);
    assert!(!second.has_more());

    let window = FlightFilter {
        boarded: TimeRange {
            from: Some(at(120)),
            to: Some(at(180)),
        },
        phase: None,
    };
    let windowed = store.list_flights(&window, page(50)).await.expect("page");
    assert_eq!(
        windowed.items.iter().map(|flight| flight.number).collect::<Vec<_>>(),
        [2]
    );
    let found = store
        .find_flight(FlightId::from_u128(flight_bits(3)))
        .await
        .expect("read")
        .expect("found");
    assert_eq!(found.phase, FlightPhase::InFlight);
    assert_eq!(
        store.latest_flight().await.expect("read").map(|flight| flight.number),
        Some(3)
    );
}

#[tokio::test]
async fn tickets_are_the_operators_own_with_every_filter_across_pages() {
    let (db, store) = store().await;
    given_operator(&store, 1).await;
    given_operator(&store, 2).await;
    given_flights_and_tickets(&mut seeder(&db).await).await;
    let one = OperatorId::from_u128(1);
    let list = |filter: TicketFilter| {
        let store = &store;
        async move { store.list_tickets(one, &filter, page(50)).await.expect("page").items }
    };

    assert_eq!(
        ids(&list(TicketFilter::default()).await),
        tickets_numbered(&[182, 181, 121, 62, 61])
    );
    let first = store
        .list_tickets(one, &TicketFilter::default(), page(3))
        .await
        .expect("page");
    let rest = PageRequest {
        after: first.next,
        ..page(3)
    };
    let rest = store
        .list_tickets(one, &TicketFilter::default(), rest)
        .await
        .expect("page");
    assert_eq!(ids(&rest.items), tickets_numbered(&[62, 61]));
    assert!(!rest.has_more());

    let of_player = TicketFilter {
        external_user_id: Some("p-1".into()),
        ..TicketFilter::default()
    };
    assert_eq!(ids(&list(of_player).await), tickets_numbered(&[181, 121, 61]));
    let unknown = TicketFilter {
        external_user_id: Some("nobody".into()),
        ..TicketFilter::default()
    };
    assert!(list(unknown).await.is_empty());
    let of_flight = TicketFilter {
        flight_id: Some(FlightId::from_u128(flight_bits(1))),
        ..TicketFilter::default()
    };
    assert_eq!(ids(&list(of_flight).await), tickets_numbered(&[62, 61]));
    let lost = TicketFilter {
        status: Some(TicketStatus::Lost),
        ..TicketFilter::default()
    };
    assert_eq!(ids(&list(lost).await), tickets_numbered(&[62]));
    let window = TicketFilter {
        purchased: TimeRange {
            from: Some(at(62)),
            to: Some(at(182)),
        },
        ..TicketFilter::default()
    };
    assert_eq!(ids(&list(window).await), tickets_numbered(&[181, 121, 62]));

    let cashed = store
        .find_ticket(one, TicketId::from_u128(ticket_bits(61)))
        .await
        .expect("read")
        .expect("found");
    assert_eq!(cashed.share_bps.get(), 1_500);
    assert_eq!(cashed.cash_out.map(|m| m.to_string()).as_deref(), Some("3.46"));
    assert_eq!(cashed.payout, Some(Rupiah::new(34_600).expect("payout")));
    let others = store
        .find_ticket(OperatorId::from_u128(2), TicketId::from_u128(ticket_bits(61)))
        .await
        .expect("read");
    assert!(others.is_none(), "another operator's ticket is not found");
}

#[tokio::test]
async fn totals_count_stakes_taken_payouts_and_refunds_of_the_operator_only() {
    let (db, store) = store().await;
    given_operator(&store, 1).await;
    given_operator(&store, 2).await;
    given_flights_and_tickets(&mut seeder(&db).await).await;
    let idr = |value| Rupiah::new(value).expect("rupiah");

    let all = store
        .ticket_totals(OperatorId::from_u128(1), &TicketFilter::default())
        .await
        .expect("totals");
    assert_eq!(
        all,
        TicketTotals {
            tickets: 5,
            players: 2,
            unsettled: 2,
            stakes: idr(10_000 + 20_000 + 5_000 + 7_000),
            payouts: idr(34_600),
            refunds: idr(5_000),
        }
    );
    assert_eq!(all.ggr(), 42_000 - 34_600 - 5_000);
    let first_flight = TicketFilter {
        flight_id: Some(FlightId::from_u128(flight_bits(1))),
        ..TicketFilter::default()
    };
    let first = store
        .ticket_totals(OperatorId::from_u128(1), &first_flight)
        .await
        .expect("totals");
    assert_eq!(
        (first.tickets, first.stakes, first.payouts),
        (2, idr(30_000), idr(34_600))
    );
    assert_eq!(first.ggr(), -4_600);
    let of_player = TicketFilter {
        external_user_id: Some("p-2".into()),
        purchased: TimeRange {
            from: Some(at(0)),
            to: Some(at(100)),
        },
        ..TicketFilter::default()
    };
    let player = store
        .ticket_totals(OperatorId::from_u128(1), &of_player)
        .await
        .expect("totals");
    assert_eq!((player.tickets, player.stakes), (1, idr(20_000)));
    let none = store
        .ticket_totals(OperatorId::from_u128(3), &TicketFilter::default())
        .await
        .expect("totals");
    assert_eq!(none, TicketTotals::default());
}

#[tokio::test]
async fn wallet_operations_are_the_operators_flight_flows_with_their_filters() {
    let (db, store) = store().await;
    given_operator(&store, 1).await;
    given_operator(&store, 2).await;
    let mut seed = seeder(&db).await;
    given_flights_and_tickets(&mut seed).await;
    let operation =
        |operator: u128, n: u16, flow: &'static str, ticket: u16, state: &'static str| FlightOperationSeed {
            operator,
            id: ulid_at(at(i64::from(n)), 3_000 + n),
            user: user_id(operator, 1),
            external_user_id: "p-1".into(),
            flow,
            flight: flight_bits(1),
            ticket: ticket_bits(ticket),
            amount: 10_000,
            metadata: json!({"flightId": "flt_x", "ticketId": "tkt_x"}),
            state,
            created_at: at(i64::from(n)),
        };
    seed.flight_wallet_operation(&operation(1, 70, "flight_ticket_purchase", 61, "applied"))
        .await
        .flight_wallet_operation(&operation(1, 80, "flight_ticket_payout", 61, "prepared"))
        .await
        .flight_wallet_operation(&operation(1, 90, "flight_ticket_purchase", 62, "manual_review"))
        .await
        .flight_wallet_operation(&operation(2, 95, "flight_ticket_purchase", 63, "applied"))
        .await;
    let one = OperatorId::from_u128(1);
    let list = |filter: FlightOperationFilter| {
        let store = &store;
        async move {
            store
                .list_wallet_operations(one, &filter, page(50))
                .await
                .expect("page")
                .items
                .into_iter()
                .map(|operation| (operation.flow, operation.ticket_id))
                .collect::<Vec<_>>()
        }
    };
    let ticket = |n| Some(TicketId::from_u128(ticket_bits(n)));

    assert_eq!(
        list(FlightOperationFilter::default()).await,
        [
            (WalletFlow::FlightTicketPurchase, ticket(62)),
            (WalletFlow::FlightTicketPayout, ticket(61)),
            (WalletFlow::FlightTicketPurchase, ticket(61)),
        ]
    );
    let payouts = FlightOperationFilter {
        flow: Some(WalletFlow::FlightTicketPayout),
        ..FlightOperationFilter::default()
    };
    assert_eq!(list(payouts).await, [(WalletFlow::FlightTicketPayout, ticket(61))]);
    let of_ticket = FlightOperationFilter {
        ticket_id: ticket(62),
        ..FlightOperationFilter::default()
    };
    assert_eq!(list(of_ticket).await.len(), 1);
    let in_review = FlightOperationFilter {
        state: Some(opinion_wallet::OperationState::ManualReview),
        flight_id: Some(FlightId::from_u128(flight_bits(1))),
        ..FlightOperationFilter::default()
    };
    assert_eq!(list(in_review).await, [(WalletFlow::FlightTicketPurchase, ticket(62))]);
    let window = FlightOperationFilter {
        created: TimeRange {
            from: Some(at(75)),
            to: Some(at(90)),
        },
        ..FlightOperationFilter::default()
    };
    assert_eq!(list(window).await, [(WalletFlow::FlightTicketPayout, ticket(61))]);
}

#[tokio::test]
async fn seeded_tickets_hold_their_players_places_as_purchases_do() {
    let (db, store) = store().await;
    given_operator(&store, 1).await;
    given_operator(&store, 2).await;
    let mut seed = seeder(&db).await;
    given_flights_and_tickets(&mut seed).await;
    seed.flight_ticket(&ticket(1, 183, 3, 1, 1_000, "active")).await;
    seed.flight_ticket(&ticket(1, 184, 3, 1, 1_000, "rejected")).await;

    let held = |operator: u128, player: u16, flight: u16| {
        let user = uuid::Uuid::from_u128(user_id(operator, player));
        let sql = format!(
            "SELECT coalesce(sum(held), 0)::bigint AS count FROM flight_held_tickets \
             WHERE operator_id = '{}' AND user_id = '{user}' AND flight_id = '{}'",
            uuid::Uuid::from_u128(operator),
            uuid::Uuid::from_u128(flight_bits(flight)),
        );
        let db = &db;
        async move { super::count(db, &sql).await }
    };
    assert_eq!(held(1, 1, 3).await, 2, "two tickets held, the rejected one not");
    assert_eq!(held(1, 1, 1).await, 0, "the player's row names the flight seeded last");
    assert_eq!(held(1, 2, 3).await, 1);
    assert_eq!(held(2, 1, 1).await, 1);
}
