//! The two outcomes of a YES/NO question and the two directions of a trade.

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
}
