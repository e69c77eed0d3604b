//! Enablement and terms round trips, per operator.

use opinion_app::flight::model::Enablement;
use opinion_app::flight::ports::FlightStore;

use super::*;

#[tokio::test]
async fn enablement_is_saved_replaced_and_kept_per_operator() {
    let (_db, store) = flight_store().await;
    given_operator(&store, 1).await;
    given_operator(&store, 2).await;
    assert_eq!(store.find_enablement(operator_id(1)).await.expect("find"), None);

    let enabled = Enablement {
        operator_id: operator_id(1),
        enabled: true,
        changed_at: T0,
        changed_by: "staff@platform.example".into(),
    };
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
    later.cancelled_at = Some(at(120));
    store.add_terms(&later).await.expect("add");

    assert_eq!(
        store.terms_versions(operator_id(1)).await.expect("terms"),
        vec![terms(1), later]
    );
    assert_eq!(store.terms_versions(operator_id(2)).await.expect("terms"), vec![]);
}
