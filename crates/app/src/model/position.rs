//! A player's position in one market, as stored.

use opinion_core::{MarketId, UserId};
use opinion_market::Position;
use time::OffsetDateTime;

/// Holdings of one player in one market.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PositionRecord {
    /// The player.
    pub user_id: UserId,
    pub market_id: MarketId,
    /// Shares, cost basis and realized P&L.
    pub position: Position,
    /// When the position was paid out on resolution, if it was.
    pub redeemed_at: Option<OffsetDateTime>,
    /// Last change.
    pub updated_at: OffsetDateTime,
}
