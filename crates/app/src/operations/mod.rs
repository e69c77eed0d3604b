//! What the people running the platform watch: the figures a scrape of `GET /metrics`
//! reads from the database and the pool (webhook backlog, the oldest undelivered
//! event, open manual reviews, pool pressure), as opposed to the counters each instance
//! keeps of its own requests and calls.

pub mod ports;

#[cfg(test)]
mod readings_tests;

use std::sync::Arc;

use time::Duration;

use crate::error::AppError;
use crate::operations::ports::{OperationalStore, PlatformFigures, PoolFigures};
use crate::ports::Clock;

/// The platform's state as operations staff watch it, read once per scrape.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OperationalReadings {
    /// Deliveries not yet delivered, failed for good or cancelled, across every operator.
    pub webhook_backlog: u64,
    /// How long the oldest of those has waited; zero when there is none.
    pub oldest_undelivered_age: Duration,
    /// Wallet operations waiting for staff in manual review.
    pub manual_reviews_open: u64,
    /// This instance's connection pool.
    pub pool: PoolFigures,
}

/// Reads the platform's operational figures.
#[derive(Clone)]
pub struct Operations {
    store: Arc<dyn OperationalStore>,
    clock: Arc<dyn Clock>,
}

impl Operations {
    /// The use case over `store`, measuring ages against `clock`.
    pub fn new(store: Arc<dyn OperationalStore>, clock: Arc<dyn Clock>) -> Self {
        Self { store, clock }
    }

    /// The figures now. An age is never negative, even when a row was written by an
    /// instance whose clock runs ahead of this one's.
    pub async fn readings(&self) -> Result<OperationalReadings, AppError> {
        let PlatformFigures {
            webhook_backlog,
            oldest_undelivered_at,
            manual_reviews_open,
        } = self.store.platform_figures().await?;
        let oldest_undelivered_age = oldest_undelivered_at
            .map(|at| (self.clock.now() - at).max(Duration::ZERO))
            .unwrap_or(Duration::ZERO);
        Ok(OperationalReadings {
            webhook_backlog,
            oldest_undelivered_age,
            manual_reviews_open,
            pool: self.store.pool_figures(),
        })
    }
}
