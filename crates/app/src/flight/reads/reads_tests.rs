//! The flight reads over mocks: filters reach the store typed or are refused naming
//! their parameter, nothing secret leaves before a crash, exports read chunk by chunk,
//! and the delivery evidence is the flight events' only.

use opinion_core::{Cursor, FlightId, OperatorId, Page, PageRequest, TicketId, TicketKind};
use opinion_flight::{FlightPhase, Rupiah, TicketStatus};
use opinion_wallet::{OperationState, WalletFlow};
use opinion_webhook::EventType;
use time::macros::datetime;

use crate::error::AppError;
use crate::flight::reads::export::EXPORT_CHUNK;
use crate::flight::reads::ports::TicketTotals;
use crate::flight::reads::{FlightOperationQuery, FlightQuery, OverviewQuery, TicketQuery};
use crate::model::DeliveryFilter;
use crate::test_support::flight_reads::{FlightReadMocks, flight, ticket};
use crate::test_support::reads::empty_page;
use crate::test_support::{NOW, OPERATOR};

fn field_of(error: AppError) -> &'static str {
    match error {
        AppError::Invalid { field, .. } => field,
        other => panic!("not a validation error: {other:?}"),
    }
}

#[tokio::test]
async fn ticket_filters_reach_the_store_typed() {
    let mut mocks = FlightReadMocks::default();
    mocks
        .store
        .expect_list_tickets()
        .times(1)
        .withf(|operator, filter, _| {
            *operator == OPERATOR
                && filter.flight_id == Some(FlightId::from_u128(3))
                && filter.external_user_id.as_deref() == Some("player-7")
                && filter.status == Some(TicketStatus::CashedOut)
                && filter.purchased.from == Some(datetime!(2026-11-01 00:00 UTC))
                && filter.purchased.to == Some(NOW)
        })
        .returning(|_, _, _| Ok(empty_page()));
    let query = TicketQuery {
        flight_id: Some(FlightId::from_u128(3).to_string()),
        external_user_id: Some("player-7".into()),
        status: Some("cashed_out".into()),
        from: Some("2026-11-01T00:00:00Z".into()),
        to: Some("2026-11-22T12:00:00Z".into()),
    };
    mocks
        .build()
        .list_tickets(OPERATOR, &query, PageRequest::default())
        .await
        .expect("listed");
}

#[tokio::test]
async fn bad_filters_name_their_parameter_and_reach_no_store() {
    let mut mocks = FlightReadMocks::default();
    mocks.store.expect_list_tickets().never();
    mocks.store.expect_list_flights().never();
    mocks.store.expect_list_wallet_operations().never();
    let reads = mocks.build();
    let tickets = [
        (
            "status",
            TicketQuery {
                status: Some("won".into()),
                ..Default::default()
            },
        ),
        (
            "flightId",
            TicketQuery {
                flight_id: Some(TicketId::from_u128(1).to_string()),
                ..Default::default()
            },
        ),
        (
            "externalUserId",
            TicketQuery {
                external_user_id: Some(String::new()),
                ..Default::default()
            },
        ),
        (
            "from",
            TicketQuery {
                from: Some("yesterday".into()),
                ..Default::default()
            },
        ),
        (
            "to",
            TicketQuery {
                from: Some("2026-11-22T12:00:00Z".into()),
                to: Some("2026-11-22T11:00:00Z".into()),
                ..Default::default()
            },
        ),
    ];
    for (field, query) in tickets {
        let error = reads
            .list_tickets(OPERATOR, &query, PageRequest::default())
            .await
            .expect_err("refused");
        assert_eq!(field_of(error), field);
        assert!(reads.export_tickets(OPERATOR, &query).is_err(), "{field}");
    }
    let flights = FlightQuery {
        from: None,
        to: Some("noon".into()),
    };
    assert_eq!(
        field_of(
            reads
                .list_flights(&flights, PageRequest::default())
                .await
                .expect_err("refused")
        ),
        "to"
    );
    assert!(reads.export_flights(&flights).is_err());
    let operations = [
        (
            "flow",
            FlightOperationQuery {
                flow: Some("buy".into()),
                ..Default::default()
            },
        ),
        (
            "state",
            FlightOperationQuery {
                state: Some("done".into()),
                ..Default::default()
            },
        ),
        (
            "ticketId",
            FlightOperationQuery {
                ticket_id: Some(FlightId::from_u128(1).to_string()),
                ..Default::default()
            },
        ),
        (
            "flightId",
            FlightOperationQuery {
                flight_id: Some("flt_nope".into()),
                ..Default::default()
            },
        ),
    ];
    for (field, query) in operations {
        let error = reads
            .list_wallet_operations(OPERATOR, &query, PageRequest::default())
            .await
            .expect_err("refused");
        assert_eq!(field_of(error), field);
    }
}

