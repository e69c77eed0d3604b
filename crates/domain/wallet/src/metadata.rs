//! Typed metadata, one shape per flow: building a mutation means filling in a struct
//! whose every field is required, so code cannot forget one of the matrix's keys. Each
//! shape also names the business action it belongs to, which is what the idempotency
//! key is derived from: metadata and key can never disagree.

use std::collections::BTreeMap;

use opinion_core::{FlightId, MarketId, RedemptionId, TicketId, TradeId, WalletOperationId};
use opinion_flight::Multiplier;
use opinion_market::{Outcome, Resolution};

use crate::action::BusinessAction;
use crate::flow::WalletFlow;
use crate::metadata_matrix::MetadataKey;
use crate::metadata_values::{ShareCount, auto_cash_out_text};

/// The metadata of a buy or a sell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TradeMetadata {
    /// The market traded on.
    pub market_id: MarketId,
    /// The trade.
    pub trade_id: TradeId,
    /// The side the shares are on.
    pub outcome: Outcome,
    /// How many shares.
    pub shares: ShareCount,
}

/// The metadata of a buy compensation (rule 6: it carries `marketId`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BuyCompensationMetadata {
    /// The market of the compensated trade.
    pub market_id: MarketId,
    /// The buy trade whose debit is given back.
    pub trade_id: TradeId,
    /// The wallet operation of that debit.
    pub compensated_operation_id: WalletOperationId,
}

/// The metadata of a redemption.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RedemptionMetadata {
    /// The resolved market.
    pub market_id: MarketId,
    /// The redemption paid out.
    pub redemption_id: RedemptionId,
    /// How the market resolved.
    pub resolution: Resolution,
}

/// The metadata of a flight ticket's purchase.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TicketPurchaseMetadata {
    /// The flight the ticket is on.
    pub flight_id: FlightId,
    /// The ticket bought.
    pub ticket_id: TicketId,
    /// Its auto cash-out target; `None` (sent as `none`) when the player set none.
    pub auto_cash_out: Option<Multiplier>,
}

/// The metadata of a cashed-out flight ticket's payout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TicketPayoutMetadata {
    /// The flight the ticket was on.
    pub flight_id: FlightId,
    /// The ticket paid.
    pub ticket_id: TicketId,
    /// The multiplier it was cashed out at.
    pub multiplier: Multiplier,
}

/// The metadata of a flight ticket's refund (like rule 6's compensation, it names what
/// it gives back).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TicketRefundMetadata {
    /// The flight the ticket was on.
    pub flight_id: FlightId,
    /// The ticket refunded.
    pub ticket_id: TicketId,
    /// The wallet operation of the ticket's purchase debit.
    pub refund_of: WalletOperationId,
}

/// The metadata of one mutation, tagged with its flow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FlowMetadata {
    /// A buy's debit.
    Buy(TradeMetadata),
    /// A sell's credit.
    Sell(TradeMetadata),
    /// A buy compensation's credit.
    BuyCompensation(BuyCompensationMetadata),
    /// A redemption's credit.
    Redemption(RedemptionMetadata),
    /// A flight ticket purchase's debit.
    FlightTicketPurchase(TicketPurchaseMetadata),
    /// A flight ticket payout's credit.
    FlightTicketPayout(TicketPayoutMetadata),
    /// A flight ticket refund's credit.
    FlightTicketRefund(TicketRefundMetadata),
}

impl FlowMetadata {
    /// The flow the metadata belongs to.
    pub const fn flow(&self) -> WalletFlow {
        self.action().flow()
    }

    /// The business action the mutation carries out.
    pub const fn action(&self) -> BusinessAction {
        match self {
            Self::Buy(trade) => BusinessAction::Buy(trade.trade_id),
            Self::Sell(trade) => BusinessAction::Sell(trade.trade_id),
            Self::BuyCompensation(compensation) => BusinessAction::BuyCompensation(compensation.trade_id),
            Self::Redemption(redemption) => BusinessAction::Redemption(redemption.redemption_id),
            Self::FlightTicketPurchase(purchase) => BusinessAction::FlightTicketPurchase(purchase.ticket_id),
            Self::FlightTicketPayout(payout) => BusinessAction::FlightTicketPayout(payout.ticket_id),
            Self::FlightTicketRefund(refund) => BusinessAction::FlightTicketRefund(refund.ticket_id),
        }
    }

    /// The metadata as sent: camelCase keys, exactly the flow's row of the matrix.
    pub fn to_map(&self) -> BTreeMap<String, String> {
        let entries: Vec<(MetadataKey, String)> = match self {
            Self::Buy(trade) | Self::Sell(trade) => vec![
                (MetadataKey::MarketId, trade.market_id.to_string()),
                (MetadataKey::TradeId, trade.trade_id.to_string()),
                (MetadataKey::Outcome, trade.outcome.to_string()),
                (MetadataKey::Shares, trade.shares.to_string()),
            ],
            Self::BuyCompensation(compensation) => vec![
                (MetadataKey::MarketId, compensation.market_id.to_string()),
                (MetadataKey::TradeId, compensation.trade_id.to_string()),
                (
                    MetadataKey::CompensatedOperationId,
                    compensation.compensated_operation_id.to_string(),
                ),
            ],
            Self::Redemption(redemption) => vec![
                (MetadataKey::MarketId, redemption.market_id.to_string()),
                (MetadataKey::RedemptionId, redemption.redemption_id.to_string()),
                (MetadataKey::Resolution, redemption.resolution.to_string()),
            ],
            Self::FlightTicketPurchase(purchase) => vec![
                (MetadataKey::FlightId, purchase.flight_id.to_string()),
                (MetadataKey::TicketId, purchase.ticket_id.to_string()),
                (MetadataKey::AutoCashOut, auto_cash_out_text(purchase.auto_cash_out)),
            ],
            Self::FlightTicketPayout(payout) => vec![
                (MetadataKey::FlightId, payout.flight_id.to_string()),
                (MetadataKey::TicketId, payout.ticket_id.to_string()),
                (MetadataKey::Multiplier, payout.multiplier.to_string()),
            ],
            Self::FlightTicketRefund(refund) => vec![
                (MetadataKey::FlightId, refund.flight_id.to_string()),
                (MetadataKey::TicketId, refund.ticket_id.to_string()),
                (MetadataKey::RefundOf, refund.refund_of.to_string()),
            ],
        };
        entries
            .into_iter()
            .map(|(key, value)| (key.as_str().to_owned(), value))
            .collect()
    }
}

