//! What the people running the platform watch: the figures a scrape of `GET /metrics`
//! reads from the database and the pools (webhook backlog, the oldest undelivered
//! event, open manual reviews, the pressure on each connection pool), as opposed to the
//! counters each instance keeps of its own requests and calls.

pub mod ports;

#[cfg(test)]
mod readings_tests;

use std::sync::Arc;

use time::Duration;

use crate::error::AppError;
use crate::operations::ports::{OperationalStore, PlatformFigures, PoolFigures, PoolRole, PoolWatch};
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
    /// This instance's connection pools, each with its role.
    pub pools: Vec<PoolReading>,
}

/// One connection pool's figures and what the pool serves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PoolReading {
    /// What the pool serves.
    pub role: PoolRole,
    /// Its figures at the reading.
    pub figures: PoolFigures,
}

/// Reads the platform's operational figures.
#[derive(Clone)]
pub struct Operations {
    store: Arc<dyn OperationalStore>,
    clock: Arc<dyn Clock>,
    pools: Vec<(PoolRole, Arc<dyn PoolWatch>)>,
}

impl Operations {
    /// The use case over `store`, measuring ages against `clock`, watching no pool yet.
    pub fn new(store: Arc<dyn OperationalStore>, clock: Arc<dyn Clock>) -> Self {
        Self {
            store,
            clock,
            pools: Vec::new(),
        }
    }

    /// The same use case, also reading the pool `watch` as the pool serving `role`.
    pub fn watching(mut self, role: PoolRole, watch: Arc<dyn PoolWatch>) -> Self {
        self.pools.push((role, watch));
        self
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
            pools: self
                .pools
                .iter()
                .map(|(role, watch)| PoolReading {
                    role: *role,
                    figures: watch.pool_figures(),
                })
                .collect(),
        })
    }
}
