//! A repeated purchase's lookup by client ticket id reads its unique key, whatever the
//! statistics know: a plan that reads the player's tickets to find one costs every
//! refused or repeated purchase in proportion to the player's history. The boarding
//! flight is never in the statistics, and a young database's know no ticket, so the
//! planner estimates one row for any index led by the player's columns and may take any
//! of them. The driver's tick reads only the tickets due: the target bounds its range of
//! the open tickets' index, however many tickets the flight has flying.

use diesel::pg::Pg;
use diesel::prelude::*;
use diesel::query_builder::QueryFragment;
use diesel::sql_query;
use diesel::sql_types::Text;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl, SimpleAsyncConnection};
use opinion_flight::TicketStatus;
use opinion_testkit::TestDatabase;

use super::{client_ticket, due, written};
use crate::flight::rows::TicketRow;

/// Ten operators of 500 players with their terms and a chain, the tickets kept out of
/// autovacuum's reach so that the statistics are the test's alone. `board(n)` opens
/// flight `n`, `sell(share)` sells a ticket on it to that share of every operator's
/// players, `crowd(k)` sells the first operator's players `k` tickets each on it, and
/// `land()` ends it. The lookup is asked about `player()`, one of `first_operator()`'s.
const SCHEMA: &str = "
    ALTER TABLE flight_tickets SET (autovacuum_enabled = false);
    INSERT INTO operators (id, name, created_at, currency)
    SELECT gen_random_uuid(), 'Operator ' || o, now() + o * interval '1 second', 'IDR'
    FROM generate_series(1, 10) o;
    INSERT INTO users (operator_id, id, external_user_id, created_at, last_launched_at)
    SELECT o.id, gen_random_uuid(), 'player-' || p, now(), now()
    FROM operators o CROSS JOIN generate_series(1, 500) p;
    INSERT INTO flight_terms (operator_id, id, effective_from, share_bps, min_stake, max_stake, max_payout,
                              tickets_per_flight, settlement_period, payment_due_days, created_at, created_by)
    SELECT id, id, now(), 1000, 1000, 100000, 1000000, 10, 'calendar_month', 14, now(), 'staff'
    FROM operators;
    INSERT INTO flight_chains (id, terminal_seed_sealed, length, salt, commitment, created_at)
    VALUES (gen_random_uuid(), 'v1.AAAA', 100000, 'salt', repeat('a', 64), now());
    CREATE FUNCTION first_operator() RETURNS uuid LANGUAGE sql AS $$
        SELECT id FROM operators ORDER BY created_at LIMIT 1;
    $$;
    CREATE FUNCTION player() RETURNS uuid LANGUAGE sql AS $$
        SELECT id FROM users WHERE operator_id = first_operator() ORDER BY id LIMIT 1;
    $$;
    CREATE FUNCTION boarding() RETURNS uuid LANGUAGE sql AS $$
        SELECT id FROM flights WHERE phase = 'boarding';
    $$;
    CREATE FUNCTION board(n integer) RETURNS void LANGUAGE sql AS $$
        INSERT INTO flights (id, chain_id, number, phase, crash_hundredths, boarding_at, take_off_at, crash_at)
        SELECT gen_random_uuid(), id, n, 'boarding', 250, now() + n * interval '1 minute',
               now() + n * interval '1 minute' + interval '10 seconds',
               now() + n * interval '1 minute' + interval '20 seconds'
        FROM flight_chains;
    $$;
    CREATE FUNCTION land() RETURNS void LANGUAGE sql AS $$
        UPDATE flights SET phase = 'crashed', revealed_seed = repeat('b', 64), crashed_at = crash_at
        WHERE phase = 'boarding';
    $$;
    CREATE FUNCTION sold(u users) RETURNS void LANGUAGE sql AS $$
        INSERT INTO flight_tickets (operator_id, id, flight_id, user_id, external_user_id, client_ticket_id,
                                    stake, status, terms_id, share_bps, max_payout, purchase_operation_id,
                                    created_at, updated_at)
        VALUES (u.operator_id, gen_random_uuid(), boarding(), u.id, u.external_user_id, gen_random_uuid()::text,
                1000, 'active', u.operator_id, 1000, 1000000, gen_random_uuid(), now(), now());
    $$;
    CREATE FUNCTION sell(share float8) RETURNS void LANGUAGE sql AS $$
        SELECT sold(u) FROM users u WHERE random() < share;
    $$;
    CREATE FUNCTION crowd(k integer) RETURNS void LANGUAGE sql AS $$
        SELECT sold(u) FROM users u CROSS JOIN generate_series(1, k) WHERE u.operator_id = first_operator();
    $$;
";

/// One line of `EXPLAIN`'s output.
#[derive(QueryableByName)]
struct PlanLine {
    #[diesel(sql_type = Text, column_name = "QUERY PLAN")]
    line: String,
}

