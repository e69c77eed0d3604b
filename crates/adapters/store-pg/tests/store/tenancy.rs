//! The schema stays ready to be distributed by `operator_id` (docs/scaling.md): every
//! table either belongs to one operator or is named here as shared, and a table that
//! would be distributed keeps `operator_id` first in its primary key, in every index and
//! in every foreign key to another distributed table. An exception is a decision: it is
//! named below with its reason, and docs/scaling.md names it too.

use std::collections::BTreeSet;

use diesel::sql_types::{Bool, Text};
use diesel::{QueryableByName, sql_query};
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};

use crate::fixtures::*;

/// Tables with no `operator_id`: the same for every operator, reference tables on Citus.
const SHARED_TABLES: &[(&str, &str)] = &[
    ("__diesel_schema_migrations", "the schema's own version"),
    ("operators", "the tenants themselves"),
    ("markets", "one market list offered to every operator"),
    ("flights", "one flight schedule played by every operator's players"),
    ("flight_chains", "the seed chains the flights draw from"),
    ("statement_keys", "the platform's statement signing keys"),
    (
        "staff_login_attempts",
        "throttling counters keyed by e-mail and address, before any operator is known",
    ),
];

/// Tables with an `operator_id` that are looked up before the operator is known, so
/// they are reference tables on Citus (small, written rarely) rather than distributed.
const REFERENCE_TENANT_TABLES: &[(&str, &str)] = &[
    ("api_keys", "a request's key is found by its secret's hash"),
    ("staff_members", "a member signs in by e-mail"),
    ("launch_hosts", "a launch host names its operator"),
    (
        "launch_settings",
        "launch hosts refer to it, and a reference table may not refer to a distributed one",
    ),
];

/// Indexes of distributed tables that serve a worker's scan across every operator; on
/// Citus each shard answers its part of the scan.
const CROSS_TENANT_SCANS: &[(&str, &str)] = &[
    (
        "player_sessions_expiring_idx",
        "the session sweep ends expired sessions of every operator",
    ),
    (
        "wallet_operations_due",
        "the wallet worker claims due operations of every operator",
    ),
    (
        "wallet_operations_in_flight",
        "the wallet worker recovers stalled sends of every operator",
    ),
    (
        "webhook_deliveries_due_idx",
        "the delivery workers claim due deliveries of every operator",
    ),
    (
        "flight_tickets_of_flight",
        "a flight's crash settles every operator's tickets on it",
    ),
    (
        "flight_tickets_open_of_flight",
        "a flight's crash finds every operator's open tickets on it",
    ),
];

/// One table of the public schema.
#[derive(QueryableByName)]
struct TableRow {
    #[diesel(sql_type = Text)]
    name: String,
    #[diesel(sql_type = Bool)]
    tenant: bool,
}

/// One index of a table that has an `operator_id`.
#[derive(QueryableByName)]
struct IndexRow {
    #[diesel(sql_type = Text)]
    table_name: String,
    #[diesel(sql_type = Text)]
    index_name: String,
    #[diesel(sql_type = Bool)]
    primary_key: bool,
    #[diesel(sql_type = Text)]
    first_column: String,
}

/// One foreign key between two tables that both have an `operator_id`.
#[derive(QueryableByName)]
struct ForeignKeyRow {
    #[diesel(sql_type = Text)]
    name: String,
    #[diesel(sql_type = Text)]
    from_table: String,
    #[diesel(sql_type = Text)]
    to_table: String,
    #[diesel(sql_type = Bool)]
    carries_operator: bool,
}

const TABLES: &str = "
    SELECT c.relname::text AS name,
           EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid
                   AND a.attname = 'operator_id' AND NOT a.attisdropped) AS tenant
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p')";

const TENANT_INDEXES: &str = "
    SELECT t.relname::text AS table_name, i.relname::text AS index_name,
           x.indisprimary AS primary_key,
           coalesce((SELECT a.attname::text FROM pg_attribute a
                     WHERE a.attrelid = t.oid AND a.attnum = x.indkey[0]), '(expression)') AS first_column
    FROM pg_index x
    JOIN pg_class t ON t.oid = x.indrelid
    JOIN pg_class i ON i.oid = x.indexrelid
    JOIN pg_namespace n ON n.oid = t.relnamespace
    WHERE n.nspname = 'public'
      AND EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = t.oid
                  AND a.attname = 'operator_id' AND NOT a.attisdropped)";

