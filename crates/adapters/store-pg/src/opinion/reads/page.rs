//! Keyset pages: `limit + 1` rows are read so the last one only proves that more
//! follows.

use opinion_core::{IdKind, PageRequest};

/// Rows to read for a page: one more than it holds.
pub(crate) fn overfetch<K: IdKind>(page: &PageRequest<K>) -> i64 {
    i64::from(page.limit.get()) + 1
}
