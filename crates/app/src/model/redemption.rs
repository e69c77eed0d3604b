//! Payouts on resolution, per position and per operator.

use opinion_core::{MarketId, OperatorId, RedemptionId, UserId};
use opinion_market::{RedemptionStatus, Resolution};
use opinion_wallet::Currency;
use time::OffsetDateTime;

/// What one position is paid when its market resolves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Redemption {
    pub id: RedemptionId,
    pub operator_id: OperatorId,
    /// The player.
    pub user_id: UserId,
    /// The player's id at the operator.
    pub external_user_id: String,
    /// The resolved market.
    pub market_id: MarketId,
    /// How it resolved.
    pub resolution: Resolution,
    /// Minor units owed.
    pub amount: i64,
    /// The operator's currency.
    pub currency: Currency,
    /// Where the payout is.
    pub status: RedemptionStatus,
    /// When the market resolved and the payout was created.
    pub created_at: OffsetDateTime,
    /// When the wallet credited it.
    pub paid_at: Option<OffsetDateTime>,
}

/// One market's resolution as it came to one operator: what its players were owed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MarketResolution {
    pub operator_id: OperatorId,
    pub market_id: MarketId,
    /// How it resolved.
    pub resolution: Resolution,
    /// When.
    pub resolved_at: OffsetDateTime,
    /// How many of the operator's positions were owed a payout.
    pub redemption_count: i64,
    /// The sum of those payouts, in minor units.
    pub payout_total: i64,
    /// The operator's currency.
    pub currency: Currency,
}
