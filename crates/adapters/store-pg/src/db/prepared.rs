//! Hand-written SQL that a connection prepares once and then reuses. Diesel treats every
//! `sql_query` as possibly different each time and never caches it, so on a hot path each
//! call costs a round trip to prepare it and PostgreSQL parses and plans it afresh. A
//! statement whose text is a constant, bound with the same types every time, is as safe
//! to cache as one built with the query builder: [`prepared`] says so, and the
//! connection's statement cache keys it by its text.

use diesel::pg::Pg;
use diesel::query_builder::{AstPass, Query, QueryFragment, QueryId};
use diesel::result::QueryResult;

/// `query`, whose SQL text is a constant and whose binds always have the same types,
/// cached by the connection like a query built with the query builder.
pub(crate) fn prepared<Q>(query: Q) -> Prepared<Q> {
    Prepared(query)
}

/// A query the connection's statement cache keeps, keyed by its SQL text.
#[derive(Debug, Clone)]
pub(crate) struct Prepared<Q>(Q);

impl<Q: QueryFragment<Pg>> QueryFragment<Pg> for Prepared<Q> {
    fn walk_ast<'b>(&'b self, pass: AstPass<'_, 'b, Pg>) -> QueryResult<()> {
        self.0.walk_ast(pass)
    }

    fn is_safe_to_cache_prepared(&self, _backend: &Pg) -> QueryResult<bool> {
        Ok(true)
    }
}

impl<Q> QueryId for Prepared<Q> {
    type QueryId = ();
    // No id of its own: the cache keys it by its SQL text and bind types.
    const HAS_STATIC_QUERY_ID: bool = false;
}

impl<Q: Query> Query for Prepared<Q> {
    type SqlType = Q::SqlType;
}

#[cfg(test)]
mod tests {
    use diesel::pg::Pg;
    use diesel::query_builder::QueryFragment;
    use diesel::sql_types::Uuid as SqlUuid;

    use super::prepared;

    #[test]
    fn a_constant_statement_is_cacheable_where_a_plain_sql_query_is_not() {
        let plain = || diesel::sql_query("SELECT $1").bind::<SqlUuid, _>(uuid::Uuid::nil());
        assert!(!plain().is_safe_to_cache_prepared(&Pg).unwrap());
        assert!(prepared(plain()).is_safe_to_cache_prepared(&Pg).unwrap());
    }
}
