//! A market's life cycle: open for trading, closed (no trading, awaiting the answer),
//! then resolved once and for all.
//!
//! Allowed: `open → closed`, `closed → resolved`, and `open → resolved` (the answer can
//! be known, or the question be voided, before the planned close; resolving implies
//! closing). A resolved market never changes again.

use serde::{Deserialize, Serialize};

/// How a market's question was answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Resolution {
    /// YES shares pay one minor unit each.
    Yes,
    /// NO shares pay one minor unit each.
    No,
    /// The question is cancelled: every player gets their net cost back.
    Void,
}

impl std::str::FromStr for Resolution {
    type Err = crate::outcome::UnknownName;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        [Self::Yes, Self::No, Self::Void]
            .into_iter()
            .find(|resolution| resolution.as_str() == text)
            .ok_or_else(|| crate::outcome::UnknownName(text.to_owned()))
    }
}

impl std::fmt::Display for Resolution {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Resolution {
    /// Stable lower-case name for storage and the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Yes => "yes",
            Self::No => "no",
            Self::Void => "void",
        }
    }
}

/// Where a market is in its life cycle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MarketStatus {
    /// Players may trade.
    Open,
    /// Trading has stopped; the answer is not yet known.
    Closed,
    /// Final: the answer is known and winners are paid.
    Resolved(Resolution),
}

/// Why a status change or a trade is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum StatusError {
    /// Only an open market can be closed.
    #[error("only an open market can be closed; this one is {from}")]
    CloseNotOpen {
        /// The status the market is in.
        from: MarketStatus,
    },
    /// A market is resolved at most once.
    #[error("the market is already resolved ({})", resolution.as_str())]
    AlreadyResolved {
        /// The resolution it already has.
        resolution: Resolution,
    },
    /// Trading happens only while the market is open.
    #[error("the market is not open for trading; it is {status}")]
    TradingNotOpen {
        /// The status the market is in.
        status: MarketStatus,
    },
}

impl MarketStatus {
    /// Stops trading, because the event is about to happen or has happened.
    pub fn close(self) -> Result<Self, StatusError> {
        match self {
            Self::Open => Ok(Self::Closed),
            other => Err(StatusError::CloseNotOpen { from: other }),
        }
    }

    /// Settles the question; from an open market this also closes it.
    pub fn resolve(self, resolution: Resolution) -> Result<Self, StatusError> {
        match self {
            Self::Open | Self::Closed => Ok(Self::Resolved(resolution)),
            Self::Resolved(existing) => Err(StatusError::AlreadyResolved { resolution: existing }),
        }
    }

    /// Refuses a trade unless the market is open, so quotes are only acted on while the
    /// price still means something.
    pub fn ensure_trading(self) -> Result<(), StatusError> {
        match self {
            Self::Open => Ok(()),
            status => Err(StatusError::TradingNotOpen { status }),
        }
    }

    /// The resolution, once there is one, because redemption depends on it.
    pub fn resolution(self) -> Option<Resolution> {
        match self {
            Self::Resolved(resolution) => Some(resolution),
            Self::Open | Self::Closed => None,
        }
    }

    /// Stable lower-case name for storage and the wire (the resolution is separate).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Open => "open",
            Self::Closed => "closed",
            Self::Resolved(_) => "resolved",
        }
    }
}

impl std::fmt::Display for MarketStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Resolved(resolution) => write!(f, "resolved ({})", resolution.as_str()),
            other => f.write_str(other.as_str()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ALL_RESOLUTIONS: [Resolution; 3] = [Resolution::Yes, Resolution::No, Resolution::Void];

    #[test]
    fn open_closes_then_resolves() {
        let closed = MarketStatus::Open.close();
        assert_eq!(closed, Ok(MarketStatus::Closed));
        for resolution in ALL_RESOLUTIONS {
            assert_eq!(
                MarketStatus::Closed.resolve(resolution),
                Ok(MarketStatus::Resolved(resolution))
            );
        }
    }

    #[test]
    fn open_can_resolve_directly() {
        for resolution in ALL_RESOLUTIONS {
            assert_eq!(
                MarketStatus::Open.resolve(resolution),
                Ok(MarketStatus::Resolved(resolution))
            );
        }
    }

    #[test]
    fn closing_twice_or_after_resolution_is_refused() {
        assert_eq!(
            MarketStatus::Closed.close(),
            Err(StatusError::CloseNotOpen {
                from: MarketStatus::Closed
            })
        );
        let resolved = MarketStatus::Resolved(Resolution::No);
        assert_eq!(resolved.close(), Err(StatusError::CloseNotOpen { from: resolved }));
    }

    #[test]
    fn resolution_is_final() {
        for first in ALL_RESOLUTIONS {
            for second in ALL_RESOLUTIONS {
                assert_eq!(
                    MarketStatus::Resolved(first).resolve(second),
                    Err(StatusError::AlreadyResolved { resolution: first })
                );
            }
        }
    }

    #[test]
    fn only_open_markets_trade() {
        assert_eq!(MarketStatus::Open.ensure_trading(), Ok(()));
        for status in [MarketStatus::Closed, MarketStatus::Resolved(Resolution::Void)] {
            assert_eq!(status.ensure_trading(), Err(StatusError::TradingNotOpen { status }));
        }
    }

    #[test]
    fn resolution_and_names() {
        assert_eq!(MarketStatus::Open.resolution(), None);
        assert_eq!(MarketStatus::Closed.resolution(), None);
        assert_eq!(
            MarketStatus::Resolved(Resolution::Yes).resolution(),
            Some(Resolution::Yes)
        );
        assert_eq!(MarketStatus::Open.as_str(), "open");
        assert_eq!(MarketStatus::Closed.as_str(), "closed");
        assert_eq!(MarketStatus::Resolved(Resolution::No).as_str(), "resolved");
        assert_eq!(Resolution::Void.as_str(), "void");
        assert_eq!(MarketStatus::Resolved(Resolution::Void).to_string(), "resolved (void)");
        assert_eq!(
            StatusError::TradingNotOpen {
                status: MarketStatus::Closed
            }
            .to_string(),
            "the market is not open for trading; it is closed"
        );
    }
}
