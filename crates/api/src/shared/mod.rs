//! Wire types shared by several features: the list envelope, the page of the read
//! routes' queries, amounts in minor units and how they read on a page.

pub mod list;
pub mod major_units;
pub mod minor_units;
pub mod page_query;
pub mod web_page;
