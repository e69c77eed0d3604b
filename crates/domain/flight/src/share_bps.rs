//! The platform's share of an operator's gross gaming revenue, in basis points (1/100 of
//! a percent): an integer, so a ticket freezes it exactly when bought.

use serde::{Deserialize, Serialize};

/// 0 to 10 000 basis points (0% to 100%).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "u16", into = "u16")]
pub struct ShareBps(u16);

/// A share above 100%.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("a share is 0 to 10000 basis points, got {0}")]
pub struct ShareBpsError(pub u16);

impl ShareBps {
    /// 100%.
    pub const MAX: u16 = 10_000;

    /// `bps` basis points, refused above 10 000.
    pub const fn new(bps: u16) -> Result<Self, ShareBpsError> {
        if bps <= Self::MAX {
            Ok(Self(bps))
        } else {
            Err(ShareBpsError(bps))
        }
    }

    /// The number of basis points.
    pub const fn get(self) -> u16 {
        self.0
    }
}

impl TryFrom<u16> for ShareBps {
    type Error = ShareBpsError;

    fn try_from(bps: u16) -> Result<Self, Self::Error> {
        Self::new(bps)
    }
}

impl From<ShareBps> for u16 {
    fn from(share: ShareBps) -> Self {
        share.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_to_ten_thousand() {
        assert_eq!(ShareBps::new(0).map(ShareBps::get), Ok(0));
        assert_eq!(ShareBps::new(10_000).map(ShareBps::get), Ok(10_000));
        assert_eq!(ShareBps::new(10_001), Err(ShareBpsError(10_001)));
    }

    #[test]
    fn serde_is_the_integer() {
        assert_eq!(
            serde_json::to_string(&ShareBps::new(1_500).ok()).ok().as_deref(),
            Some("1500")
        );
        assert_eq!(serde_json::from_str::<ShareBps>("2500").ok(), ShareBps::new(2_500).ok());
        assert!(serde_json::from_str::<ShareBps>("10001").is_err());
    }
}