/// Fails unless the lookup reads the unique key, in generic and custom plans.
async fn assert_lookup_reads_the_unique_key(conn: &mut AsyncPgConnection, when: &str) {
    for mode in ["force_generic_plan", "force_custom_plan"] {
        let lookup = plan(conn, mode, "lookup(first_operator(), player(), 'client-1', 1)").await;
        assert!(
            lookup
                .iter()
                .any(|line| line.contains("using flight_tickets_client_id")),
            "{when}, {mode}: a client ticket id must be found by its unique key, not by \
             reading the player's tickets: {lookup:#?}"
        );
    }
}

/// The plan of `EXECUTE call` under `mode` (`plan_cache_mode`).
async fn plan(conn: &mut AsyncPgConnection, mode: &str, call: &str) -> Vec<String> {
    conn.batch_execute(&format!("SET plan_cache_mode = {mode};"))
        .await
        .expect("set the plan mode");
    let plan: Vec<PlanLine> = sql_query(format!("EXPLAIN EXECUTE {call}"))
        .load(conn)
        .await
        .unwrap_or_else(|err| panic!("explain {call}: {err}"));
    plan.into_iter().map(|line| line.line).collect()
}

/// The store's lookup of a client ticket id, as the store sends it.
fn lookup_sql() -> String {
    let nil = uuid::Uuid::nil();
    statement(&client_ticket(nil, nil, "").select(TicketRow::as_select()).limit(1))
}

/// The store's read of the tickets due, as the store sends it.
fn due_sql() -> String {
    let query = due(uuid::Uuid::nil(), written(TicketStatus::Active), 0);
    statement(&query.limit(1).select(TicketRow::as_select()))
}

/// The SQL of `query`, without its binds.
fn statement(query: &impl QueryFragment<Pg>) -> String {
    let sql = diesel::debug_query::<Pg, _>(query).to_string();
    sql.split(" -- binds:").next().expect("the statement").to_owned()
}

#[tokio::test]
async fn a_client_ticket_id_is_found_by_its_unique_key_whatever_the_statistics_know() {
    let db = TestDatabase::create().await;
    let mut conn = AsyncPgConnection::establish(db.url()).await.expect("connect");
    conn.batch_execute(SCHEMA).await.expect("define the seed");
    conn.batch_execute(&format!(
        "PREPARE lookup(uuid, uuid, text, bigint) AS {};",
        lookup_sql()
    ))
    .await
    .expect("prepare the lookup");

    let when = "analyzed before the first ticket, then 2,000 on the boarding flight";
    conn.batch_execute("ANALYZE; SELECT board(1); SELECT crowd(4);")
        .await
        .expect(when);
    assert_lookup_reads_the_unique_key(&mut conn, when).await;

    let when = "analyzed after 20 flights of 1,250 tickets, then 2,000 on the boarding flight";
    conn.batch_execute(
        "SELECT land();
         SELECT board(n), sell(0.25), land() FROM generate_series(2, 21) n;
         ANALYZE;
         SELECT board(22); SELECT crowd(4);",
    )
    .await
    .expect(when);
    assert_lookup_reads_the_unique_key(&mut conn, when).await;
}

#[tokio::test]
async fn the_tickets_due_are_a_range_of_the_open_tickets_index_bounded_by_the_target() {
    let db = TestDatabase::create().await;
    let mut conn = AsyncPgConnection::establish(db.url()).await.expect("connect");
    conn.batch_execute(SCHEMA).await.expect("define the seed");
    conn.batch_execute(&format!("PREPARE due(uuid, bigint, bigint) AS {};", due_sql()))
        .await
        .expect("prepare the read");

    conn.batch_execute(
        "SELECT board(n), sell(0.05), land() FROM generate_series(1, 20) n;
         UPDATE flight_tickets SET status = 'lost';
         SELECT board(21), sell(1.0);
         UPDATE flight_tickets
         SET auto_cash_out = CASE WHEN random() < 0.33 THEN NULL ELSE 101 + (random() * 499)::integer END
         WHERE flight_id = boarding();
         ANALYZE;",
    )
    .await
    .expect("20 settled flights, then 5,000 tickets flying");
    for mode in ["force_generic_plan", "force_custom_plan"] {
        let read = plan(&mut conn, mode, "due(boarding(), 150, 500)").await;
        assert!(
            read.iter().any(|line| line.contains("flight_tickets_open_of_flight")),
            "{mode}: the tick reads the open tickets' index: {read:#?}"
        );
        assert!(
            read.iter()
                .any(|line| line.contains("Index Cond") && line.contains("auto_cash_out <=")),
            "{mode}: the target bounds the index range, so a tick reads only the tickets due: {read:#?}"
        );
    }
}
