//! Wire types shared by several features: the list envelope and the read routes' queries.

pub mod list;
pub mod read_queries;
