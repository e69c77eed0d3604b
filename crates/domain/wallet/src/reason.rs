//! Reason keys: the stable string the operator's wallet sees on every mutation and
//! allowlists (contract rule 10). Opinion's keys are namespaced by product
//! (`opinion.buy`, …); the flight product's native-IDR keys are the ones its design
//! names, verbatim and equal to their flow's name (`flight_ticket_purchase`,
//! `flight_ticket_payout`, `flight_ticket_refund`). They were added as new variants
//! without changing a byte of the existing ones; the test below pins every key.

use std::fmt;
use std::str::FromStr;

use serde_with::{DeserializeFromStr, SerializeDisplay};

use crate::flow::WalletFlow;

/// The reason sent with a wallet mutation. Keys are never renamed or reused; new ones
/// are only ever added.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, SerializeDisplay, DeserializeFromStr)]
pub enum ReasonKey {
    /// `opinion.buy`: shares bought.
    OpinionBuy,
    /// `opinion.sell`: shares sold.
    OpinionSell,
    /// `opinion.buy_compensation`: a buy debit given back.
    OpinionBuyCompensation,
    /// `opinion.redemption`: a position paid out after resolution.
    OpinionRedemption,
    /// `flight_ticket_purchase`: a flight ticket's stake, in IDR.
    FlightTicketPurchase,
    /// `flight_ticket_payout`: a cashed-out flight ticket paid, in IDR.
    FlightTicketPayout,
    /// `flight_ticket_refund`: a flight ticket's stake given back, in IDR.
    FlightTicketRefund,
}

/// A reason key that this version of the platform does not know.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown wallet reason key `{0}`")]
pub struct UnknownReasonKey(pub String);

impl ReasonKey {
    /// Every known key.
    pub const ALL: [ReasonKey; 7] = [
        Self::OpinionBuy,
        Self::OpinionSell,
        Self::OpinionBuyCompensation,
        Self::OpinionRedemption,
        Self::FlightTicketPurchase,
        Self::FlightTicketPayout,
        Self::FlightTicketRefund,
    ];

    /// The reason every mutation of a flow carries.
    pub const fn for_flow(flow: WalletFlow) -> Self {
        match flow {
            WalletFlow::Buy => Self::OpinionBuy,
            WalletFlow::Sell => Self::OpinionSell,
            WalletFlow::BuyCompensation => Self::OpinionBuyCompensation,
            WalletFlow::Redemption => Self::OpinionRedemption,
            WalletFlow::FlightTicketPurchase => Self::FlightTicketPurchase,
            WalletFlow::FlightTicketPayout => Self::FlightTicketPayout,
            WalletFlow::FlightTicketRefund => Self::FlightTicketRefund,
        }
    }

    /// The key on the wire.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::OpinionBuy => "opinion.buy",
            Self::OpinionSell => "opinion.sell",
            Self::OpinionBuyCompensation => "opinion.buy_compensation",
            Self::OpinionRedemption => "opinion.redemption",
            Self::FlightTicketPurchase => "flight_ticket_purchase",
            Self::FlightTicketPayout => "flight_ticket_payout",
            Self::FlightTicketRefund => "flight_ticket_refund",
        }
    }
}

impl fmt::Display for ReasonKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for ReasonKey {
    type Err = UnknownReasonKey;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|key| key.as_str() == text)
            .ok_or_else(|| UnknownReasonKey(text.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Operators allowlist these exact strings: changing one breaks every integration.
    #[test]
    fn existing_keys_never_change() {
        let keys: Vec<_> = ReasonKey::ALL.into_iter().map(ReasonKey::as_str).collect();
        assert_eq!(
            keys,
            [
                "opinion.buy",
                "opinion.sell",
                "opinion.buy_compensation",
                "opinion.redemption",
                "flight_ticket_purchase",
                "flight_ticket_payout",
                "flight_ticket_refund"
            ]
        );
    }

    #[test]
    fn each_flow_has_its_own_key() {
        for flow in WalletFlow::OPINION {
            let key = ReasonKey::for_flow(flow);
            assert_eq!(key.as_str(), format!("opinion.{flow}"));
        }
        for flow in WalletFlow::FLIGHT {
            assert_eq!(ReasonKey::for_flow(flow).as_str(), flow.as_str());
        }
        let keys: std::collections::HashSet<_> = WalletFlow::ALL.into_iter().map(ReasonKey::for_flow).collect();
        assert_eq!(keys.len(), ReasonKey::ALL.len());
    }

    #[test]
    fn keys_round_trip_and_unknown_ones_are_refused() {
        for key in ReasonKey::ALL {
            assert_eq!(key.as_str().parse::<ReasonKey>(), Ok(key));
        }
        for unknown in [
            "opinion.BUY",
            "buy",
            "opinion.buy ",
            "flight.bet",
            "flight.ticket_purchase",
            "opinion.flight_ticket_purchase",
            "FLIGHT_TICKET_PAYOUT",
            "",
        ] {
            assert_eq!(unknown.parse::<ReasonKey>(), Err(UnknownReasonKey(unknown.into())));
        }
    }

    #[test]
    fn serde_uses_the_wire_key() {
        let json = serde_json::to_string(&ReasonKey::OpinionBuyCompensation).ok();
        assert_eq!(json.as_deref(), Some("\"opinion.buy_compensation\""));
        let back: Result<ReasonKey, _> = serde_json::from_str("\"opinion.sell\"");
        assert_eq!(back.ok(), Some(ReasonKey::OpinionSell));
        assert!(serde_json::from_str::<ReasonKey>("\"opinion.tip\"").is_err());
    }
}
