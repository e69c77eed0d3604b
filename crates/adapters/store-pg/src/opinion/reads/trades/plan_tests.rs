//! A trades page is planned once per connection, not at every execution: its row count
//! is part of the statement (`db/keyset_page.rs`), so PostgreSQL's generic plan is as
//! cheap as a custom one and the cached statement reuses it. With the row count bound
//! as a parameter, every execution was planned afresh.

use diesel::sql_types::{BigInt, Text};
use diesel::{QueryableByName, sql_query};
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl, SimpleAsyncConnection};
use opinion_app::opinion::reads::ports::TradeFilter;
use opinion_core::{OperatorId, PageLimit, PageRequest, TradeKind};
use opinion_testkit::TestDatabase;

use super::list;

/// Ten operators with one player and 2,000 executed trades each, written past the foreign
/// keys (the operators and markets are not what is measured), then analyzed.
const SEED: &str = "
    SET session_replication_role = replica;
    INSERT INTO users (operator_id, id, external_user_id, created_at, last_launched_at)
    SELECT ('00000000-0000-0000-0000-0000000000' || lpad(o::text, 2, '0'))::uuid,
           ('00000000-0000-0000-0000-0000000001' || lpad(o::text, 2, '0'))::uuid, 'player', now(), now()
    FROM generate_series(1, 10) o;
    INSERT INTO trades (operator_id, id, user_id, market_id, client_order_id, side, outcome, order_kind,
                        order_value, shares, amount, fee, currency, price_before_ppm, price_after_ppm,
                        status, created_at, settled_at)
    SELECT ('00000000-0000-0000-0000-0000000000' || lpad(o::text, 2, '0'))::uuid, gen_random_uuid(),
           ('00000000-0000-0000-0000-0000000001' || lpad(o::text, 2, '0'))::uuid, gen_random_uuid(),
           'order-' || t, 'buy', 'yes', 'amount', 1000000, 1000000, 1000000, 0, 'USD', 500000, 510000,
           'executed', now(), now()
    FROM generate_series(1, 10) o CROSS JOIN generate_series(1, 2000) t;
    SET session_replication_role = DEFAULT;
    ANALYZE users;
    ANALYZE trades;
";

/// How a prepared statement of the connection has been planned so far.
#[derive(QueryableByName, Debug)]
struct Plans {
    #[diesel(sql_type = Text)]
    statement: String,
    #[diesel(sql_type = BigInt)]
    generic_plans: i64,
    #[diesel(sql_type = BigInt)]
    custom_plans: i64,
}

#[tokio::test]
async fn a_trades_page_is_planned_once_per_connection_not_at_every_execution() {
    let db = TestDatabase::create().await;
    let mut conn = AsyncPgConnection::establish(db.url()).await.expect("connect");
    conn.batch_execute(SEED).await.expect("seed the trades");
    let operator = OperatorId::from_u128(1);
    let first = PageRequest::<TradeKind> {
        limit: PageLimit::DEFAULT,
        after: None,
    };
    let mut cursor = None;
    for _ in 0..9 {
        let skipped = PageRequest {
            limit: PageLimit::LARGEST,
            after: cursor,
        };
        cursor = list(&mut conn, operator, &TradeFilter::default(), skipped)
            .await
            .expect("a page of 200")
            .next;
    }
    assert!(cursor.is_some(), "1,800 trades skipped, 200 left");
    let deep = PageRequest {
        limit: PageLimit::DEFAULT,
        after: cursor,
    };
    for _ in 0..8 {
        for page in [first, deep] {
            let read = list(&mut conn, operator, &TradeFilter::default(), page)
                .await
                .expect("a page");
            assert_eq!(read.items.len(), 50);
        }
    }
    let plans: Vec<Plans> = sql_query(
        "SELECT statement, generic_plans, custom_plans FROM pg_prepared_statements \
         WHERE statement LIKE 'SELECT \"trades\".%'",
    )
    .load(&mut conn)
    .await
    .expect("the connection's statements");
    let pages: Vec<&Plans> = plans
        .iter()
        .filter(|plan| plan.statement.contains("LIMIT 51"))
        .collect();
    assert_eq!(pages.len(), 2, "the first and the deep page: {plans:#?}");
    for plan in pages {
        assert!(
            plan.generic_plans >= 3 && plan.custom_plans <= 5,
            "after PostgreSQL's five custom plans, the generic one is reused: {plan:#?}"
        );
    }
}
