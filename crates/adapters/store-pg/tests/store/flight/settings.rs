//! Enablement and terms round trips, per operator.

use opinion_app::flight::model::{Enablement, TermsCancellation};
use opinion_app::flight::ports::FlightStore;

use super::*;

#[tokio::test]
async fn enablement_is_saved_replaced_and_kept_per_operator() {
    let (_db, store) = flight_store().await;
    given_operator(&store, 1).await;
    given_operator(&store, 2).await;
    assert_eq!(store.find_enablement(operator_id(1)).await.expect("find"), None);

    let enabled = enablement(1);
    store.save_enablement(&enabled).await.expect("save");
    assert_eq!(
        store.find_enablement(operator_id(1)).await.expect("find"),
        Some(enabled.clone())
    );

    let disabled = Enablement {
        enabled: false,
        changed_at: at(60),
        changed_by: "other@platform.example".into(),
        ..enabled
    };
    store.save_enablement(&disabled).await.expect("replace");
    assert_eq!(
        store.find_enablement(operator_id(1)).await.expect("find"),
        Some(disabled)
    );
    assert_eq!(store.find_enablement(operator_id(2)).await.expect("find"), None);
}

#[tokio::test]
async fn terms_versions_round_trip_per_operator() {
    let (_db, store) = flight_store().await;
    given_operator_with_players(&store, 1, 0).await;
    given_operator(&store, 2).await;

    let mut later = terms(1);
    later.version.id = FlightTermsId::from_u128(801);
    later.version.effective_from = time::macros::datetime!(2026-12-01 00:00:00 UTC);
    later.created_at = at(60);
    later.cancelled = Some(TermsCancellation {
        at: at(120),
        by: "staff@platform.example".into(),
    });
    store.add_terms(&later).await.expect("add");

    assert_eq!(
        store.terms_versions(operator_id(1)).await.expect("terms"),
        vec![terms(1), later]
    );
    assert_eq!(store.terms_versions(operator_id(2)).await.expect("terms"), vec![]);
}

#[tokio::test]
async fn a_scheduled_version_is_stored_with_its_event_and_cancelled_once_before_it_takes_effect() {
    let (db, store) = flight_store().await;
    given_operator_with_players(&store, 1, 1).await;
    let effective_from = time::macros::datetime!(2026-12-01 00:00:00 UTC);
    let mut scheduled = terms(1);
    scheduled.version.id = FlightTermsId::from_u128(802);
    scheduled.version.effective_from = effective_from;
    let ticket = ticket(1, 1, 1, &flight(1));
    let mut scheduled_event = event(&ticket, 7);
    scheduled_event.event_type = EventType::FlightTermsScheduled;
    store
        .schedule_terms(&scheduled, &scheduled_event)
        .await
        .expect("schedule");
    assert_eq!(count(&db, "SELECT count(*) AS count FROM webhook_events").await, 1);

    let cancel = |at: time::OffsetDateTime| TermsCancellation {
        at,
        by: "staff@platform.example".into(),
    };
    let id = scheduled.version.id;
    assert!(
        !store
            .cancel_terms(operator_id(1), id, &cancel(effective_from))
            .await
            .expect("cancel"),
        "a version in force is not cancelled"
    );
    assert!(
        !store
            .cancel_terms(operator_id(2), id, &cancel(at(60)))
            .await
            .expect("cancel")
    );
    assert!(
        store
            .cancel_terms(operator_id(1), id, &cancel(at(60)))
            .await
            .expect("cancel")
    );
    assert!(
        !store
            .cancel_terms(operator_id(1), id, &cancel(at(90)))
            .await
            .expect("cancel"),
        "once"
    );
    let stored = store.terms_versions(operator_id(1)).await.expect("terms");
    assert_eq!(stored[1].cancelled, Some(cancel(at(60))));
}

#[tokio::test]
async fn the_database_refuses_to_edit_or_delete_a_terms_version() {
    let (db, store) = flight_store().await;
    given_operator_with_players(&store, 1, 0).await;
    let mut conn = AsyncPgConnection::establish(db.url()).await.expect("connect");
    for sql in [
        "UPDATE flight_terms SET share_bps = 1",
        "UPDATE flight_terms SET cancelled_at = now() + interval '100 years', cancelled_by = 'x'",
        "DELETE FROM flight_terms",
    ] {
        let refused = diesel::sql_query(sql).execute(&mut conn).await;
        assert!(refused.is_err(), "{sql} was allowed");
    }
    assert_eq!(
        store.terms_versions(operator_id(1)).await.expect("terms"),
        vec![terms(1)]
    );
}
