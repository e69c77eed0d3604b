//! What the flight tests read straight from the database, where no route shows it (or
//! must not yet): a boarding flight's planned crash, the wallet operations and events
//! stored per ticket, and who holds the driver lock. Nothing here writes.

use diesel::QueryableByName;
use diesel::sql_types::{BigInt, Nullable, Text, Timestamptz};
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use time::OffsetDateTime;

use crate::helpers::TestApp;

/// A connection of the test's own to the app's database.
pub async fn connect(app: &TestApp) -> AsyncPgConnection {
    AsyncPgConnection::establish(app.db.url()).await.expect("connect")
}

/// The database id of a `flt_…`/`tkt_…` wire id.
pub fn uuid_of(wire_id: &str) -> String {
    let (_, ulid) = wire_id.split_once('_').expect("a prefixed id");
    let bits = ulid::Ulid::from_string(&ulid.to_uppercase()).expect("a ULID").0;
    format!("{bits:032x}")
}

/// A flight as planned before boarding: its crash point and instants.
#[derive(Debug, QueryableByName)]
pub struct Plan {
    /// The crash point in hundredths.
    #[diesel(sql_type = BigInt)]
    pub crash_hundredths: i64,
    #[diesel(sql_type = Timestamptz)]
    pub take_off_at: OffsetDateTime,
    #[diesel(sql_type = Timestamptz)]
    pub crash_at: OffsetDateTime,
}

/// The plan of flight `id`.
pub async fn plan(conn: &mut AsyncPgConnection, id: &str) -> Plan {
    diesel::sql_query("SELECT crash_hundredths, take_off_at, crash_at FROM flights WHERE id = $1::uuid")
        .bind::<Text, _>(uuid_of(id))
        .get_result(conn)
        .await
        .expect("the flight")
}

#[derive(QueryableByName)]
struct Count {
    #[diesel(sql_type = BigInt)]
    n: i64,
}

/// How many wallet operations of `flow` ticket `id` has.
pub async fn operations_of(conn: &mut AsyncPgConnection, ticket: &str, flow: &str) -> i64 {
    let counted: Count =
        diesel::sql_query("SELECT count(*) AS n FROM wallet_operations WHERE ticket_id = $1::uuid AND flow = $2")
            .bind::<Text, _>(uuid_of(ticket))
            .bind::<Text, _>(flow)
            .get_result(conn)
            .await
            .expect("count");
    counted.n
}

/// How many events of `event_type` name ticket `id` in their data.
pub async fn events_of(conn: &mut AsyncPgConnection, ticket: &str, event_type: &str) -> i64 {
    let counted: Count =
        diesel::sql_query("SELECT count(*) AS n FROM webhook_events WHERE event_type = $1 AND data->>'ticketId' = $2")
            .bind::<Text, _>(event_type)
            .bind::<Text, _>(ticket)
            .get_result(conn)
            .await
            .expect("count");
    counted.n
}

#[derive(QueryableByName)]
struct Holder {
    #[diesel(sql_type = Nullable<Text>)]
    application_name: Option<String>,
}

/// The `application_name` of the session holding the flight driver lock of this
/// database, if any (other tests' databases on the same server have their own).
pub async fn driver_lock_holder(conn: &mut AsyncPgConnection) -> Option<String> {
    let holders: Vec<Holder> = diesel::sql_query(
        "SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid \
         WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1 \
           AND a.datname = current_database() \
           AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database()) \
           AND ((l.classid::bigint << 32) | l.objid::bigint) = $1",
    )
    .bind::<BigInt, _>(opinion_store_pg::DRIVER_LOCK_KEY)
    .load(conn)
    .await
    .expect("lock holder");
    holders.into_iter().next().and_then(|holder| holder.application_name)
}
