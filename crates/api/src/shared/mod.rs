//! Wire types shared by several features: the list envelope and the page of the read
//! routes' queries.

pub mod list;
pub mod page_query;
