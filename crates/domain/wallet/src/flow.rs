//! The wallet mutation flows: Opinion's four and the flight product's three, which
//! product each belongs to, which way each moves money, and which of them are primary
//! mutations (ambiguity ends in manual review, contract rule 4) and which are
//! compensations (ambiguity is retried with the original key, rule 6).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::money::Currency;

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
    /// The player pays the stake of a flight ticket.
    FlightTicketPurchase,
    /// The player is paid a ticket cashed out before the crash.
    FlightTicketPayout,
    /// A ticket's stake is given back (its flight was cancelled, or it could not fly).
    FlightTicketRefund,
}

/// One of the platform's two products: what a launch opens and what a flow moves money
/// for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Product {
    /// The prediction markets.
    Opinion,
    /// The crash game.
    Flight,
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

/// A product name that is not `opinion` or `flight`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown product `{0}`")]
pub struct UnknownProduct(pub String);

/// A flow name that is not one of the seven.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown wallet flow `{0}`")]
pub struct UnknownFlow(pub String);

impl WalletFlow {
    /// Every flow: Opinion's in the contract's order, then the flight product's.
    pub const ALL: [WalletFlow; 7] = [
        Self::Buy,
        Self::Sell,
        Self::BuyCompensation,
        Self::Redemption,
        Self::FlightTicketPurchase,
        Self::FlightTicketPayout,
        Self::FlightTicketRefund,
    ];

    /// Opinion's flows, the ones its balance operations list.
    pub const OPINION: [WalletFlow; 4] = [Self::Buy, Self::Sell, Self::BuyCompensation, Self::Redemption];

    /// The flight product's flows.
    pub const FLIGHT: [WalletFlow; 3] = [
        Self::FlightTicketPurchase,
        Self::FlightTicketPayout,
        Self::FlightTicketRefund,
    ];

    /// Stable snake_case name, used in storage and as the idempotency key's prefix.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Buy => "buy",
            Self::Sell => "sell",
            Self::BuyCompensation => "buy_compensation",
            Self::Redemption => "redemption",
            Self::FlightTicketPurchase => "flight_ticket_purchase",
            Self::FlightTicketPayout => "flight_ticket_payout",
            Self::FlightTicketRefund => "flight_ticket_refund",
        }
    }

    /// The product whose business action the flow carries out.
    pub const fn product(self) -> Product {
        match self {
            Self::Buy | Self::Sell | Self::BuyCompensation | Self::Redemption => Product::Opinion,
            Self::FlightTicketPurchase | Self::FlightTicketPayout | Self::FlightTicketRefund => Product::Flight,
        }
    }

    /// Which way the flow moves money: a buy and a ticket purchase take money from the
    /// player, everything else gives it.
    pub const fn direction(self) -> Direction {
        match self {
            Self::Buy | Self::FlightTicketPurchase => Direction::Debit,
            Self::Sell
            | Self::BuyCompensation
            | Self::Redemption
            | Self::FlightTicketPayout
            | Self::FlightTicketRefund => Direction::Credit,
        }
    }

    /// Whether the flow is a primary mutation or a compensation. A ticket payout is
    /// primary like a sale or a redemption; a ticket refund gives a purchase's debit
    /// back, like a buy compensation.
    pub const fn role(self) -> FlowRole {
        match self {
            Self::Buy | Self::Sell | Self::Redemption | Self::FlightTicketPurchase | Self::FlightTicketPayout => {
                FlowRole::Primary
            }
            Self::BuyCompensation | Self::FlightTicketRefund => FlowRole::Compensation,
        }
    }

    /// Whether the flow pays the player money it is already due: a redemption, a ticket
    /// payout and both compensations. Such a credit is never dropped: refused or unsendable,
    /// it goes to staff with its amount. A sale is not owed money (refused, the player
    /// keeps the shares).
    pub const fn owes_player(self) -> bool {
        matches!(
            self,
            Self::Redemption | Self::BuyCompensation | Self::FlightTicketPayout | Self::FlightTicketRefund
        )
    }
}

impl Product {
    /// The product's name (`opinion`, `flight`), as the wallet test reports it.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Opinion => "opinion",
            Self::Flight => "flight",
        }
    }

    /// The one currency the product's money is in, if it has one: flight money is IDR
    /// whatever the operator's Opinion currency; Opinion moves the operator's currency.
    pub const fn native_currency(self) -> Option<Currency> {
        match self {
            Self::Opinion => None,
            Self::Flight => Some(Currency::IDR),
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

impl fmt::Display for Product {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Product {
    type Err = UnknownProduct;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        [Self::Opinion, Self::Flight]
            .into_iter()
            .find(|product| product.as_str() == text)
            .ok_or_else(|| UnknownProduct(text.to_owned()))
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
    fn only_buy_and_ticket_purchase_are_debits() {
        let debits: Vec<_> = WalletFlow::ALL
            .into_iter()
            .filter(|flow| flow.direction() == Direction::Debit)
            .collect();
        assert_eq!(debits, [WalletFlow::Buy, WalletFlow::FlightTicketPurchase]);
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
    fn only_buy_compensation_is_an_opinion_compensation() {
        let compensations: Vec<_> = WalletFlow::OPINION
            .into_iter()
            .filter(|flow| flow.role() == FlowRole::Compensation)
            .collect();
        assert_eq!(compensations, [WalletFlow::BuyCompensation]);
        assert_eq!(WalletFlow::Redemption.role(), FlowRole::Primary);
    }

    #[test]
    fn a_ticket_refund_is_the_flight_products_compensation() {
        assert_eq!(WalletFlow::FlightTicketPurchase.role(), FlowRole::Primary);
        assert_eq!(WalletFlow::FlightTicketPayout.role(), FlowRole::Primary);
        assert_eq!(WalletFlow::FlightTicketRefund.role(), FlowRole::Compensation);
    }

    #[test]
    fn names_are_stable_and_round_trip() {
        let names: Vec<_> = WalletFlow::OPINION.into_iter().map(WalletFlow::as_str).collect();
        assert_eq!(names, ["buy", "sell", "buy_compensation", "redemption"]);
        let names: Vec<_> = WalletFlow::FLIGHT.into_iter().map(WalletFlow::as_str).collect();
        assert_eq!(
            names,
            ["flight_ticket_purchase", "flight_ticket_payout", "flight_ticket_refund"]
        );
        assert_eq!(WalletFlow::ALL[..4], WalletFlow::OPINION);
        assert_eq!(WalletFlow::ALL[4..], WalletFlow::FLIGHT);
        for flow in WalletFlow::ALL {
            assert_eq!(flow.as_str().parse::<WalletFlow>(), Ok(flow));
        }
        assert_eq!("Buy".parse::<WalletFlow>(), Err(UnknownFlow("Buy".into())));
    }

    #[test]
    fn each_flow_belongs_to_its_product_and_only_flight_has_a_currency_of_its_own() {
        for flow in WalletFlow::OPINION {
            assert_eq!(flow.product(), Product::Opinion, "{flow}");
        }
        for flow in WalletFlow::FLIGHT {
            assert_eq!(flow.product(), Product::Flight, "{flow}");
        }
        assert_eq!(Product::Opinion.native_currency(), None);
        assert_eq!(Product::Flight.native_currency(), Some(Currency::IDR));
    }

    #[test]
    fn product_names_round_trip() {
        for product in [Product::Opinion, Product::Flight] {
            assert_eq!(product.as_str().parse::<Product>(), Ok(product));
        }
        assert_eq!("Flight".parse::<Product>(), Err(UnknownProduct("Flight".into())));
    }
}
