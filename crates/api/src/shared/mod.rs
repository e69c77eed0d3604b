//! Wire types shared by several features: the list envelope, the page of the read
//! routes' queries, amounts in minor units.

pub mod list;
pub mod minor_units;
pub mod page_query;
