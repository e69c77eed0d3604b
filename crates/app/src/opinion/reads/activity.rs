//! The operator's trading at a glance, for the dashboard's overview: executed trades,
//! their volume and the players behind them per UTC day over a recent window (every day
//! present, quiet days as zero), and the wallet operations waiting in manual review.

use opinion_core::OperatorId;
use opinion_wallet::Currency;
use time::{Duration, Time};

use crate::access::operator_currency;
use crate::error::AppError;
use crate::opinion::reads::OperatorReads;
use crate::opinion::reads::ports::DailyTrading;

/// Longest window, in days, the overview may ask for.
pub const MAX_ACTIVITY_DAYS: u16 = 90;

/// The operator's recent trading.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Activity {
    /// One entry per UTC day, oldest first, today last.
    pub days: Vec<DailyTrading>,
    /// The currency of the volumes.
    pub currency: Currency,
    /// Wallet operations of the operator waiting in manual review.
    pub manual_reviews_open: u64,
}

impl Activity {
    /// Today's figures (the last day).
    pub fn today(&self) -> Option<&DailyTrading> {
        self.days.last()
    }
}

impl OperatorReads {
    /// The last `days` UTC days of the operator's trading, today included (1 to
    /// [`MAX_ACTIVITY_DAYS`]), and its open manual reviews.
    pub async fn activity(&self, operator: OperatorId, days: u16) -> Result<Activity, AppError> {
        if !(1..=MAX_ACTIVITY_DAYS).contains(&days) {
            return Err(AppError::invalid("days", format!("must be 1 to {MAX_ACTIVITY_DAYS}")));
        }
        let today = self.ports.clock.now().date();
        let first = today - Duration::days(i64::from(days) - 1);
        let found = self
            .ports
            .reads
            .daily_trading(operator, first.with_time(Time::MIDNIGHT).assume_utc())
            .await?;
        let days = (0..i64::from(days))
            .map(|offset| {
                let day = first + Duration::days(offset);
                found
                    .iter()
                    .find(|figures| figures.day == day)
                    .copied()
                    .unwrap_or(DailyTrading {
                        day,
                        trades: 0,
                        volume: 0,
                        players: 0,
                    })
            })
            .collect();
        Ok(Activity {
            days,
            currency: operator_currency(self.ports.operators.as_ref(), operator).await?,
            manual_reviews_open: self.ports.reads.manual_reviews_open(operator).await?,
        })
    }
}
