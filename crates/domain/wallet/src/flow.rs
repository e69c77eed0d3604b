//! The four wallet mutation flows of Opinion, which way each moves money, and which of
//! them are primary mutations (ambiguity ends in manual review, contract rule 4) and
//! which are compensations (ambiguity is retried with the original key, rule 6).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// Why the platform calls a player's wallet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WalletFlow {
    /// The player pays for shares.
    Buy,
    /// The player is paid for shares sold back to the market.
    Sell,
    /// A buy debit is given back because the trade could not be completed after it.
    BuyCompensation,
    /// The player is paid out on a resolved (or voided) market.
    Redemption,
}

/// Which way a flow moves the player's money; `debit` or `credit` on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Direction {
    /// Money leaves the player's wallet.
    Debit,
    /// Money arrives in the player's wallet.
    Credit,
}

/// What an ambiguous answer means for a flow: the contract treats the two roles
/// differently (rules 4 and 6), so every decision about retries starts here.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FlowRole {
    /// A business action in its own right; ambiguity ends in manual review.
    Primary,
    /// The undoing of an earlier primary debit; ambiguity is retried with the original key.
    Compensation,
}

/// A flow name that is not one of the four.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown wallet flow `{0}`")]
pub struct UnknownFlow(pub String);

impl WalletFlow {
    /// Every flow, in the contract's order.
    pub const ALL: [WalletFlow; 4] = [Self::Buy, Self::Sell, Self::BuyCompensation, Self::Redemption];

    /// Stable snake_case name, used in storage and as the idempotency key's prefix.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Buy => "buy",
            Self::Sell => "sell",
            Self::BuyCompensation => "buy_compensation",
            Self::Redemption => "redemption",
        }
    }

    /// Which way the flow moves money: only a buy takes money from the player.
    pub const fn direction(self) -> Direction {
        match self {
            Self::Buy => Direction::Debit,
            Self::Sell | Self::BuyCompensation | Self::Redemption => Direction::Credit,
        }
    }

    /// Whether the flow is a primary mutation or a compensation.
    pub const fn role(self) -> FlowRole {
        match self {
            Self::Buy | Self::Sell | Self::Redemption => FlowRole::Primary,
            Self::BuyCompensation => FlowRole::Compensation,
        }
    }
}

impl Direction {
    /// The name on the wire.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Debit => "debit",
            Self::Credit => "credit",
        }
    }
}

impl fmt::Display for Direction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Display for WalletFlow {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for WalletFlow {
    type Err = UnknownFlow;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|flow| flow.as_str() == text)
            .ok_or_else(|| UnknownFlow(text.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_buy_is_a_debit() {
        let debits: Vec<_> = WalletFlow::ALL
            .into_iter()
            .filter(|flow| flow.direction() == Direction::Debit)
            .collect();
        assert_eq!(debits, [WalletFlow::Buy]);
    }

    #[test]
    fn directions_are_written_in_lower_case() {
        for direction in [Direction::Debit, Direction::Credit] {
            let json = serde_json::to_string(&direction).unwrap();
            assert_eq!(json, format!("\"{direction}\""));
            assert_eq!(serde_json::from_str::<Direction>(&json).unwrap(), direction);
        }
    }

    #[test]
    fn only_buy_compensation_is_a_compensation() {
        let compensations: Vec<_> = WalletFlow::ALL
            .into_iter()
            .filter(|flow| flow.role() == FlowRole::Compensation)
            .collect();
        assert_eq!(compensations, [WalletFlow::BuyCompensation]);
        assert_eq!(WalletFlow::Redemption.role(), FlowRole::Primary);
    }

    #[test]
    fn names_are_stable_and_round_trip() {
        let names: Vec<_> = WalletFlow::ALL.into_iter().map(WalletFlow::as_str).collect();
        assert_eq!(names, ["buy", "sell", "buy_compensation", "redemption"]);
        for flow in WalletFlow::ALL {
            assert_eq!(flow.as_str().parse::<WalletFlow>(), Ok(flow));
        }
        assert_eq!("Buy".parse::<WalletFlow>(), Err(UnknownFlow("Buy".into())));
    }
}
