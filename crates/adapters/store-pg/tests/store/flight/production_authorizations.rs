//! Production authorizations: kept whole (a revocation stamps the records in force, a
//! renewal is a new row, the database refuses any other edit and every delete), and
//! checked again in the transaction of a new ticket when the environment requires one.

use opinion_app::flight::ports::TicketOpening;
use opinion_core::ProductionAuthorizationId;
use opinion_flight::{AuthorizationReference, ProductionAuthorization, Revocation};
use time::Duration;

use super::*;

/// Authorization `n` of operator 1.
pub(super) fn authorization(
    n: u128,
    recorded_at: time::OffsetDateTime,
    expires_at: Option<time::OffsetDateTime>,
) -> ProductionAuthorization {
    ProductionAuthorization {
        id: ProductionAuthorizationId::from_u128(n),
        operator_id: operator_id(1),
        reference: AuthorizationReference::new(&format!("CHG-{n}")).expect("reference"),
        recorded_at,
        recorded_by: "compliance@platform.example".into(),
        expires_at,
        revocation: None,
    }
}

fn revocation(at: time::OffsetDateTime) -> Revocation {
    Revocation {
        at,
        by: "ops@platform.example".into(),
    }
}

async fn execute(db: &TestDatabase, sql: &str) -> Result<usize, diesel::result::Error> {
    let mut conn = AsyncPgConnection::establish(db.url()).await.expect("connect");
    diesel::sql_query(sql).execute(&mut conn).await
}

#[tokio::test]
async fn a_revocation_stamps_only_the_records_in_force_and_keeps_every_record() {
    let (_db, store) = flight_store().await;
    given_operator_with_players(&store, 1, 1).await;
    given_operator_with_players(&store, 2, 1).await;
    let t0 = flight(1).boarding_at;
    let expired = authorization(1, t0, Some(t0 + Duration::hours(1)));
    let open = authorization(2, t0 + Duration::minutes(30), None);
    let mut other = authorization(3, t0, None);
    other.operator_id = operator_id(2);
    for record in [&open, &expired, &other] {
        store.add_production_authorization(record).await.expect("add");
    }

    let revoked_at = t0 + Duration::hours(2);
    let stopped = store
        .revoke_production_authorizations(operator_id(1), &revocation(revoked_at))
        .await
        .expect("revoke");

    assert_eq!(stopped, 1, "only the record in force is stopped");
    let records = store.production_authorizations(operator_id(1)).await.expect("read");
    let mut revoked = open.clone();
    revoked.revocation = Some(revocation(revoked_at));
    assert_eq!(records, [expired, revoked], "oldest first, the expired one untouched");
    assert_eq!(
        store.production_authorizations(operator_id(2)).await.expect("read"),
        [other],
        "another operator's record is untouched"
    );
    let again = store
        .revoke_production_authorizations(operator_id(1), &revocation(revoked_at + Duration::minutes(1)))
        .await
        .expect("revoke again");
    assert_eq!(again, 0, "a revocation is stamped once");
}

#[tokio::test]
async fn the_database_refuses_to_edit_or_delete_a_record_or_revoke_it_twice() {
    let (db, store) = flight_store().await;
    given_operator_with_players(&store, 1, 1).await;
    let t0 = flight(1).boarding_at;
    store
        .add_production_authorization(&authorization(1, t0, None))
        .await
        .expect("add");
    let table = "flight_production_authorizations";

    for edit in [
        format!("UPDATE {table} SET reference = 'CHG-other'"),
        format!("UPDATE {table} SET expires_at = recorded_at + interval '1 day'"),
        format!("UPDATE {table} SET revoked_at = recorded_at"),
        format!("DELETE FROM {table}"),
    ] {
        assert!(execute(&db, &edit).await.is_err(), "{edit} must be refused");
    }
    let revoke = format!("UPDATE {table} SET revoked_at = recorded_at, revoked_by = 'ops'");
    assert_eq!(execute(&db, &revoke).await.expect("the one revocation"), 1);
    assert!(execute(&db, &revoke).await.is_err(), "a second revocation is refused");
    assert_eq!(count(&db, &format!("SELECT count(*) AS count FROM {table}")).await, 1);
}

#[tokio::test]
async fn a_ticket_that_requires_an_authorization_is_stored_only_while_one_is_valid() {
    let (db, store) = flight_store().await;
    given_operator_with_players(&store, 1, 1).await;
    let flight = given_flight(&store, 1).await;
    let required = |ticket: &TicketRecord| NewTicket {
        production_authorization: AuthorizationRequirement::Required,
        ..new_ticket(ticket)
    };

    let first = ticket(1, 1, 1, &flight);
    let refused = store.open_ticket(&required(&first)).await.expect("refused");
    assert_eq!(refused, TicketOpening::NotAuthorized, "none recorded");
    assert_eq!(count(&db, "SELECT count(*) AS count FROM flight_tickets").await, 0);
    assert_eq!(count(&db, "SELECT count(*) AS count FROM wallet_operations").await, 0);
    assert_eq!(
        store.open_ticket(&new_ticket(&first)).await.expect("staging"),
        TicketOpening::Opened,
        "outside production nothing is read"
    );

    let expires_at = flight.boarding_at + Duration::milliseconds(3);
    store
        .add_production_authorization(&authorization(1, flight.boarding_at, Some(expires_at)))
        .await
        .expect("add");
    let second = ticket(1, 1, 2, &flight);
    assert_eq!(
        store.open_ticket(&required(&second)).await.expect("open"),
        TicketOpening::Opened
    );
    let mut late = ticket(1, 1, 3, &flight);
    late.created_at = expires_at;
    assert_eq!(
        store.open_ticket(&required(&late)).await.expect("expired"),
        TicketOpening::NotAuthorized,
        "expired at the purchase's instant"
    );

    store
        .add_production_authorization(&authorization(2, flight.boarding_at, None))
        .await
        .expect("renew");
    store
        .revoke_production_authorizations(operator_id(1), &revocation(flight.boarding_at + Duration::seconds(1)))
        .await
        .expect("revoke");
    let mut before_the_revocation = ticket(1, 1, 4, &flight);
    before_the_revocation.created_at = flight.boarding_at + Duration::milliseconds(1);
    assert_eq!(
        store
            .open_ticket(&NewTicket {
                cap: 10,
                ..required(&before_the_revocation)
            })
            .await
            .expect("revoked"),
        TicketOpening::NotAuthorized,
        "a purchase whose clock read before a revocation the transaction sees is refused"
    );
    assert_eq!(count(&db, "SELECT count(*) AS count FROM flight_tickets").await, 2);
}
