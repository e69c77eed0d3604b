//! Typed metadata, one shape per flow: building a mutation means filling in a struct
//! whose every field is required, so code cannot forget one of the matrix's keys. Each
//! shape also names the business action it belongs to, which is what the idempotency
//! key is derived from: metadata and key can never disagree.

use std::collections::BTreeMap;

use opinion_core::{MarketId, RedemptionId, TradeId, WalletOperationId};

use crate::action::BusinessAction;
use crate::flow::WalletFlow;
use crate::metadata_matrix::MetadataKey;
use opinion_market::{Outcome, Resolution};

use crate::metadata_values::ShareCount;

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

    /// One metadata of each flow, with small distinct ids.
    pub(crate) fn all() -> [FlowMetadata; 4] {
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
        let [buy, _, compensation, redemption] = samples::all();
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
            ]
        );
    }
}
