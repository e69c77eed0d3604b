//! The figures the operations use case reads from the store.

use async_trait::async_trait;
use time::OffsetDateTime;

use crate::ports::StoreError;

/// Platform-wide counts, read in one round trip.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlatformFigures {
    /// Deliveries still pending (waiting for their first attempt or a retry).
    pub webhook_backlog: u64,
    /// When the oldest pending delivery was created, if there is one.
    pub oldest_undelivered_at: Option<OffsetDateTime>,
    /// Wallet operations in manual review.
    pub manual_reviews_open: u64,
}

/// This instance's connection pool: its size now and what waiting for a connection has
/// cost since start-up.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PoolFigures {
    /// The most connections the pool opens.
    pub max_size: u64,
    /// Connections open now.
    pub open: u64,
    /// Open connections no request holds.
    pub idle: u64,
    /// Requests waiting for a connection now.
    pub waiting: u64,
    /// Connections handed out since start-up.
    pub acquired_total: u64,
    /// Requests that gave up waiting since start-up.
    pub timed_out_total: u64,
    /// Time spent waiting for a connection since start-up, summed over every request.
    pub wait_total: std::time::Duration,
}

/// Reads platform-wide figures across every operator, and this instance's pool.
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
#[async_trait]
pub trait OperationalStore: Send + Sync {
    /// The figures now.
    async fn platform_figures(&self) -> Result<PlatformFigures, StoreError>;

    /// The pool's figures; asks nothing of the database.
    fn pool_figures(&self) -> PoolFigures;
}
