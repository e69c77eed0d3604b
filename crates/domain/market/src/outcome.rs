//! The two outcomes of a YES/NO question and the two directions of a trade.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// One side of the question: a share of it pays one minor unit if it wins.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// The question resolves YES.
    Yes,
    /// The question resolves NO.
    No,
}

impl Outcome {
    /// Stable lower-case name for storage and the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Yes => "yes",
            Self::No => "no",
        }
    }
}

/// A name that is not one of a type's lower-case wire names.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a known name")]
pub struct UnknownName(pub String);

impl FromStr for Outcome {
    type Err = UnknownName;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        [Self::Yes, Self::No]
            .into_iter()
            .find(|outcome| outcome.as_str() == text)
            .ok_or_else(|| UnknownName(text.to_owned()))
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Whether the player buys shares from the pool or sells them back to it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    /// The player pays and receives shares.
    Buy,
    /// The player gives shares back and is paid.
    Sell,
}

impl Side {
    /// Stable lower-case name for storage and the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Buy => "buy",
            Self::Sell => "sell",
        }
    }
}

impl FromStr for Side {
    type Err = UnknownName;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        [Self::Buy, Self::Sell]
            .into_iter()
            .find(|side| side.as_str() == text)
            .ok_or_else(|| UnknownName(text.to_owned()))
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_stable() {
        assert_eq!(Outcome::Yes.as_str(), "yes");
        assert_eq!(Outcome::No.as_str(), "no");
        assert_eq!(Side::Buy.as_str(), "buy");
        assert_eq!(Side::Sell.as_str(), "sell");
    }

    #[test]
    fn outcome_and_resolution_names_round_trip_and_are_exact() {
        for outcome in [Outcome::Yes, Outcome::No] {
            assert_eq!(outcome.to_string().parse::<Outcome>(), Ok(outcome));
        }
        for resolution in [crate::Resolution::Yes, crate::Resolution::No, crate::Resolution::Void] {
            assert_eq!(resolution.to_string().parse::<crate::Resolution>(), Ok(resolution));
        }
        assert_eq!("YES".parse::<Outcome>(), Err(UnknownName("YES".into())));
        for side in [Side::Buy, Side::Sell] {
            assert_eq!(side.to_string().parse::<Side>(), Ok(side));
        }
        assert!("Buy".parse::<Side>().is_err());
        assert!("void".parse::<Outcome>().is_err());
    }
}