#[cfg(test)]
pub(crate) mod samples {
    use super::*;

    /// One metadata of each flow, in `WalletFlow::ALL`'s order, with small distinct ids.
    pub(crate) fn all() -> [FlowMetadata; 7] {
        let trade = TradeMetadata {
            market_id: MarketId::from_u128(1),
            trade_id: TradeId::from_u128(2),
            outcome: Outcome::Yes,
            shares: ShareCount::new(10).unwrap(),
        };
        [
            FlowMetadata::Buy(trade),
            FlowMetadata::Sell(TradeMetadata {
                outcome: Outcome::No,
                ..trade
            }),
            FlowMetadata::BuyCompensation(BuyCompensationMetadata {
                market_id: MarketId::from_u128(1),
                trade_id: TradeId::from_u128(2),
                compensated_operation_id: WalletOperationId::from_u128(3),
            }),
            FlowMetadata::Redemption(RedemptionMetadata {
                market_id: MarketId::from_u128(1),
                redemption_id: RedemptionId::from_u128(4),
                resolution: Resolution::Void,
            }),
            FlowMetadata::FlightTicketPurchase(TicketPurchaseMetadata {
                flight_id: FlightId::from_u128(5),
                ticket_id: TicketId::from_u128(6),
                auto_cash_out: Some(Multiplier::from_hundredths(250)),
            }),
            FlowMetadata::FlightTicketPayout(TicketPayoutMetadata {
                flight_id: FlightId::from_u128(5),
                ticket_id: TicketId::from_u128(6),
                multiplier: Multiplier::from_hundredths(346),
            }),
            FlowMetadata::FlightTicketRefund(TicketRefundMetadata {
                flight_id: FlightId::from_u128(5),
                ticket_id: TicketId::from_u128(6),
                refund_of: WalletOperationId::from_u128(7),
            }),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metadata_matrix::required_metadata;

    #[test]
    fn every_shape_writes_exactly_its_row_of_the_matrix() {
        for metadata in samples::all() {
            let written: Vec<_> = metadata.to_map().into_keys().collect();
            let mut required: Vec<_> = required_metadata(metadata.flow())
                .iter()
                .map(|key| key.as_str().to_owned())
                .collect();
            required.sort();
            assert_eq!(written, required, "{}", metadata.flow());
        }
    }

    #[test]
    fn values_are_written_in_their_wire_form() {
        let [buy, _, compensation, redemption, purchase, payout, refund] = samples::all();
        let buy = buy.to_map();
        assert_eq!(buy["marketId"], "mkt_00000000000000000000000001");
        assert_eq!(buy["tradeId"], "trd_00000000000000000000000002");
        assert_eq!(buy["outcome"], "yes");
        assert_eq!(buy["shares"], "10");
        assert_eq!(
            compensation.to_map()["compensatedOperationId"],
            "wop_00000000000000000000000003"
        );
        assert_eq!(redemption.to_map()["resolution"], "void");
        assert_eq!(redemption.to_map()["redemptionId"], "red_00000000000000000000000004");
        let purchase = purchase.to_map();
        assert_eq!(purchase["flightId"], "flt_00000000000000000000000005");
        assert_eq!(purchase["ticketId"], "tkt_00000000000000000000000006");
        assert_eq!(purchase["autoCashOut"], "2.50");
        assert_eq!(payout.to_map()["multiplier"], "3.46");
        assert_eq!(refund.to_map()["refundOf"], "wop_00000000000000000000000007");
    }

    #[test]
    fn a_ticket_without_an_auto_cash_out_says_none() {
        let purchase = FlowMetadata::FlightTicketPurchase(TicketPurchaseMetadata {
            flight_id: FlightId::from_u128(5),
            ticket_id: TicketId::from_u128(6),
            auto_cash_out: None,
        });
        assert_eq!(purchase.to_map()["autoCashOut"], "none");
    }

    #[test]
    fn the_action_follows_the_shape() {
        let actions: Vec<_> = samples::all().iter().map(FlowMetadata::action).collect();
        assert_eq!(
            actions,
            [
                BusinessAction::Buy(TradeId::from_u128(2)),
                BusinessAction::Sell(TradeId::from_u128(2)),
                BusinessAction::BuyCompensation(TradeId::from_u128(2)),
                BusinessAction::Redemption(RedemptionId::from_u128(4)),
                BusinessAction::FlightTicketPurchase(TicketId::from_u128(6)),
                BusinessAction::FlightTicketPayout(TicketId::from_u128(6)),
                BusinessAction::FlightTicketRefund(TicketId::from_u128(6)),
            ]
        );
    }
}
