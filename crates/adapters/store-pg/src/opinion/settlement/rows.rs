//! The rows of a market's resolution: its per-operator resolution rows and its
//! redemptions, as written and as read. Everything else the settlement store reads or
//! writes (markets, positions, wallet operations and their steps) uses the trading rows.

use diesel::prelude::*;
use opinion_app::model::{MarketResolution, Redemption};
use opinion_app::ports::StoreError;
use opinion_market::RedemptionStatus;
use time::OffsetDateTime;
use uuid::Uuid;

use crate::db::error::parsed;
use crate::db::ids::{id_of, uuid_of};
use crate::db::schema::{market_resolutions, redemptions};
use crate::opinion::trading::player_external_ids;

/// A `market_resolutions` row as written.
#[derive(Debug, Insertable)]
#[diesel(table_name = market_resolutions, check_for_backend(diesel::pg::Pg))]
pub(crate) struct NewResolutionRow {
    operator_id: Uuid,
    market_id: Uuid,
    resolution: &'static str,
    resolved_at: OffsetDateTime,
    redemption_count: i64,
    payout_total: i64,
    currency: String,
}

impl NewResolutionRow {
    /// The row that stores `row`.
    pub(crate) fn new(row: &MarketResolution) -> Self {
        Self {
            operator_id: uuid_of(row.operator_id),
            market_id: uuid_of(row.market_id),
            resolution: row.resolution.as_str(),
            resolved_at: row.resolved_at,
            redemption_count: row.redemption_count,
            payout_total: row.payout_total,
            currency: row.currency.as_str().to_owned(),
        }
    }
}

/// A `redemptions` row as written.
#[derive(Debug, Insertable)]
#[diesel(table_name = redemptions, check_for_backend(diesel::pg::Pg))]
pub(crate) struct NewRedemptionRow {
    operator_id: Uuid,
    id: Uuid,
    user_id: Uuid,
    market_id: Uuid,
    resolution: &'static str,
    amount: i64,
    currency: String,
    status: &'static str,
    created_at: OffsetDateTime,
    paid_at: Option<OffsetDateTime>,
}

impl NewRedemptionRow {
    /// The row that stores `redemption`.
    pub(crate) fn new(redemption: &Redemption) -> Self {
        Self {
            operator_id: uuid_of(redemption.operator_id),
            id: uuid_of(redemption.id),
            user_id: uuid_of(redemption.user_id),
            market_id: uuid_of(redemption.market_id),
            resolution: redemption.resolution.as_str(),
            amount: redemption.amount,
            currency: redemption.currency.as_str().to_owned(),
            status: redemption.status.as_str(),
            created_at: redemption.created_at,
            paid_at: redemption.paid_at,
        }
    }
}

/// A `redemptions` row with its player's external id.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = redemptions, check_for_backend(diesel::pg::Pg))]
pub(crate) struct RedemptionRow {
    operator_id: Uuid,
    id: Uuid,
    user_id: Uuid,
    #[diesel(
        select_expression = player_external_ids::of_redemption(),
        select_expression_type = player_external_ids::of_redemption
    )]
    external_user_id: String,
    market_id: Uuid,
    resolution: String,
    amount: i64,
    currency: String,
    status: String,
    created_at: OffsetDateTime,
    paid_at: Option<OffsetDateTime>,
}

impl RedemptionRow {
    /// The redemption this row stores.
    pub(crate) fn into_record(self) -> Result<Redemption, StoreError> {
        let id = self.id;
        Ok(Redemption {
            resolution: parsed("redemptions", id, &self.resolution)?,
            currency: parsed("redemptions", id, &self.currency)?,
            status: parsed::<RedemptionStatus>("redemptions", id, &self.status)?,
            id: id_of(id),
            operator_id: id_of(self.operator_id),
            user_id: id_of(self.user_id),
            external_user_id: self.external_user_id,
            market_id: id_of(self.market_id),
            amount: self.amount,
            created_at: self.created_at,
            paid_at: self.paid_at,
        })
    }
}

/// A `market_resolutions` row, read whole.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = market_resolutions, check_for_backend(diesel::pg::Pg))]
pub(crate) struct MarketResolutionRow {
    operator_id: Uuid,
    market_id: Uuid,
    resolution: String,
    resolved_at: OffsetDateTime,
    redemption_count: i64,
    payout_total: i64,
    currency: String,
}

impl MarketResolutionRow {
    /// The resolution this row stores.
    pub(crate) fn into_record(self) -> Result<MarketResolution, StoreError> {
        let id = self.market_id;
        Ok(MarketResolution {
            resolution: parsed("market_resolutions", id, &self.resolution)?,
            currency: parsed("market_resolutions", id, &self.currency)?,
            operator_id: id_of(self.operator_id),
            market_id: id_of(id),
            resolved_at: self.resolved_at,
            redemption_count: self.redemption_count,
            payout_total: self.payout_total,
        })
    }
}

#[cfg(test)]
mod tests {
    use opinion_market::Resolution;

    use super::*;

    const ID: Uuid = Uuid::from_u128(7);

    fn is_corrupt<T: std::fmt::Debug>(result: Result<T, StoreError>) -> bool {
        matches!(result, Err(StoreError::Unavailable(message)) if message.starts_with("corrupt row"))
    }

    #[test]
    fn resolutions_and_redemptions_read_back() {
        let resolution = MarketResolutionRow {
            operator_id: Uuid::from_u128(1),
            market_id: Uuid::from_u128(3),
            resolution: "yes".into(),
            resolved_at: OffsetDateTime::UNIX_EPOCH,
            redemption_count: 2,
            payout_total: 300,
            currency: "USD".into(),
        };
        assert_eq!(
            resolution.clone().into_record().map(|r| r.resolution).ok(),
            Some(Resolution::Yes)
        );
        assert!(is_corrupt(
            MarketResolutionRow {
                resolution: "nope".into(),
                ..resolution
            }
            .into_record()
        ));
        let redemption = RedemptionRow {
            operator_id: Uuid::from_u128(1),
            id: ID,
            user_id: Uuid::from_u128(2),
            external_user_id: "player-1".into(),
            market_id: Uuid::from_u128(3),
            resolution: "no".into(),
            amount: 40,
            currency: "USD".into(),
            status: "paid".into(),
            created_at: OffsetDateTime::UNIX_EPOCH,
            paid_at: Some(OffsetDateTime::UNIX_EPOCH),
        };
        assert_eq!(
            redemption.clone().into_record().map(|r| r.status).ok(),
            Some(RedemptionStatus::Paid)
        );
        assert!(is_corrupt(
            RedemptionRow {
                status: "lost".into(),
                ..redemption
            }
            .into_record()
        ));
    }
}
