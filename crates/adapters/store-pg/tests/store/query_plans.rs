//! The schema leads the planner to the intended index in a generic plan: the plan a
//! prepared statement settles on once cached, chosen from averages rather than from the
//! values of one call.

use diesel::sql_types::Text;
use diesel::{QueryableByName, sql_query};
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl, SimpleAsyncConnection};

use crate::fixtures::*;

/// 20 operators with 50 players each and 20 trades per player, in bulk, every client
/// order id distinct as operators send them.
const SEED: &str = "
    INSERT INTO operators (id, name, created_at, currency)
    SELECT gen_random_uuid(), 'Operator ' || o, now(), 'USD' FROM generate_series(1, 20) o;
    INSERT INTO users (operator_id, id, external_user_id, created_at, last_launched_at)
    SELECT o.id, gen_random_uuid(), 'player-' || p, now(), now()
    FROM operators o CROSS JOIN generate_series(1, 50) p;
    INSERT INTO markets (id, question, rules, close_at, liquidity, fee_bps, created_at)
    VALUES (gen_random_uuid(), 'Will it?', 'By the test.', now() + interval '1 day', 1000, 0, now());
    INSERT INTO trades (operator_id, id, user_id, market_id, client_order_id, side, outcome, order_kind,
                        order_value, shares, amount, fee, currency, price_before_ppm, price_after_ppm,
                        status, created_at, settled_at)
    SELECT u.operator_id, gen_random_uuid(), u.id, m.id, gen_random_uuid()::text, 'buy', 'yes', 'shares',
           10, 10, 6, 0, 'USD', 500000, 510000, 'executed', now(), now()
    FROM users u CROSS JOIN markets m CROSS JOIN generate_series(1, 20) t;
    ANALYZE;
";

/// One line of `EXPLAIN`'s output.
#[derive(QueryableByName)]
struct PlanLine {
    #[diesel(sql_type = Text, column_name = "QUERY PLAN")]
    line: String,
}

#[tokio::test]
async fn a_client_order_lookup_uses_its_unique_key_in_a_generic_plan() {
    let (db, _store) = store().await;
    let mut conn = AsyncPgConnection::establish(db.url()).await.expect("connect");
    conn.batch_execute(SEED).await.expect("seed");
    conn.batch_execute(
        "SET plan_cache_mode = force_generic_plan;
         PREPARE lookup(uuid, uuid, text) AS
             SELECT id FROM trades WHERE operator_id = $1 AND user_id = $2 AND client_order_id = $3;",
    )
    .await
    .expect("prepare");

    let plan: Vec<PlanLine> = sql_query("EXPLAIN EXECUTE lookup(gen_random_uuid(), gen_random_uuid(), 'order-1')")
        .load(&mut conn)
        .await
        .expect("explain");
    let plan: Vec<String> = plan.into_iter().map(|line| line.line).collect();

    assert!(
        plan.iter().any(|line| line.contains("trades_client_order_key")),
        "a repeated client order id must be found by its unique key, not by walking every \
         trade of the player: {plan:#?}"
    );
}
