//! The envelope of every list: one keyset page.

use opinion_core::{IdKind, Page};
use serde::Serialize;
use utoipa::ToSchema;

/// A page of items, newest first, and where the next one starts.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ListBody<T> {
    /// The items.
    pub data: Vec<T>,
    /// Pass as `cursor` to read the next page; null on the last page.
    pub next_cursor: Option<String>,
    /// Whether another page follows.
    pub has_more: bool,
}

impl<T> ListBody<T> {
    /// The body of a page, with each record converted to its wire form.
    pub fn from_page<R, K: IdKind>(page: Page<R, K>, convert: impl FnMut(R) -> T) -> Self {
        let has_more = page.has_more();
        let next_cursor = page.next.map(|cursor| cursor.encode());
        Self {
            data: page.items.into_iter().map(convert).collect(),
            next_cursor,
            has_more,
        }
    }
}
