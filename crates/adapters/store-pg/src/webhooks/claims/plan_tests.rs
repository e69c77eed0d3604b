//! A claim keeps its index plan, whatever the planner's statistics say and however much
//! the tables grew since the connection prepared it: the due index read in the claim's
//! order and stopped at the limit, each candidate's endpoint by its key, the attempts in
//! flight from their own index, the kept deliveries leased by their key. A plan that
//! scans, joins, hashes or sorts the deliveries or the endpoints costs a claim in
//! proportion to the backlog or to the endpoints, and the backlog grows fastest exactly
//! when the plans are stale. The load of what a claim took keeps its key lookups the same
//! way.

use diesel::sql_types::Text;
use diesel::{QueryableByName, sql_query};
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl, SimpleAsyncConnection};
use opinion_testkit::TestDatabase;

use super::{BEGIN_CLAIM, CLAIM};
use crate::webhooks::targets::load_targets;

/// Ten operators, and the tables kept out of autovacuum's reach so that the statistics
/// are the test's alone. `endpoints(n)` adds n endpoints to each operator; `backlog(n)`
/// adds n deliveries to each endpoint, each with its event, due over the last hour.
const SCHEMA: &str = "
    ALTER TABLE webhook_deliveries SET (autovacuum_enabled = false);
    ALTER TABLE webhook_endpoints SET (autovacuum_enabled = false);
    INSERT INTO operators (id, name, created_at, currency)
    SELECT gen_random_uuid(), 'Operator ' || o, now(), 'USD' FROM generate_series(1, 10) o;
    CREATE FUNCTION endpoints(n integer) RETURNS void LANGUAGE sql AS $$
        INSERT INTO webhook_endpoints (operator_id, id, url, event_types, enabled, secret, max_attempts,
                                       timeout_seconds, created_at, updated_at)
        SELECT o.id, gen_random_uuid(), 'https://hooks.example/' || i, ARRAY['trade.executed'], true,
               'whsec_test', 12, 15, now(), now()
        FROM operators o CROSS JOIN generate_series(1, n) i;
    $$;
    CREATE FUNCTION backlog(n integer) RETURNS void LANGUAGE sql AS $$
        WITH fresh AS (
            SELECT e.operator_id, e.id AS endpoint_id, gen_random_uuid() AS event_id
            FROM webhook_endpoints e CROSS JOIN generate_series(1, n) i
        ), events AS (
            INSERT INTO webhook_events (operator_id, id, event_type, data, created_at)
            SELECT operator_id, event_id, 'trade.executed', '{}', now() FROM fresh
        )
        INSERT INTO webhook_deliveries (operator_id, id, endpoint_id, event_id, event_type, status,
                                        next_attempt_at, created_at, updated_at)
        SELECT operator_id, gen_random_uuid(), endpoint_id, event_id, 'trade.executed', 'pending',
               now() - random() * interval '1 hour', now(), now()
        FROM fresh;
    $$;
";

/// A database of its own with the seed's functions defined and `seed` run on it, and a
/// connection to it (the database is dropped with the first of the pair).
async fn seeded(seed: &str) -> (TestDatabase, AsyncPgConnection) {
    let db = TestDatabase::create().await;
    let mut conn = AsyncPgConnection::establish(db.url()).await.expect("connect");
    conn.batch_execute(SCHEMA).await.expect("define the seed");
    conn.batch_execute(seed).await.expect("seed");
    (db, conn)
}

/// One line of `EXPLAIN`'s output.
#[derive(QueryableByName)]
struct PlanLine {
    #[diesel(sql_type = Text, column_name = "QUERY PLAN")]
    line: String,
}

/// Runs `sql`, then checks the claim's plans: generic (the plan the connection cached
/// when it first prepared it, on the smallest tables) and custom (planned now).
async fn after(conn: &mut AsyncPgConnection, sql: &str, when: &str) {
    conn.batch_execute(sql)
        .await
        .unwrap_or_else(|err| panic!("{when}: {err}"));
    for mode in ["force_generic_plan", "force_custom_plan"] {
        let plan = plan(conn, mode).await;
        assert_claims_by_index(&plan, &format!("{when}, {mode}"));
    }
}

/// Prepares the claim on the connection, once.
async fn prepare(conn: &mut AsyncPgConnection) {
    conn.batch_execute(&format!(
        "PREPARE claim(timestamptz, bigint, bigint, bigint, uuid, timestamptz) AS {CLAIM};"
    ))
    .await
    .expect("prepare the claim");
}

/// The lines of `explain` (an `EXPLAIN` of a prepared statement) in a transaction begun
/// as a claim's is, then `settings`, and rolled back.
async fn explained(conn: &mut AsyncPgConnection, settings: &str, explain: &str) -> Vec<String> {
    conn.batch_execute(&format!("{BEGIN_CLAIM}; {settings}"))
        .await
        .expect("open a claim's transaction");
    let lines: Vec<PlanLine> = sql_query(explain)
        .load(conn)
        .await
        .unwrap_or_else(|err| panic!("{explain}: {err}"));
    conn.batch_execute("ROLLBACK").await.expect("roll back");
    lines.into_iter().map(|line| line.line).collect()
}

