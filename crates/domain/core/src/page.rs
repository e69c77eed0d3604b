//! Page sizes and pages of keyset-paginated lists.

use crate::cursor::Cursor;
use crate::id::{Id, IdKind};

/// How many items a page holds: 50 unless asked, 1 to 200.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageLimit(u16);

/// Why a requested page size was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("limit must be between {min} and {max}", min = PageLimit::MIN, max = PageLimit::MAX)]
pub struct PageLimitError;

impl PageLimit {
    /// Smallest page size.
    pub const MIN: u16 = 1;
    /// Largest page size.
    pub const MAX: u16 = 200;
    /// Page size when the client names none.
    pub const DEFAULT: PageLimit = PageLimit(50);
    /// The largest page, for reads that take everything a page can hold.
    pub const LARGEST: PageLimit = PageLimit(Self::MAX);

    /// Validates a client's page size.
    pub fn new(value: u32) -> Result<Self, PageLimitError> {
        u16::try_from(value)
            .ok()
            .filter(|v| (Self::MIN..=Self::MAX).contains(v))
            .map(Self)
            .ok_or(PageLimitError)
    }

    /// The page size as a number.
    pub const fn get(self) -> u16 {
        self.0
    }
}

impl Default for PageLimit {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// Which page of a list ordered by id (newest first) to read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageRequest<K: IdKind> {
    /// How many items at most.
    pub limit: PageLimit,
    /// Start strictly after this item; `None` for the first page.
    pub after: Option<Cursor<K>>,
}

impl<K: IdKind> Default for PageRequest<K> {
    fn default() -> Self {
        Self {
            limit: PageLimit::DEFAULT,
            after: None,
        }
    }
}

/// One page of a list, and whether more follows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Page<T, K: IdKind> {
    /// The items, newest first.
    pub items: Vec<T>,
    /// Where the next page starts, when there is one.
    pub next: Option<Cursor<K>>,
}

impl<T, K: IdKind> Page<T, K> {
    /// Builds a page from rows read in order, more than `limit` when more follows: the
    /// rows past the limit only prove that and are not returned.
    pub fn from_overfetch(mut rows: Vec<T>, limit: PageLimit, id_of: impl Fn(&T) -> Id<K>) -> Self {
        let limit = usize::from(limit.get());
        let has_more = rows.len() > limit;
        rows.truncate(limit);
        let next = if has_more {
            rows.last().map(|last| Cursor::after(id_of(last)))
        } else {
            None
        };
        Self { items: rows, next }
    }

    /// Whether another page follows this one.
    pub fn has_more(&self) -> bool {
        self.next.is_some()
    }

    /// The same page with every item converted.
    pub fn map<U>(self, convert: impl FnMut(T) -> U) -> Page<U, K> {
        Page {
            items: self.items.into_iter().map(convert).collect(),
            next: self.next,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::id::ApiKeyId;

    #[test]
    fn limit_bounds() {
        assert_eq!(PageLimit::new(0), Err(PageLimitError));
        assert_eq!(PageLimit::new(1).map(PageLimit::get), Ok(1));
        assert_eq!(PageLimit::new(200).map(PageLimit::get), Ok(200));
        assert_eq!(PageLimit::new(201), Err(PageLimitError));
        assert_eq!(PageLimit::new(70_000), Err(PageLimitError));
        assert_eq!(PageLimit::default().get(), 50);
    }

    #[test]
    fn overfetched_row_becomes_the_cursor_not_an_item() {
        let limit = PageLimit::new(2).expect("valid");
        let page = Page::from_overfetch(vec![9u128, 8, 7], limit, |v| ApiKeyId::from_u128(*v));
        assert_eq!(page.items, vec![9, 8]);
        assert_eq!(page.next, Some(Cursor::after(ApiKeyId::from_u128(8))));
    }

    #[test]
    fn last_page_has_no_cursor() {
        let limit = PageLimit::new(2).expect("valid");
        let page = Page::from_overfetch(vec![9u128, 8], limit, |v| ApiKeyId::from_u128(*v));
        assert!(!page.has_more());
        assert_eq!(page.items.len(), 2);
    }
}
