//! The overview's activity over mocked reads: the window starts at a day's start in UTC,
//! every day is present, and the window is bounded.

use time::macros::{date, datetime};

use crate::error::AppError;
use crate::opinion::reads::ports::DailyTrading;
use crate::test_support::OPERATOR;
use crate::test_support::reads::*;

#[tokio::test]
async fn every_day_of_the_window_is_listed_with_quiet_days_as_zero() {
    let mut mocks = ReadMocks::default().with_operator();
    mocks
        .reads
        .expect_daily_trading()
        .withf(|operator, from| *operator == OPERATOR && *from == datetime!(2026-11-20 00:00 UTC))
        .times(1)
        .returning(|_, _| {
            Ok(vec![DailyTrading {
                day: date!(2026 - 11 - 21),
                trades: 4,
                volume: 12_500,
                players: 2,
            }])
        });
    mocks.reads.expect_manual_reviews_open().returning(|_| Ok(1));
    let activity = mocks.build().activity(OPERATOR, 3).await.expect("activity");
    let days: Vec<_> = activity.days.iter().map(|d| (d.day, d.trades, d.volume)).collect();
    assert_eq!(
        days,
        [
            (date!(2026 - 11 - 20), 0, 0),
            (date!(2026 - 11 - 21), 4, 12_500),
            (date!(2026 - 11 - 22), 0, 0)
        ]
    );
    assert_eq!(activity.today().map(|d| d.day), Some(date!(2026 - 11 - 22)));
    assert_eq!(activity.currency.as_str(), "USD");
    assert_eq!(activity.manual_reviews_open, 1);
}

#[tokio::test]
async fn the_window_is_one_to_ninety_days() {
    for days in [0, 91] {
        let refused = ReadMocks::default().build().activity(OPERATOR, days).await;
        assert!(
            matches!(refused, Err(AppError::Invalid { field: "days", .. })),
            "{days}"
        );
    }
}