/// The plan of the prepared claim under `mode` (`plan_cache_mode`).
async fn plan(conn: &mut AsyncPgConnection, mode: &str) -> Vec<String> {
    explained(
        conn,
        &format!("SET LOCAL plan_cache_mode = {mode}"),
        "EXPLAIN EXECUTE claim(now(), 8, 32, 16, gen_random_uuid(), now() + interval '1 minute')",
    )
    .await
}

/// The lines of the plan's part named `name` (`CTE candidates`): the line itself and the
/// ones indented below it.
fn part<'a>(plan: &'a [String], name: &str) -> &'a [String] {
    let indent = |line: &str| line.len() - line.trim_start().len();
    let Some(start) = plan.iter().position(|line| line.trim() == name) else {
        panic!("the plan has no {name}: {plan:#?}");
    };
    let depth = indent(&plan[start]);
    let len = plan[start + 1..].iter().take_while(|line| indent(line) > depth).count();
    &plan[start..=start + len]
}

/// Whether any line of `lines` names one of `nodes`.
fn has_any(lines: &[String], nodes: &[&str]) -> bool {
    lines.iter().any(|line| nodes.iter().any(|node| line.contains(node)))
}

/// Fails with the plan unless no part of it scans a table or bitmap, the candidates read
/// the due index in order and each candidate's endpoint by its key without a sort, a
/// hash or a join, and the lease reaches the kept deliveries by their key.
fn assert_claims_by_index(plan: &[String], when: &str) {
    assert!(
        !has_any(plan, &["Seq Scan", "Bitmap"]),
        "{when}: no part of a claim scans a table: {plan:#?}"
    );
    let candidates = part(plan, "CTE candidates");
    assert!(
        has_any(candidates, &["Index Scan using webhook_deliveries_due_idx"])
            && !has_any(candidates, &["Sort", "Hash", "Join", "Nested Loop", "Merge"]),
        "{when}: a claim must read the due index in its order and stop at its limit: {plan:#?}"
    );
    let leased = part(plan, "CTE leased");
    assert!(
        has_any(leased, &["Index Scan using webhook_deliveries_pkey"]) && !has_any(leased, &["Hash", "Merge"]),
        "{when}: the kept deliveries are leased by their key: {plan:#?}"
    );
}

#[tokio::test]
async fn a_claim_reads_the_due_index_in_order_whatever_the_statistics() {
    let db = TestDatabase::create().await;
    let mut conn = AsyncPgConnection::establish(db.url()).await.expect("connect");
    conn.batch_execute(SCHEMA).await.expect("define the seed");
    prepare(&mut conn).await;

    after(&mut conn, "SELECT endpoints(1); SELECT backlog(1);", "never analyzed").await;
    after(
        &mut conn,
        "SELECT endpoints(9); SELECT backlog(1); ANALYZE;",
        "analyzed at 100 endpoints and 110 deliveries",
    )
    .await;
    after(
        &mut conn,
        "SELECT endpoints(90); SELECT backlog(20);",
        "grown since to 1,000 endpoints and 20,110 deliveries",
    )
    .await;
    after(
        &mut conn,
        "ANALYZE",
        "analyzed at 1,000 endpoints and 20,110 deliveries",
    )
    .await;
    after(
        &mut conn,
        "UPDATE webhook_deliveries SET status = 'delivered', next_attempt_at = NULL;
         ANALYZE;
         SELECT backlog(20);",
        "analyzed with nothing pending, then 20,000 due",
    )
    .await;
}

/// The lines of `EXPLAIN ANALYZE` of the prepared claim run now with `limit`, its
/// candidates twice that, a cap no endpoint reaches, in a transaction begun as a claim's
/// is and rolled back.
async fn analyzed(conn: &mut AsyncPgConnection, limit: u32) -> Vec<String> {
    let explain = format!(
        "EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) EXECUTE claim(now(), {limit}, {}, 1000, gen_random_uuid(), \
         now() + interval '1 minute')",
        2 * limit
    );
    explained(conn, "", &explain).await
}

#[tokio::test]
async fn a_claim_walks_past_no_delivery_in_flight() {
    let (_db, mut conn) = seeded("SELECT endpoints(1); SELECT backlog(20); ANALYZE;").await;
    prepare(&mut conn).await;
    conn.batch_execute(&format!(
        "{BEGIN_CLAIM}; EXECUTE claim(now(), 100, 200, 1000, gen_random_uuid(), now() + interval '1 minute'); COMMIT;"
    ))
    .await
    .expect("lease the 100 due first");

    let plan = analyzed(&mut conn, 8).await;
    let Some(walk) = plan
        .iter()
        .position(|line| line.contains("Index Scan using webhook_deliveries_due_idx"))
    else {
        panic!("the candidates read the due index: {plan:#?}");
    };
    let own_lines = plan[walk..]
        .iter()
        .take_while(|line| !line.trim_start().starts_with("SubPlan"));
    assert!(
        plan[walk].contains("actual rows=16 ") && !own_lines.into_iter().any(|line| line.contains("Rows Removed")),
        "the walk reads the 16 candidates due: the deliveries in flight are out of its range, not filtered \
         out of it: {plan:#?}"
    );
    assert!(
        plan[0].contains("rows=8 "),
        "the claim keeps its limit from the deliveries still due: {plan:#?}"
    );
}