#[tokio::test]
async fn wallet_operations_take_the_flight_flows_and_steps_on_request() {
    let mut mocks = FlightReadMocks::default();
    mocks
        .store
        .expect_list_wallet_operations()
        .times(1)
        .withf(|_, filter, _| {
            filter.flow == Some(WalletFlow::FlightTicketRefund) && filter.state == Some(OperationState::ManualReview)
        })
        .returning(|_, _, _| Ok(empty_page()));
    mocks.store.expect_wallet_operation_steps().never();
    let query = FlightOperationQuery {
        flow: Some("flight_ticket_refund".into()),
        state: Some("manual_review".into()),
        include_steps: true,
        ..Default::default()
    };
    let page = mocks
        .build()
        .list_wallet_operations(OPERATOR, &query, PageRequest::default())
        .await
        .expect("listed");
    assert!(page.items.is_empty());
}

#[tokio::test]
async fn flights_show_nothing_secret_before_their_crash() {
    let mut mocks = FlightReadMocks::default();
    mocks.store.expect_list_flights().returning(|_, _| {
        Ok(Page {
            items: vec![flight(3, FlightPhase::InFlight), flight(2, FlightPhase::Crashed)],
            next: None,
        })
    });
    let page = mocks
        .build()
        .list_flights(&FlightQuery::default(), PageRequest::default())
        .await
        .expect("listed");
    assert_eq!(page.items[0].crash, None);
    assert_eq!(page.items[0].seed, None);
    assert_eq!(
        page.items[1].crash.map(|crash| crash.to_string()).as_deref(),
        Some("3.46")
    );
    assert!(page.items[1].seed.is_some());
}

#[tokio::test]
async fn a_flight_detail_carries_the_operators_own_totals_and_an_unknown_flight_is_404() {
    let mut mocks = FlightReadMocks::default();
    mocks
        .store
        .expect_find_flight()
        .returning(|id| Ok((id == FlightId::from_u128(2)).then(|| flight(2, FlightPhase::Crashed))));
    mocks
        .store
        .expect_ticket_totals()
        .withf(|operator, filter| *operator == OPERATOR && filter.flight_id == Some(FlightId::from_u128(2)))
        .returning(|_, _| {
            Ok(TicketTotals {
                tickets: 4,
                ..TicketTotals::default()
            })
        });
    let reads = mocks.build();
    let detail = reads.flight(OPERATOR, FlightId::from_u128(2)).await.expect("found");
    assert_eq!(detail.totals.tickets, 4);
    let missing = reads
        .flight(OPERATOR, FlightId::from_u128(9))
        .await
        .expect_err("missing");
    assert!(matches!(missing, AppError::NotFound("flight")), "{missing:?}");
}

