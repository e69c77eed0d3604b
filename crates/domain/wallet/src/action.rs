//! The business action behind a wallet mutation: which flow, for which platform object.
//! Its identity is what the idempotency key is derived from (contract rules 2 and 5), so
//! the flow and the kind of id always agree: a redemption cannot be keyed by a trade.
//! A flight ticket has at most one purchase, one payout and one refund, forever, so each
//! is keyed by the ticket.

use opinion_core::{RedemptionId, TicketId, TradeId};

use crate::flow::WalletFlow;

/// One business action that moves money, named by the platform object it belongs to.
/// A buy and its compensation share the trade but are different actions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BusinessAction {
    /// The debit paying for a bought trade.
    Buy(TradeId),
    /// The credit paying for a sold trade.
    Sell(TradeId),
    /// The credit giving back the debit of a buy trade that could not be completed.
    BuyCompensation(TradeId),
    /// The credit paying out one redemption.
    Redemption(RedemptionId),
    /// The debit paying a flight ticket's stake.
    FlightTicketPurchase(TicketId),
    /// The credit paying a cashed-out flight ticket.
    FlightTicketPayout(TicketId),
    /// The credit giving a flight ticket's stake back.
    FlightTicketRefund(TicketId),
}

impl BusinessAction {
    /// The flow this action is carried out by.
    pub const fn flow(self) -> WalletFlow {
        match self {
            Self::Buy(_) => WalletFlow::Buy,
            Self::Sell(_) => WalletFlow::Sell,
            Self::BuyCompensation(_) => WalletFlow::BuyCompensation,
            Self::Redemption(_) => WalletFlow::Redemption,
            Self::FlightTicketPurchase(_) => WalletFlow::FlightTicketPurchase,
            Self::FlightTicketPayout(_) => WalletFlow::FlightTicketPayout,
            Self::FlightTicketRefund(_) => WalletFlow::FlightTicketRefund,
        }
    }

    /// The prefixed id of the object the action belongs to (`trd_…`, `red_…` or `tkt_…`).
    pub fn subject(self) -> String {
        match self {
            Self::Buy(trade) | Self::Sell(trade) | Self::BuyCompensation(trade) => trade.to_string(),
            Self::Redemption(redemption) => redemption.to_string(),
            Self::FlightTicketPurchase(ticket)
            | Self::FlightTicketPayout(ticket)
            | Self::FlightTicketRefund(ticket) => ticket.to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flow_and_subject_follow_the_variant() {
        let trade = TradeId::from_u128(1);
        let redemption = RedemptionId::from_u128(1);
        assert_eq!(BusinessAction::Buy(trade).flow(), WalletFlow::Buy);
        assert_eq!(BusinessAction::Sell(trade).flow(), WalletFlow::Sell);
        assert_eq!(
            BusinessAction::BuyCompensation(trade).flow(),
            WalletFlow::BuyCompensation
        );
        assert_eq!(BusinessAction::Redemption(redemption).flow(), WalletFlow::Redemption);
        assert_eq!(BusinessAction::Buy(trade).subject(), "trd_00000000000000000000000001");
        assert_eq!(
            BusinessAction::Redemption(redemption).subject(),
            "red_00000000000000000000000001"
        );
    }

    #[test]
    fn flight_actions_are_keyed_by_the_ticket() {
        let ticket = TicketId::from_u128(7);
        let actions = [
            (
                BusinessAction::FlightTicketPurchase(ticket),
                WalletFlow::FlightTicketPurchase,
            ),
            (
                BusinessAction::FlightTicketPayout(ticket),
                WalletFlow::FlightTicketPayout,
            ),
            (
                BusinessAction::FlightTicketRefund(ticket),
                WalletFlow::FlightTicketRefund,
            ),
        ];
        for (action, flow) in actions {
            assert_eq!(action.flow(), flow);
            assert_eq!(action.subject(), "tkt_00000000000000000000000007");
        }
    }
}
