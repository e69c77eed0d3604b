//! The required-metadata matrix (contract rules 1, 6, 8 and 10) as data: which camelCase
//! metadata keys each flow's mutation carries. Opinion's flows all name their market;
//! the flight product's all name their flight and ticket, and a refund the purchase it
//! gives back. The typed metadata, the validator, the operator documentation and the
//! full-contract wallet test all read this one table.

use crate::flow::WalletFlow;

/// One metadata field of a wallet mutation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MetadataKey {
    /// `marketId`: the market of the trade or redemption; the operator persists it (rule 8).
    MarketId,
    /// `tradeId`: the trade being paid for, paid out or compensated.
    TradeId,
    /// `outcome`: `yes` or `no`, the side the shares are on.
    Outcome,
    /// `shares`: the whole number of shares traded, above zero.
    Shares,
    /// `compensatedOperationId`: the platform's id of the buy debit being given back.
    CompensatedOperationId,
    /// `redemptionId`: the redemption being paid out.
    RedemptionId,
    /// `resolution`: `yes`, `no` or `void`, how the market resolved.
    Resolution,
    /// `flightId`: the flight the ticket is on.
    FlightId,
    /// `ticketId`: the ticket bought, paid or refunded.
    TicketId,
    /// `autoCashOut`: the ticket's auto cash-out target (`2.50`), or `none`.
    AutoCashOut,
    /// `multiplier`: the multiplier a ticket was cashed out at (`3.46`).
    Multiplier,
    /// `refundOf`: the platform's id of the purchase debit being given back.
    RefundOf,
}

impl MetadataKey {
    /// The camelCase key on the wire.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::MarketId => "marketId",
            Self::TradeId => "tradeId",
            Self::Outcome => "outcome",
            Self::Shares => "shares",
            Self::CompensatedOperationId => "compensatedOperationId",
            Self::RedemptionId => "redemptionId",
            Self::Resolution => "resolution",
            Self::FlightId => "flightId",
            Self::TicketId => "ticketId",
            Self::AutoCashOut => "autoCashOut",
            Self::Multiplier => "multiplier",
            Self::RefundOf => "refundOf",
        }
    }
}

/// The matrix, one row per flow: exactly these keys, no others, all required.
pub const METADATA_MATRIX: [(WalletFlow, &[MetadataKey]); 7] = [
    (WalletFlow::Buy, TRADE),
    (WalletFlow::Sell, TRADE),
    (
        WalletFlow::BuyCompensation,
        &[
            MetadataKey::MarketId,
            MetadataKey::TradeId,
            MetadataKey::CompensatedOperationId,
        ],
    ),
    (
        WalletFlow::Redemption,
        &[
            MetadataKey::MarketId,
            MetadataKey::RedemptionId,
            MetadataKey::Resolution,
        ],
    ),
    (
        WalletFlow::FlightTicketPurchase,
        &[MetadataKey::FlightId, MetadataKey::TicketId, MetadataKey::AutoCashOut],
    ),
    (
        WalletFlow::FlightTicketPayout,
        &[MetadataKey::FlightId, MetadataKey::TicketId, MetadataKey::Multiplier],
    ),
    (
        WalletFlow::FlightTicketRefund,
        &[MetadataKey::FlightId, MetadataKey::TicketId, MetadataKey::RefundOf],
    ),
];

const TRADE: &[MetadataKey] = &[
    MetadataKey::MarketId,
    MetadataKey::TradeId,
    MetadataKey::Outcome,
    MetadataKey::Shares,
];

/// The keys a flow's mutation must carry, in the matrix's order.
pub fn required_metadata(flow: WalletFlow) -> &'static [MetadataKey] {
    METADATA_MATRIX
        .iter()
        .find(|(row, _)| *row == flow)
        .map_or(&[], |(_, keys)| *keys)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(flow: WalletFlow) -> Vec<&'static str> {
        required_metadata(flow).iter().map(|key| key.as_str()).collect()
    }

    #[test]
    fn the_matrix_has_one_row_per_flow() {
        let flows: Vec<_> = METADATA_MATRIX.iter().map(|(flow, _)| *flow).collect();
        assert_eq!(flows, WalletFlow::ALL);
    }

    #[test]
    fn the_matrix_is_the_contract() {
        assert_eq!(keys(WalletFlow::Buy), ["marketId", "tradeId", "outcome", "shares"]);
        assert_eq!(keys(WalletFlow::Sell), ["marketId", "tradeId", "outcome", "shares"]);
        assert_eq!(
            keys(WalletFlow::BuyCompensation),
            ["marketId", "tradeId", "compensatedOperationId"]
        );
        assert_eq!(keys(WalletFlow::Redemption), ["marketId", "redemptionId", "resolution"]);
        assert_eq!(
            keys(WalletFlow::FlightTicketPurchase),
            ["flightId", "ticketId", "autoCashOut"]
        );
        assert_eq!(
            keys(WalletFlow::FlightTicketPayout),
            ["flightId", "ticketId", "multiplier"]
        );
        assert_eq!(
            keys(WalletFlow::FlightTicketRefund),
            ["flightId", "ticketId", "refundOf"]
        );
    }

    /// Rules 6 and 8: every trade mutation (and the redemption) carries `marketId`.
    #[test]
    fn every_opinion_flow_carries_the_market_id() {
        for flow in WalletFlow::OPINION {
            assert!(required_metadata(flow).contains(&MetadataKey::MarketId), "{flow}");
        }
    }

    /// A flight mutation names its flight and ticket, never a market.
    #[test]
    fn every_flight_flow_carries_the_flight_and_the_ticket() {
        for flow in WalletFlow::FLIGHT {
            let keys = required_metadata(flow);
            assert!(keys.contains(&MetadataKey::FlightId), "{flow}");
            assert!(keys.contains(&MetadataKey::TicketId), "{flow}");
            assert!(!keys.contains(&MetadataKey::MarketId), "{flow}");
        }
    }
}