#[tokio::test]
async fn another_operators_ticket_is_not_found() {
    let mut mocks = FlightReadMocks::default();
    mocks
        .store
        .expect_find_ticket()
        .returning(|operator, id| Ok((operator == OPERATOR).then(|| ticket(id.as_u128(), TicketStatus::Lost))));
    mocks
        .store
        .expect_find_flight()
        .returning(|_| Ok(Some(flight(1, FlightPhase::Crashed))));
    let reads = mocks.build();
    let own = reads.ticket(OPERATOR, TicketId::from_u128(5)).await.expect("own");
    assert_eq!(own.ticket.share_bps.get(), 1_500);
    assert_eq!(own.flight.id, FlightId::from_u128(1));
    let other = reads
        .ticket(OperatorId::from_u128(2), TicketId::from_u128(5))
        .await
        .expect_err("another operator's");
    assert!(matches!(other, AppError::NotFound("ticket")), "{other:?}");
}

#[tokio::test]
async fn an_export_reads_one_chunk_at_a_time_until_the_end() {
    const TICKETS: u128 = 5_000;
    let mut mocks = FlightReadMocks::default();
    mocks
        .store
        .expect_list_tickets()
        .times(25)
        .returning(|_, _, page: PageRequest<TicketKind>| {
            assert_eq!(page.limit.get(), EXPORT_CHUNK, "every chunk is one bounded page");
            let start = page.after.map_or(TICKETS, |cursor| cursor.position().as_u128() - 1);
            let items: Vec<_> = (0..u128::from(EXPORT_CHUNK))
                .map(|i| start - i)
                .take_while(|n| *n >= 1)
                .map(|n| ticket(n, TicketStatus::Lost))
                .collect();
            let next = (items.last().map(|last| last.id.as_u128()) > Some(1))
                .then(|| Cursor::after(items.last().expect("a last ticket").id));
            Ok(Page { items, next })
        });
    let mut export = mocks
        .build()
        .export_tickets(OPERATOR, &TicketQuery::default())
        .expect("export");
    let mut seen = Vec::new();
    while let Some(chunk) = export.next_chunk().await.expect("chunk") {
        assert!(chunk.len() <= usize::from(EXPORT_CHUNK));
        seen.extend(chunk.into_iter().map(|ticket| ticket.id.as_u128()));
    }
    assert_eq!(seen, (1..=TICKETS).rev().collect::<Vec<_>>());
    assert!(export.next_chunk().await.expect("ended").is_none());
}

#[tokio::test]
async fn the_overview_covers_the_current_period_unless_asked_and_hides_the_live_crash_point() {
    let mut mocks = FlightReadMocks::default();
    mocks.store.expect_enablement().returning(|_| Ok(None));
    mocks.store.expect_terms_versions().returning(|_| Ok(Vec::new()));
    mocks
        .store
        .expect_latest_flight()
        .returning(|| Ok(Some(flight(1, FlightPhase::InFlight))));
    mocks
        .store
        .expect_ticket_totals()
        .withf(|_, filter| {
            filter.purchased.from == Some(datetime!(2026-11-01 00:00 UTC))
                && filter.purchased.to == Some(datetime!(2026-12-01 00:00 UTC))
        })
        .times(1)
        .returning(|_, _| {
            Ok(TicketTotals {
                stakes: Rupiah::new(100_000).expect("stakes"),
                payouts: Rupiah::new(34_600).expect("payouts"),
                refunds: Rupiah::new(20_000).expect("refunds"),
                ..TicketTotals::default()
            })
        });
    mocks
        .store
        .expect_ticket_totals()
        .withf(|_, filter| {
            filter.purchased.from == Some(datetime!(2026-11-20 00:00 UTC)) && filter.purchased.to.is_none()
        })
        .times(1)
        .returning(|_, _| Ok(TicketTotals::default()));
    let reads = mocks.build();
    let overview = reads
        .overview(OPERATOR, &OverviewQuery::default())
        .await
        .expect("overview");
    assert_eq!(overview.totals.ggr(), 45_400);
    assert!(overview.enablement.is_none() && overview.terms.is_none());
    let live = overview.live.expect("a live flight");
    assert_eq!((live.crash, live.seed, live.crashed_at), (None, None, None));
    let asked = OverviewQuery {
        from: Some("2026-11-20T00:00:00Z".into()),
        to: None,
    };
    assert_eq!(
        reads.overview(OPERATOR, &asked).await.expect("overview").window.to,
        None
    );
    let backwards = OverviewQuery {
        from: Some("2026-11-20T00:00:00Z".into()),
        to: Some("2026-11-19T00:00:00Z".into()),
    };
    assert_eq!(
        field_of(reads.overview(OPERATOR, &backwards).await.expect_err("refused")),
        "to"
    );
}

