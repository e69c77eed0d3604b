use std::sync::Arc;

use time::Duration;

use crate::operations::ports::{MockOperationalStore, MockPoolWatch, PlatformFigures, PoolFigures, PoolRole};
use crate::operations::{OperationalReadings, Operations, PoolReading};
use crate::test_support::{FixedClock, NOW};

const REQUESTS: PoolFigures = PoolFigures {
    max_size: 16,
    open: 4,
    idle: 3,
    waiting: 0,
    acquired_total: 100,
    timed_out_total: 1,
    wait_total: std::time::Duration::from_millis(40),
};

const DELIVERIES: PoolFigures = PoolFigures {
    max_size: 8,
    open: 8,
    idle: 0,
    waiting: 2,
    acquired_total: 900,
    timed_out_total: 0,
    wait_total: std::time::Duration::from_millis(700),
};

fn pool(figures: PoolFigures) -> Arc<MockPoolWatch> {
    let mut watch = MockPoolWatch::new();
    watch.expect_pool_figures().return_const(figures);
    Arc::new(watch)
}

fn operations(figures: PlatformFigures) -> Operations {
    let mut store = MockOperationalStore::new();
    store.expect_platform_figures().returning(move || Ok(figures.clone()));
    Operations::new(Arc::new(store), Arc::new(FixedClock))
        .watching(PoolRole::Requests, pool(REQUESTS))
        .watching(PoolRole::Deliveries, pool(DELIVERIES))
}

#[tokio::test]
async fn the_oldest_pending_delivery_is_aged_against_the_clock_and_each_pool_read_under_its_role() {
    let readings = operations(PlatformFigures {
        webhook_backlog: 12,
        oldest_undelivered_at: Some(NOW - Duration::seconds(90)),
        manual_reviews_open: 3,
    })
    .readings()
    .await
    .expect("readings");

    assert_eq!(
        readings,
        OperationalReadings {
            webhook_backlog: 12,
            oldest_undelivered_age: Duration::seconds(90),
            manual_reviews_open: 3,
            pools: vec![
                PoolReading {
                    role: PoolRole::Requests,
                    figures: REQUESTS,
                },
                PoolReading {
                    role: PoolRole::Deliveries,
                    figures: DELIVERIES,
                },
            ],
        }
    );
}

#[tokio::test]
async fn no_backlog_is_no_age_and_a_clock_behind_the_writer_is_not_a_negative_age() {
    let empty = operations(PlatformFigures {
        webhook_backlog: 0,
        oldest_undelivered_at: None,
        manual_reviews_open: 0,
    });
    assert_eq!(
        empty.readings().await.expect("readings").oldest_undelivered_age,
        Duration::ZERO
    );

    let ahead = operations(PlatformFigures {
        webhook_backlog: 1,
        oldest_undelivered_at: Some(NOW + Duration::seconds(2)),
        manual_reviews_open: 0,
    });
    assert_eq!(
        ahead.readings().await.expect("readings").oldest_undelivered_age,
        Duration::ZERO
    );
}
