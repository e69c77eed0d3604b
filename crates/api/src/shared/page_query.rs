//! Keyset pagination as the read routes receive it: `limit` and `cursor`, alone or among
//! a route's filters. Filters arrive as text and are validated by the use cases, which
//! name the parameter in every refusal; unknown parameters are refused by the query types.

use opinion_app::error::ProblemCode;
use opinion_core::{Cursor, IdKind, PageLimit, PageRequest};
use serde::Deserialize;
use utoipa::IntoParams;

use crate::http::error::ApiError;

/// Keyset pagination parameters of every list.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct PageQuery {
    /// Items per page, 1 to 200 (default 50).
    pub limit: Option<u32>,
    /// The `nextCursor` of the previous page.
    pub cursor: Option<String>,
}

impl PageQuery {
    /// The page this query asks for.
    pub fn page<K: IdKind>(&self) -> Result<PageRequest<K>, ApiError> {
        let limit = match self.limit {
            Some(limit) => {
                PageLimit::new(limit).map_err(|e| ApiError::bad_request(ProblemCode::InvalidLimit, e.to_string()))?
            }
            None => PageLimit::default(),
        };
        let after = self
            .cursor
            .as_deref()
            .map(|text| {
                Cursor::decode(text).map_err(|e| ApiError::bad_request(ProblemCode::InvalidCursor, e.to_string()))
            })
            .transpose()?;
        Ok(PageRequest { limit, after })
    }
}

/// Gives a query type that carries `limit` and `cursor` among its filters the page part
/// every list reads.
macro_rules! page_of {
    ($name:ident) => {
        impl $name {
            /// The page part of the query.
            pub fn page_query(&self) -> $crate::shared::page_query::PageQuery {
                $crate::shared::page_query::PageQuery {
                    limit: self.limit,
                    cursor: self.cursor.clone(),
                }
            }
        }
    };
}
pub(crate) use page_of;
