//! How a store port fails, in the use cases' terms.

/// Why the store could not do what was asked.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// A unique constraint refused the write; names the constraint's subject (e.g. `staff_email`).
    #[error("duplicate {0}")]
    Duplicate(&'static str),
    /// A compare-and-set precondition no longer held (someone changed the row first);
    /// names what changed (e.g. `pool`). Nothing was written: read again and retry.
    #[error("{0} changed concurrently")]
    Conflict(&'static str),
    /// The database could not be reached or failed; the message is for logs only.
    #[error("store unavailable: {0}")]
    Unavailable(String),
}
