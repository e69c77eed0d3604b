//! A claim's statements keep their index plans, whatever the planner's statistics say
//! and however much the tables grew since the connection prepared them: the due index
//! read in the claim's order and stopped at the limit, each candidate's endpoint by its
//! key, the attempts in flight from their own index. A plan that scans, joins, hashes
//! or sorts the deliveries or the endpoints costs a claim in proportion to the backlog
//! or to the endpoints, and the backlog grows fastest exactly when the plans are stale.

use diesel::sql_types::Text;
use diesel::{QueryableByName, sql_query};
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl, SimpleAsyncConnection};
use opinion_testkit::TestDatabase;

use super::{CANDIDATES, IN_FLIGHT, PLANNER};

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

/// One line of `EXPLAIN`'s output.
#[derive(QueryableByName)]
struct PlanLine {
    #[diesel(sql_type = Text, column_name = "QUERY PLAN")]
    line: String,
}

/// Runs `sql`, then checks both statements' plans: generic (the plan the connection
/// cached when it first prepared them, on the smallest tables) and custom (planned now).
async fn after(conn: &mut AsyncPgConnection, sql: &str, when: &str) {
    conn.batch_execute(sql)
        .await
        .unwrap_or_else(|err| panic!("{when}: {err}"));
    for mode in ["force_generic_plan", "force_custom_plan"] {
        let candidates = plan(conn, mode, "candidates(now(), 128, ARRAY[gen_random_uuid()])").await;
        assert_reads_the_due_index_in_order(&candidates, &format!("{when}, {mode}"));
        let in_flight = plan(conn, mode, "in_flight(now())").await;
        assert!(
            in_flight.iter().all(|line| !line.contains("Seq Scan")),
            "{when}, {mode}: the attempts in flight are counted from their index: {in_flight:#?}"
        );
    }
}

/// Prepares the claim's statements on the connection, once.
async fn prepare(conn: &mut AsyncPgConnection) {
    conn.batch_execute(&format!(
        "PREPARE candidates(timestamptz, bigint, uuid[]) AS {CANDIDATES};
         PREPARE in_flight(timestamptz) AS {IN_FLIGHT};"
    ))
    .await
    .expect("prepare the claim's statements");
}

/// The plan of the prepared `execution` under `mode` (`plan_cache_mode`), in a
/// transaction with the claim's planner settings.
async fn plan(conn: &mut AsyncPgConnection, mode: &str, execution: &str) -> Vec<String> {
    conn.batch_execute(&format!("BEGIN; {PLANNER}; SET LOCAL plan_cache_mode = {mode};"))
        .await
        .expect("open a claim's transaction");
    let lines: Vec<PlanLine> = sql_query(format!("EXPLAIN EXECUTE {execution}"))
        .load(conn)
        .await
        .unwrap_or_else(|err| panic!("explain {execution}: {err}"));
    conn.batch_execute("COMMIT").await.expect("commit");
    lines.into_iter().map(|line| line.line).collect()
}

/// Fails with the plan unless it reads the due index in order, and each candidate's
/// endpoint by its key, without a scan, a sort, a hash or a join.
fn assert_reads_the_due_index_in_order(plan: &[String], when: &str) {
    let scan = plan
        .iter()
        .any(|line| line.contains("Index Scan using webhook_deliveries_due_idx"));
    let costly = plan.iter().find(|line| {
        ["Seq Scan", "Sort", "Hash", "Join", "Nested Loop", "Bitmap"]
            .iter()
            .any(|node| line.contains(node))
    });
    assert!(
        scan && costly.is_none(),
        "{when}: a claim must read the due index in its order and stop at its limit, \
         not {costly:?}: {plan:#?}"
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
