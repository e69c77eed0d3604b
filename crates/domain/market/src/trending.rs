//! Which of an operator's markets are trending: a score from its players' executed
//! trades over a recent window, in integer micro-points so ranking never meets a float.
//!
//! One point each for: a distinct trader; traded volume equal to the market's liquidity
//! `b` (volume is measured against `b` because `b` sets how much money moves prices, and
//! it makes markets of any currency comparable); a ten-percentage-point move of the YES
//! price over the window. So
//!
//! ```text
//! score = 1 000 000 × traders + 1 000 000 × volume / b + 10 × |Δ YES price in ppm|
//! ```
//!
//! Higher scores rank first; equal scores rank the newer market (the higher id) first.

use std::cmp::Ordering;

use opinion_core::{MarketId, wire_enum};

use crate::{Liquidity, PricePpm};

/// Micro-points per point of score.
const MICRO: i128 = 1_000_000;
/// Micro-points per ppm of YES price movement: 100 000 ppm (ten percentage points) make a point.
const MICRO_PER_MOVEMENT_PPM: i128 = 10;

wire_enum!(
    /// How far back the trending ranking looks.
    #[derive(Default)]
    TrendingWindow, "trending window" {
        /// The last hour.
        Hour = "1h",
        /// The last 24 hours (the default).
        #[default]
        Day = "24h",
        /// The last seven days.
        Week = "7d",
    }
);

impl TrendingWindow {
    /// The window's length.
    pub const fn duration(self) -> time::Duration {
        match self {
            Self::Hour => time::Duration::HOUR,
            Self::Day => time::Duration::DAY,
            Self::Week => time::Duration::WEEK,
        }
    }
}

/// A market's executed trading in the window, as the score reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Activity {
    /// Distinct players with an executed trade in the window.
    pub traders: i64,
    /// Sum of those trades' amounts (debits and credits), in minor units.
    pub volume: i64,
    /// The market's liquidity `b`.
    pub liquidity: Liquidity,
    /// The YES price before the window's first executed trade.
    pub yes_price_at_start: PricePpm,
    /// The YES price of the operator's pool now.
    pub yes_price_now: PricePpm,
}

/// A market's score and the components it is made of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TrendingScore {
    /// Distinct traders.
    pub traders: i64,
    /// Volume in minor units.
    pub volume: i64,
    /// `|YES now − YES at start|` in ppm.
    pub price_movement_ppm: u32,
    /// The score, in micro-points.
    pub score: i64,
}

/// Scores one market's activity by the formula above; saturates rather than overflows.
pub fn trending_score(activity: &Activity) -> TrendingScore {
    let movement = activity.yes_price_now.ppm().abs_diff(activity.yes_price_at_start.ppm());
    let traders = i128::from(activity.traders.max(0));
    let volume = i128::from(activity.volume.max(0));
    let score = MICRO * traders
        + MICRO * volume / i128::from(activity.liquidity.minor_units())
        + MICRO_PER_MOVEMENT_PPM * i128::from(movement);
    TrendingScore {
        traders: activity.traders,
        volume: activity.volume,
        price_movement_ppm: movement,
        score: i64::try_from(score).unwrap_or(i64::MAX),
    }
}

/// The ranking order: higher score first, then the newer market.
pub fn trending_order(a: (&TrendingScore, MarketId), b: (&TrendingScore, MarketId)) -> Ordering {
    b.0.score.cmp(&a.0.score).then_with(|| b.1.cmp(&a.1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn price(ppm: i64) -> PricePpm {
        PricePpm::from_ppm(ppm).unwrap()
    }

    fn activity(traders: i64, volume: i64, start: i64, now: i64) -> Activity {
        Activity {
            traders,
            volume,
            liquidity: Liquidity::new(1_000).unwrap(),
            yes_price_at_start: price(start),
            yes_price_now: price(now),
        }
    }

    #[test]
    fn each_component_is_worth_a_point_at_its_unit() {
        assert_eq!(trending_score(&activity(1, 0, 500_000, 500_000)).score, 1_000_000);
        assert_eq!(trending_score(&activity(0, 1_000, 500_000, 500_000)).score, 1_000_000);
        assert_eq!(trending_score(&activity(0, 0, 500_000, 600_000)).score, 1_000_000);
        assert_eq!(trending_score(&activity(0, 0, 600_000, 500_000)).score, 1_000_000);
        let all = trending_score(&activity(3, 500, 400_000, 450_000));
        assert_eq!(all.score, 3_000_000 + 500_000 + 500_000);
        assert_eq!((all.traders, all.volume, all.price_movement_ppm), (3, 500, 50_000));
    }

    #[test]
    fn volume_counts_against_the_liquidity() {
        let deep = Activity {
            liquidity: Liquidity::new(100_000).unwrap(),
            ..activity(0, 1_000, 500_000, 500_000)
        };
        assert_eq!(trending_score(&deep).score, 10_000);
    }

    #[test]
    fn ties_rank_the_newer_market_first() {
        let score = trending_score(&activity(1, 0, 500_000, 500_000));
        let better = trending_score(&activity(2, 0, 500_000, 500_000));
        let (old, new) = (MarketId::from_u128(1), MarketId::from_u128(2));
        assert_eq!(trending_order((&score, new), (&score, old)), Ordering::Less);
        assert_eq!(trending_order((&better, old), (&score, new)), Ordering::Less);
    }

    #[test]
    fn windows_have_stable_names() {
        for &window in TrendingWindow::ALL {
            assert_eq!(window.as_str().parse::<TrendingWindow>(), Ok(window));
        }
        assert_eq!(TrendingWindow::default(), TrendingWindow::Day);
        assert_eq!(TrendingWindow::Week.duration(), time::Duration::days(7));
        assert!("2d".parse::<TrendingWindow>().is_err());
    }

    proptest! {
        #[test]
        fn more_activity_never_scores_less(
            traders in 0i64..1_000_000, volume in 0i64..10_000_000_000_000,
            extra_traders in 0i64..1_000, extra_volume in 0i64..1_000_000,
            start in 0i64..=1_000_000, now in 0i64..=1_000_000,
        ) {
            let base = trending_score(&activity(traders, volume, start, now));
            let more = trending_score(&activity(traders + extra_traders, volume + extra_volume, start, now));
            prop_assert!(more.score >= base.score);
            prop_assert!(base.score >= 0);
        }
    }
}
