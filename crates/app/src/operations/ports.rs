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

/// One of this instance's connection pools: its size now and what waiting for a
/// connection has cost since start-up.
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

/// Which of an instance's connection pools a figure is about. The delivery workers have a
/// pool of their own, so neither the requests nor the deliveries can take every
/// connection from the other.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PoolRole {
    /// Requests, and every background worker but webhook delivery.
    Requests,
    /// The webhook delivery workers.
    Deliveries,
}

impl PoolRole {
    /// The pool's name as a metrics label.
    pub fn label(self) -> &'static str {
        match self {
            PoolRole::Requests => "requests",
            PoolRole::Deliveries => "deliveries",
        }
    }
}

/// Reads platform-wide figures across every operator.
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
#[async_trait]
pub trait OperationalStore: Send + Sync {
    /// The figures now.
    async fn platform_figures(&self) -> Result<PlatformFigures, StoreError>;
}

/// Reads one connection pool's figures; asks nothing of the database.
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
pub trait PoolWatch: Send + Sync {
    /// The pool's figures now.
    fn pool_figures(&self) -> PoolFigures;
}
