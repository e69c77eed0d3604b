//! No index repeats another: an index whose columns lead another index of its table, in
//! the same order and read in the same or the opposite direction, serves no read the
//! longer one cannot, yet every insert, and every update that moves one of its columns,
//! writes it. A tenant table's reads all fix `operator_id`, so after a leading
//! `operator_id` only the directions of the columns that follow it count.

use diesel::sql_types::{Array, Bool, Text};
use diesel::{QueryableByName, sql_query};
use diesel_async::{AsyncConnection, RunQueryDsl};

use crate::fixtures::*;

/// One index of the public schema, its key columns in order.
#[derive(QueryableByName, Debug)]
struct IndexRow {
    #[diesel(sql_type = Text)]
    table_name: String,
    #[diesel(sql_type = Text)]
    index_name: String,
    #[diesel(sql_type = Bool)]
    unique: bool,
    #[diesel(sql_type = Bool)]
    partial: bool,
    /// A column's name, or `(expression)`.
    #[diesel(sql_type = Array<Text>)]
    columns: Vec<String>,
    #[diesel(sql_type = Array<Bool>)]
    descending: Vec<bool>,
}

const INDEXES: &str = "
    SELECT t.relname::text AS table_name, i.relname::text AS index_name,
           x.indisunique AS unique, x.indpred IS NOT NULL AS partial,
           array(SELECT coalesce(a.attname::text, '(expression)')
                 FROM generate_series(0, x.indnkeyatts - 1) k
                 LEFT JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = x.indkey[k]
                 ORDER BY k) AS columns,
           array(SELECT (x.indoption[k] & 1) = 1
                 FROM generate_series(0, x.indnkeyatts - 1) k
                 ORDER BY k) AS descending
    FROM pg_index x
    JOIN pg_class t ON t.oid = x.indrelid
    JOIN pg_class i ON i.oid = x.indexrelid
    JOIN pg_namespace n ON n.oid = t.relnamespace
    WHERE n.nspname = 'public'";

impl IndexRow {
    /// Whether `longer` answers every read this index answers: this one constrains
    /// nothing and covers every row, and its columns lead `longer`'s in directions
    /// `longer` reads forwards or backwards.
    fn repeated_by(&self, longer: &IndexRow) -> bool {
        let width = self.columns.len();
        let comparable = self.index_name != longer.index_name
            && self.table_name == longer.table_name
            && !self.unique
            && !self.partial
            && !longer.partial
            && !self.columns.iter().any(|column| column == "(expression)")
            && longer.columns.len() >= width
            && longer.columns[..width] == self.columns[..];
        if !comparable {
            return false;
        }
        let fixed = usize::from(self.columns[0] == "operator_id");
        let (mine, theirs) = (&self.descending[fixed..], &longer.descending[fixed..width]);
        mine == theirs || mine.iter().zip(theirs).all(|(a, b)| a != b)
    }
}

#[tokio::test]
async fn no_index_repeats_the_columns_that_lead_another() {
    let (db, _store) = store().await;
    let mut conn = diesel_async::AsyncPgConnection::establish(db.url())
        .await
        .expect("connect");
    let indexes: Vec<IndexRow> = sql_query(INDEXES).load(&mut conn).await.expect("indexes");
    assert!(
        indexes.iter().any(|i| i.index_name == "flight_tickets_pkey"),
        "the catalog query finds the schema's indexes: {indexes:?}"
    );

    let repeated: Vec<String> = indexes
        .iter()
        .flat_map(|short| {
            indexes
                .iter()
                .filter(|longer| short.repeated_by(longer))
                .map(move |longer| format!("{} is led by {}", short.index_name, longer.index_name))
        })
        .collect();

    assert!(repeated.is_empty(), "indexes another one already serves: {repeated:?}");
}

/// An index of `table` on `columns`, descending where `descending` says.
fn index(table: &str, name: &str, columns: &[&str], descending: &[bool]) -> IndexRow {
    IndexRow {
        table_name: table.into(),
        index_name: name.into(),
        unique: false,
        partial: false,
        columns: columns.iter().map(|c| c.to_string()).collect(),
        descending: descending.to_vec(),
    }
}

#[test]
fn an_index_is_repeated_only_by_one_that_reads_its_columns_in_its_order() {
    let key = IndexRow {
        unique: true,
        ..index("t", "t_pkey", &["operator_id", "id"], &[false, false])
    };
    let newest_first = index("t", "t_by_operator", &["operator_id", "id"], &[false, true]);
    let by_user = index(
        "t",
        "t_by_user",
        &["operator_id", "user_id", "id"],
        &[false, false, true],
    );
    let by_user_oldest = index(
        "t",
        "t_by_user_old",
        &["operator_id", "user_id", "id"],
        &[false, false, false],
    );
    let user_prefix = index("t", "t_user", &["operator_id", "user_id"], &[false, false]);
    let due = index("t", "t_due", &["next_at", "id"], &[false, false]);
    let due_mixed = index("t", "t_due_mixed", &["next_at", "id"], &[false, true]);
    let elsewhere = index("u", "u_by_operator", &["operator_id", "id"], &[false, true]);

    assert!(
        newest_first.repeated_by(&key),
        "read backwards once the operator is fixed"
    );
    assert!(!key.repeated_by(&newest_first), "a unique key constrains");
    assert!(user_prefix.repeated_by(&by_user));
    assert!(
        !by_user.repeated_by(&by_user_oldest),
        "both read only forwards or only backwards"
    );
    assert!(
        !due_mixed.repeated_by(&due),
        "no fixed first column: the directions count"
    );
    assert!(!elsewhere.repeated_by(&key), "another table's");
    let partial = IndexRow {
        partial: true,
        ..index("t", "t_open", &["operator_id"], &[false])
    };
    assert!(!partial.repeated_by(&key), "it covers only some rows");
}
