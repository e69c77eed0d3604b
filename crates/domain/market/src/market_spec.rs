//! What staff set when they create a market, validated as a whole. The clock is the
//! caller's: "closes in the future" is checked against the `now` it passes in.

use time::OffsetDateTime;

use crate::{FeeRate, FeeRateError, Liquidity, LiquidityError, MarketQuestion, MarketRules, MarketTextError};

/// A validated new market: every operator's pool on it uses its liquidity and fee.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MarketSpec {
    /// The question players bet on.
    pub question: MarketQuestion,
    /// How the question will be resolved.
    pub rules: MarketRules,
    /// When trading stops.
    pub close_at: OffsetDateTime,
    /// The LMSR liquidity `b` of each operator's pool.
    pub liquidity: Liquidity,
    /// The trading fee.
    pub fee: FeeRate,
}

/// Why a new market is refused; each variant names one field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum MarketSpecError {
    /// The question or the rules text.
    #[error(transparent)]
    Text(#[from] MarketTextError),
    /// The liquidity parameter.
    #[error(transparent)]
    Liquidity(#[from] LiquidityError),
    /// The fee rate.
    #[error(transparent)]
    Fee(#[from] FeeRateError),
    /// A market that is already closed could never be traded.
    #[error("the close time must be in the future")]
    CloseNotInFuture {
        /// The requested close time.
        close_at: OffsetDateTime,
        /// The caller's clock.
        now: OffsetDateTime,
    },
}

impl MarketSpec {
    /// Validates every field of a new market against the caller's clock `now`.
    pub fn parse(
        question: &str,
        rules: &str,
        close_at: OffsetDateTime,
        liquidity: i64,
        fee_bps: u16,
        now: OffsetDateTime,
    ) -> Result<Self, MarketSpecError> {
        let question = MarketQuestion::parse(question)?;
        let rules = MarketRules::parse(rules)?;
        check_close_time(close_at, now)?;
        Ok(Self {
            question,
            rules,
            close_at,
            liquidity: Liquidity::new(liquidity)?,
            fee: FeeRate::from_bps(fee_bps)?,
        })
    }
}

/// Refuses a close time that is not strictly after `now`, because a market must be open
/// for some time to be traded. Also for moving an open market's close time.
pub fn check_close_time(close_at: OffsetDateTime, now: OffsetDateTime) -> Result<(), MarketSpecError> {
    if close_at > now {
        Ok(())
    } else {
        Err(MarketSpecError::CloseNotInFuture { close_at, now })
    }
}

#[cfg(test)]
mod tests {
    use time::Duration;
    use time::macros::datetime;

    use super::*;

    const NOW: OffsetDateTime = datetime!(2026-05-01 12:00 UTC);

    fn parse(close_at: OffsetDateTime, liquidity: i64, fee_bps: u16) -> Result<MarketSpec, MarketSpecError> {
        MarketSpec::parse(" Will it rain? ", "IPMA data.", close_at, liquidity, fee_bps, NOW)
    }

    #[test]
    fn a_valid_market() {
        let close_at = NOW + Duration::days(7);
        let spec = parse(close_at, 50_000, 200).unwrap();
        assert_eq!(spec.question.as_str(), "Will it rain?");
        assert_eq!(spec.rules.as_str(), "IPMA data.");
        assert_eq!(spec.close_at, close_at);
        assert_eq!(spec.liquidity.minor_units(), 50_000);
        assert_eq!(spec.fee.bps(), 200);
    }

    #[test]
    fn close_time_must_be_strictly_in_the_future() {
        assert_eq!(check_close_time(NOW + Duration::SECOND, NOW), Ok(()));
        assert_eq!(
            check_close_time(NOW, NOW),
            Err(MarketSpecError::CloseNotInFuture {
                close_at: NOW,
                now: NOW
            })
        );
        assert!(matches!(
            parse(NOW - Duration::days(1), 50_000, 0),
            Err(MarketSpecError::CloseNotInFuture { .. })
        ));
    }

    #[test]
    fn each_field_is_checked() {
        let later = NOW + Duration::HOUR;
        assert_eq!(
            MarketSpec::parse("", "", later, 10, 0, NOW),
            Err(MarketSpecError::Text(MarketTextError::Question(
                opinion_core::LabelError::Empty
            )))
        );
        assert_eq!(
            MarketSpec::parse("Q?", &"x".repeat(10_001), later, 10, 0, NOW),
            Err(MarketSpecError::Text(MarketTextError::RulesTooLong))
        );
        assert_eq!(
            parse(later, 0, 0),
            Err(MarketSpecError::Liquidity(LiquidityError::NotPositive(0)))
        );
        assert_eq!(
            parse(later, Liquidity::MAX + 1, 0),
            Err(MarketSpecError::Liquidity(LiquidityError::TooLarge(Liquidity::MAX + 1)))
        );
        assert_eq!(parse(later, 10, 1_001), Err(MarketSpecError::Fee(FeeRateError(1_001))));
        assert_eq!(
            parse(later, 10, 1_001).unwrap_err().to_string(),
            "fee must be at most 1000 basis points, got 1001"
        );
    }
}
