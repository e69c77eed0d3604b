//! Keyset pages on a dashboard list: the API's `limit` and `cursor`, with the page's other
//! query parameters kept in the link to the next page.

use maud::{Markup, html};
use opinion_core::{IdKind, Page, PageRequest};
use serde::Deserialize;

use crate::dashboard::error::DashboardError;
use crate::shared::page_query::PageQuery;

/// Rows per dashboard page.
pub const ROWS: u32 = 25;

/// The page of a list the dashboard asks for: the cursor given, `ROWS` rows.
#[derive(Debug, Default, Deserialize)]
pub struct Cursor {
    /// The `nextCursor` of the previous page.
    pub cursor: Option<String>,
}

impl Cursor {
    /// The page request, validated as the API validates it.
    pub fn page<K: IdKind>(&self) -> Result<PageRequest<K>, DashboardError> {
        Ok(PageQuery {
            limit: Some(ROWS),
            cursor: self.cursor.clone().filter(|cursor| !cursor.is_empty()),
        }
        .page()?)
    }
}

/// The pager under a list: back to the first page when past it, on to the next while one
/// follows. `filters` are the list's other query parameters.
pub fn pager<R, K: IdKind>(path: &str, page: &Page<R, K>, filters: &[(&str, String)], paged: bool) -> Markup {
    let next = page.next.as_ref().map(|cursor| {
        let mut query = url::form_urlencoded::Serializer::new(String::new());
        for (name, value) in filters.iter().filter(|(_, value)| !value.is_empty()) {
            query.append_pair(name, value);
        }
        query.append_pair("cursor", &cursor.encode());
        format!("{path}?{}", query.finish())
    });
    let first = {
        let mut query = url::form_urlencoded::Serializer::new(String::new());
        for (name, value) in filters.iter().filter(|(_, value)| !value.is_empty()) {
            query.append_pair(name, value);
        }
        let query = query.finish();
        if query.is_empty() {
            path.to_owned()
        } else {
            format!("{path}?{query}")
        }
    };
    html! {
        nav.pager aria-label="Pages" {
            @if paged { a href=(first) { "← First page" } }
            @if let Some(next) = next { a rel="next" href=(next) { "Next page →" } }
        }
    }
}
