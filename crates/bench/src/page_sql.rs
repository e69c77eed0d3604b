//! The trades page's SQL alone, as the database's ceiling for `GET /api/operator/trades`:
//! the statement the store runs for one page (the trades table read by its keyset with
//! each row's player external id from a correlated subquery, `limit + 1` rows written
//! into the statement), as a pgbench script run prepared, with the operator (and the
//! deep page's cursor) as variables. With `pg_stat_statements` loaded, the run checks
//! the script against the statement the service really ran.

use std::path::{Path, PathBuf};

use tokio_postgres::Client;

use crate::pgbench::Script;

/// The columns and tables of the page, as diesel writes them (`TradeRow::as_select()`,
/// the external id as `single_value()`), up to the WHERE clause.
const SELECT: &str = r#"SELECT "trades"."operator_id", "trades"."id", "trades"."user_id", (SELECT "users"."external_user_id" FROM "users" WHERE (("users"."operator_id" = "trades"."operator_id") AND ("users"."id" = "trades"."user_id")) LIMIT :one), "trades"."market_id", "trades"."client_order_id", "trades"."side", "trades"."outcome", "trades"."order_kind", "trades"."order_value", "trades"."order_limit", "trades"."shares", "trades"."amount", "trades"."fee", "trades"."currency", "trades"."price_before_ppm", "trades"."price_after_ppm", "trades"."status", "trades"."failure_reason", "trades"."created_at", "trades"."settled_at" FROM "trades""#;

/// The first page's condition and order.
const FIRST_PAGE_TAIL: &str = r#"WHERE ("trades"."operator_id" = :operator) ORDER BY "trades"."id" DESC"#;

/// A page after a cursor: the trades older than the cursor's.
const DEEP_PAGE_TAIL: &str =
    r#"WHERE (("trades"."operator_id" = :operator) AND ("trades"."id" < :cursor)) ORDER BY "trades"."id" DESC"#;

/// Rows one page of 50 reads, as the store writes them into the statement: one more
/// proves that more follows.
const PAGE_ROWS: u32 = 51;

/// The first page's statement, with pgbench variables.
pub fn first_page_sql() -> String {
    format!("{SELECT} {FIRST_PAGE_TAIL} LIMIT {PAGE_ROWS}")
}

/// The deep page's statement, with pgbench variables.
pub fn deep_page_sql() -> String {
    format!("{SELECT} {DEEP_PAGE_TAIL} LIMIT {PAGE_ROWS}")
}

/// Writes the pgbench script of `sql` into `dir` as `name`.sql and returns the script to
/// run on `database` for `operator` (and `cursor`, for a deep page).
pub fn script(
    dir: &Path,
    name: &str,
    sql: &str,
    database: &str,
    operator: &str,
    cursor: Option<&str>,
) -> anyhow::Result<Script> {
    std::fs::create_dir_all(dir)?;
    let file: PathBuf = dir.join(format!("{name}.sql"));
    std::fs::write(&file, format!("\\set one 1\n{sql};\n"))?;
    let mut variables = vec![("operator".to_owned(), operator.to_owned())];
    if let Some(cursor) = cursor {
        variables.push(("cursor".to_owned(), cursor.to_owned()));
    }
    Ok(Script::Custom {
        file,
        database: database.to_owned(),
        variables,
    })
}

/// The id (a uuid's text) of the last trade of page `pages` of `operator`: the cursor of
/// the page after it.
pub async fn cursor_after(client: &Client, operator: &str, pages: usize) -> anyhow::Result<String> {
    let offset = i64::try_from(pages * 50)? - 1;
    let row = client
        .query_one(
            "SELECT id::text FROM trades WHERE operator_id = $1::text::uuid ORDER BY id DESC OFFSET $2 LIMIT 1",
            &[&operator, &offset],
        )
        .await?;
    Ok(row.get(0))
}

/// Whether `ran` (a statement from `pg_stat_statements`, parameters and constants as
/// `$n`) is `script` (parameters as pgbench `:name` variables, constants as written),
/// whitespace and parameter names aside.
pub fn same_statement(ran: &str, script: &str) -> bool {
    normalized(ran) == normalized(script)
}

/// The statement with every parameter and number as `?` and whitespace collapsed.
fn normalized(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len());
    let mut chars = sql.chars().peekable();
    while let Some(c) = chars.next() {
        if (c == '$' || c == ':') && chars.peek().is_some_and(|next| next.is_ascii_alphanumeric()) {
            while chars
                .peek()
                .is_some_and(|next| next.is_ascii_alphanumeric() || *next == '_')
            {
                chars.next();
            }
            out.push('?');
        } else if c.is_ascii_digit() && !out.ends_with(|last: char| last.is_ascii_alphanumeric() || last == '_') {
            while chars.peek().is_some_and(char::is_ascii_digit) {
                chars.next();
            }
            out.push('?');
        } else if c.is_whitespace() {
            if !out.ends_with(' ') {
                out.push(' ');
            }
        } else {
            out.push(c);
        }
    }
    out.trim().to_owned()
}

#[cfg(test)]
mod tests {
    use super::{deep_page_sql, first_page_sql, same_statement};

    #[test]
    fn a_statement_matches_its_script_whatever_the_parameter_names() {
        let ran = first_page_sql()
            .replace(":one", "$1")
            .replace(":operator", "$2")
            .replace("LIMIT 51", "LIMIT $3");
        assert!(same_statement(&ran, &first_page_sql()));
        assert!(!same_statement(&ran, &deep_page_sql()));
        assert!(!same_statement(&ran.replace("DESC", "ASC"), &first_page_sql()));
        assert!(
            !same_statement(&ran.replace("trades", "trades2"), &first_page_sql()),
            "a digit inside a name is not a constant"
        );
    }
}