const TENANT_FOREIGN_KEYS: &str = "
    SELECT c.conname::text AS name, f.relname::text AS from_table, r.relname::text AS to_table,
           EXISTS (SELECT 1 FROM unnest(c.conkey) k(n) JOIN pg_attribute a
                   ON a.attrelid = c.conrelid AND a.attnum = k.n
                   WHERE a.attname = 'operator_id') AS carries_operator
    FROM pg_constraint c
    JOIN pg_class f ON f.oid = c.conrelid
    JOIN pg_class r ON r.oid = c.confrelid
    WHERE c.contype = 'f'
      AND EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.confrelid
                  AND a.attname = 'operator_id' AND NOT a.attisdropped)";

/// The names of a list of exceptions.
fn names(list: &[(&str, &str)]) -> BTreeSet<String> {
    list.iter().map(|(name, _)| name.to_string()).collect()
}

async fn connection() -> (opinion_testkit::TestDatabase, AsyncPgConnection) {
    let (db, _store) = store().await;
    let conn = AsyncPgConnection::establish(db.url()).await.expect("connect");
    (db, conn)
}

#[tokio::test]
async fn every_table_belongs_to_one_operator_or_is_named_as_shared() {
    let (_db, mut conn) = connection().await;
    let tables: Vec<TableRow> = sql_query(TABLES).load(&mut conn).await.expect("tables");

    let shared: BTreeSet<String> = tables.iter().filter(|t| !t.tenant).map(|t| t.name.clone()).collect();
    assert_eq!(shared, names(SHARED_TABLES), "tables without operator_id");

    let tenant: BTreeSet<String> = tables.iter().filter(|t| t.tenant).map(|t| t.name.clone()).collect();
    let missing: Vec<_> = names(REFERENCE_TENANT_TABLES).difference(&tenant).cloned().collect();
    assert!(
        missing.is_empty(),
        "named reference tables that have no operator_id: {missing:?}"
    );
}

#[tokio::test]
async fn a_distributed_table_leads_every_key_and_index_with_operator_id() {
    let (_db, mut conn) = connection().await;
    let indexes: Vec<IndexRow> = sql_query(TENANT_INDEXES).load(&mut conn).await.expect("indexes");
    let reference = names(REFERENCE_TENANT_TABLES);
    let scans = names(CROSS_TENANT_SCANS);

    let distributed: Vec<&IndexRow> = indexes.iter().filter(|i| !reference.contains(&i.table_name)).collect();
    let without_key: BTreeSet<&str> = distributed
        .iter()
        .map(|i| i.table_name.as_str())
        .filter(|table| !distributed.iter().any(|i| i.table_name == *table && i.primary_key))
        .collect();
    assert!(
        without_key.is_empty(),
        "distributed tables without a primary key: {without_key:?}"
    );

    // A primary key never serves a scan across operators, whatever its name.
    let is_named_scan = |i: &IndexRow| !i.primary_key && scans.contains(&i.index_name);
    let astray: Vec<String> = distributed
        .iter()
        .filter(|i| i.first_column != "operator_id" && !is_named_scan(i))
        .map(|i| format!("{}.{} leads with {}", i.table_name, i.index_name, i.first_column))
        .collect();
    assert!(astray.is_empty(), "keys and indexes not led by operator_id: {astray:?}");

    let present: BTreeSet<String> = distributed.iter().map(|i| i.index_name.clone()).collect();
    let stale: Vec<_> = scans.difference(&present).cloned().collect();
    assert!(
        stale.is_empty(),
        "named cross-operator scans that no longer exist: {stale:?}"
    );
}

#[tokio::test]
async fn a_foreign_key_between_tenant_tables_stays_within_one_operator() {
    let (_db, mut conn) = connection().await;
    let keys: Vec<ForeignKeyRow> = sql_query(TENANT_FOREIGN_KEYS)
        .load(&mut conn)
        .await
        .expect("foreign keys");
    let reference = names(REFERENCE_TENANT_TABLES);

    for key in keys {
        let into_distributed = !reference.contains(&key.to_table);
        if reference.contains(&key.from_table) {
            assert!(
                !into_distributed,
                "{}: the reference table {} refers to the distributed table {}",
                key.name, key.from_table, key.to_table
            );
        }
        if into_distributed {
            assert!(
                key.carries_operator,
                "{}: {} refers to {} without operator_id",
                key.name, key.from_table, key.to_table
            );
        }
    }
}

#[test]
fn the_scaling_guide_names_every_exception() {
    let guide = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../../docs/scaling.md"))
        .expect("docs/scaling.md");
    let unnamed: Vec<&str> = SHARED_TABLES
        .iter()
        .chain(REFERENCE_TENANT_TABLES)
        .chain(CROSS_TENANT_SCANS)
        .map(|(name, _)| *name)
        .filter(|name| !name.starts_with("__") && !guide.contains(&format!("`{name}`")))
        .collect();
    assert!(unnamed.is_empty(), "docs/scaling.md does not name: {unnamed:?}");
}
