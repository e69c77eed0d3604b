//! Keyset pages: a page of `limit` reads `limit + 1` rows, so the last one only proves
//! that more follows, and the row count is written into the statement as a constant.
//!
//! A bound `LIMIT $n` would keep PostgreSQL planning the page afresh at every execution:
//! a generic plan cannot know the limit, costs the scan as if a tenth of the rows were
//! read, and loses to the custom plan every time, so the cached statement never reuses a
//! plan. With the row count in the text the generic plan is the custom one, and after
//! its fifth execution the connection stops planning the page. The counts are rounded up
//! to a few sizes so that each page statement is prepared at most that many times per
//! connection, whatever limits clients ask for; the few rows read past the limit are
//! dropped with the rest of the overfetch.

use diesel::pg::Pg;
use diesel::query_builder::{AstPass, Query, QueryFragment, QueryId};
use diesel::result::QueryResult;
use opinion_core::{IdKind, PageLimit, PageRequest};

/// The row counts a page statement is written with, smallest first; the last holds the
/// largest page and the row after it.
const PAGE_ROWS: [u16; 5] = [11, 26, 51, 101, 201];

const _: () = assert!(PAGE_ROWS[PAGE_ROWS.len() - 1] > PageLimit::MAX);

/// `query` (ordered, without a LIMIT) read as one page of `page`: `LIMIT` the smallest
/// of the page sizes that holds `limit + 1` rows.
pub(crate) fn keyset_page<Q, K: IdKind>(query: Q, page: &PageRequest<K>) -> KeysetPage<Q> {
    KeysetPage {
        query,
        rows: page_rows(page.limit),
    }
}

/// The rows a page of `limit` reads: the smallest page size over `limit`.
fn page_rows(limit: PageLimit) -> u16 {
    PAGE_ROWS
        .into_iter()
        .find(|rows| *rows > limit.get())
        .expect("the largest page size holds the largest page")
}

/// A page's statement: its query, then `LIMIT` a constant row count.
#[derive(Debug, Clone)]
pub(crate) struct KeysetPage<Q> {
    query: Q,
    rows: u16,
}

impl<Q: QueryFragment<Pg>> QueryFragment<Pg> for KeysetPage<Q> {
    fn walk_ast<'b>(&'b self, mut pass: AstPass<'_, 'b, Pg>) -> QueryResult<()> {
        self.query.walk_ast(pass.reborrow())?;
        pass.push_sql(" LIMIT ");
        pass.push_sql(&self.rows.to_string());
        Ok(())
    }
}

impl<Q> QueryId for KeysetPage<Q> {
    type QueryId = ();
    // No id of its own: the connection's statement cache keys it by its SQL text, which
    // holds the row count.
    const HAS_STATIC_QUERY_ID: bool = false;
}

impl<Q: Query> Query for KeysetPage<Q> {
    type SqlType = Q::SqlType;
}

#[cfg(test)]
mod tests {
    use diesel::debug_query;
    use diesel::pg::Pg;
    use diesel::prelude::*;
    use diesel::query_builder::QueryFragment;
    use opinion_core::{ApiKeyKind, PageLimit, PageRequest};

    use super::{PAGE_ROWS, keyset_page, page_rows};
    use crate::db::schema::api_keys;

    #[test]
    fn every_limit_reads_one_row_more_than_it_holds_from_a_few_statements() {
        let mut sizes = std::collections::BTreeSet::new();
        for limit in PageLimit::MIN..=PageLimit::MAX {
            let rows = page_rows(PageLimit::new(u32::from(limit)).expect("a valid limit"));
            assert!(rows > limit, "{limit} reads {rows}");
            sizes.insert(rows);
        }
        assert_eq!(sizes.into_iter().collect::<Vec<_>>(), PAGE_ROWS);
        assert_eq!(
            page_rows(PageLimit::default()),
            51,
            "the default page reads exactly one more"
        );
    }

    #[test]
    fn the_row_count_is_written_into_the_statement_not_bound() {
        let page = PageRequest::<ApiKeyKind> {
            limit: PageLimit::new(25).expect("a valid limit"),
            after: None,
        };
        let query = api_keys::table
            .select(api_keys::id)
            .order(api_keys::id.desc())
            .into_boxed();
        let statement = keyset_page(query, &page);
        let sql = debug_query::<Pg, _>(&statement).to_string();
        assert!(sql.contains("ORDER BY \"api_keys\".\"id\" DESC LIMIT 26 --"), "{sql}");
        assert!(statement.is_safe_to_cache_prepared(&Pg).expect("walks"));
    }
}