/// The name of the statement the connection keeps prepared for the load of what a claim
/// took.
#[derive(QueryableByName)]
struct PreparedName {
    #[diesel(sql_type = Text)]
    name: String,
}

/// The first two due deliveries and their operators, as the load's arrays.
#[derive(QueryableByName)]
struct Claimed {
    #[diesel(sql_type = Text)]
    operators: String,
    #[diesel(sql_type = Text)]
    ids: String,
}

/// The first two due deliveries, pair by pair.
async fn first_due(conn: &mut AsyncPgConnection) -> Claimed {
    sql_query(
        "SELECT array_agg(operator_id ORDER BY next_attempt_at, id)::text AS operators,
                array_agg(id ORDER BY next_attempt_at, id)::text AS ids
         FROM (SELECT operator_id, id, next_attempt_at FROM webhook_deliveries ORDER BY next_attempt_at, id LIMIT 2) d",
    )
    .get_result(conn)
    .await
    .expect("two deliveries")
}

/// The plan the connection's prepared load `statement` has now.
async fn load_plan(conn: &mut AsyncPgConnection, statement: &str) -> Vec<String> {
    let claimed = first_due(conn).await;
    let explain = format!(
        "EXPLAIN EXECUTE {statement}('{}', '{}')",
        claimed.operators, claimed.ids
    );
    explained(conn, "", &explain).await
}

/// Fails with the plan unless each of the three tables is read through its primary key on
/// both of its columns, and nothing is filtered, merged, hashed or scanned whole.
fn assert_loads_by_key(plan: &[String], when: &str) {
    for (table, second) in [
        ("webhook_deliveries", "k.id"),
        ("webhook_endpoints", "d.endpoint_id"),
        ("webhook_events", "d.event_id"),
    ] {
        let Some(scan) = plan
            .iter()
            .position(|line| line.contains(&format!("Index Scan using {table}_pkey ")))
        else {
            panic!("{when}: {table} is read by its key: {plan:#?}");
        };
        let condition = plan.get(scan + 1).map_or("", String::as_str);
        assert!(
            condition.contains("Index Cond:")
                && condition.contains("operator_id = k.operator_id")
                && condition.contains(second),
            "{when}: {table} is looked up on its whole key: {plan:#?}"
        );
    }
    assert!(
        !has_any(plan, &["Seq Scan", "Bitmap", "Merge", "Hash", "Filter"]),
        "{when}: the load reads nothing but its keys: {plan:#?}"
    );
}

#[tokio::test]
async fn a_claims_load_looks_every_row_up_by_its_key_whatever_the_statistics() {
    // The statistics a join on the two lists was planned on to read every delivery of
    // the operator for each one.
    let (_db, mut conn) = seeded("SELECT endpoints(1); SELECT backlog(20); ANALYZE;").await;
    let claimed = first_due(&mut conn).await;
    conn.batch_execute(BEGIN_CLAIM)
        .await
        .expect("open a claim's transaction");
    let operators: Vec<uuid::Uuid> = parse_uuids(&claimed.operators);
    let ids: Vec<uuid::Uuid> = parse_uuids(&claimed.ids);
    let rows = load_targets(&mut conn, &operators, &ids).await.expect("the load runs");
    conn.batch_execute("COMMIT").await.expect("commit");
    assert_eq!(rows.len(), 2, "both deliveries are loaded");
    let statement: PreparedName = sql_query(
        "SELECT name::text AS name FROM pg_prepared_statements WHERE statement LIKE 'SELECT e.operator_id, %'",
    )
    .get_result(&mut conn)
    .await
    .expect("the connection keeps the load prepared");

    assert_loads_by_key(
        &load_plan(&mut conn, &statement.name).await,
        "analyzed at 200 deliveries",
    );
    conn.batch_execute("SELECT endpoints(90); SELECT backlog(20);")
        .await
        .expect("grow the tables");
    assert_loads_by_key(
        &load_plan(&mut conn, &statement.name).await,
        "grown since to 1,000 endpoints and 20,200 deliveries",
    );
    conn.batch_execute("ANALYZE").await.expect("analyze");
    assert_loads_by_key(&load_plan(&mut conn, &statement.name).await, "analyzed at that size");
}

/// The uuids of a PostgreSQL array's text.
fn parse_uuids(array: &str) -> Vec<uuid::Uuid> {
    array
        .trim_matches(['{', '}'])
        .split(',')
        .map(|id| id.parse().expect("a uuid"))
        .collect()
}