#[tokio::test]
async fn delivery_evidence_is_the_flight_events_only() {
    let mut mocks = FlightReadMocks::default();
    mocks
        .webhooks
        .expect_list_deliveries()
        .times(1)
        .withf(|operator, filter, _| {
            let types = filter.event_types.clone().unwrap_or_default();
            *operator == OPERATOR && types.len() == 8 && types.iter().all(|event_type| event_type.is_flight())
        })
        .returning(|_, _, _| Ok(empty_page()));
    let reads = mocks.build();
    reads
        .list_webhook_deliveries(OPERATOR, DeliveryFilter::default(), PageRequest::default())
        .await
        .expect("listed");
    let opinion_type = DeliveryFilter {
        event_type: Some(EventType::TradeProcessed),
        ..DeliveryFilter::default()
    };
    let error = reads
        .list_webhook_deliveries(OPERATOR, opinion_type, PageRequest::default())
        .await
        .expect_err("refused");
    assert_eq!(field_of(error), "eventType");
}

#[tokio::test]
async fn the_overview_says_whether_production_needs_and_holds_an_authorization() {
    use opinion_core::ProductionAuthorizationId;
    use opinion_flight::{AuthorizationReference, AuthorizationRequirement, ProductionAuthorization, Revocation};

    let record = |n: u128, revoked: bool| ProductionAuthorization {
        id: ProductionAuthorizationId::from_u128(n),
        operator_id: OPERATOR,
        reference: AuthorizationReference::new(&format!("CHG-{n}")).expect("reference"),
        recorded_at: NOW - time::Duration::days(10 - i64::try_from(n).expect("small")),
        recorded_by: "compliance@platform.example".into(),
        expires_at: None,
        revocation: revoked.then(|| Revocation {
            at: NOW - time::Duration::days(1),
            by: "ops@platform.example".into(),
        }),
    };
    let overview = |records: Vec<ProductionAuthorization>, requirement| {
        let mut mocks = FlightReadMocks::default();
        mocks.store.expect_enablement().returning(|_| Ok(None));
        mocks.store.expect_terms_versions().returning(|_| Ok(Vec::new()));
        mocks.store.expect_latest_flight().returning(|| Ok(None));
        mocks
            .store
            .expect_ticket_totals()
            .returning(|_, _| Ok(TicketTotals::default()));
        mocks
            .store
            .expect_production_authorizations()
            .returning(move |_| Ok(records.clone()));
        let reads = mocks.build().with_production_authorization(requirement);
        async move {
            reads
                .overview(OPERATOR, &OverviewQuery::default())
                .await
                .expect("overview")
                .production_authorization
        }
    };

    let staging = overview(vec![record(1, false)], AuthorizationRequirement::NotRequired).await;
    assert_eq!(
        (staging.required, staging.authorized, staging.latest),
        (false, true, None)
    );

    let never = overview(Vec::new(), AuthorizationRequirement::Required).await;
    assert_eq!((never.required, never.authorized, never.latest), (true, false, None));

    let revoked = overview(
        vec![record(1, false), record(2, true)],
        AuthorizationRequirement::Required,
    )
    .await;
    assert!(revoked.authorized, "the first one is still in force");
    assert_eq!(
        revoked.latest.map(|latest| latest.id),
        Some(ProductionAuthorizationId::from_u128(1))
    );

    let only_revoked = overview(vec![record(2, true)], AuthorizationRequirement::Required).await;
    assert!(!only_revoked.authorized);
    let latest = only_revoked.latest.expect("the revoked one is shown");
    assert_eq!(latest.reference.as_str(), "CHG-2");
    assert!(latest.revocation.is_some());
}
