//! Rows only a market's resolution writes: its per-operator resolution rows and its
//! redemptions. Everything else the settlement store reads or writes (markets, positions,
//! redemptions as read, wallet operations and their steps) uses the trading rows.

use diesel::prelude::*;
use opinion_app::model::{MarketResolution, Redemption};
use time::OffsetDateTime;
use uuid::Uuid;

use crate::db::ids::uuid_of;
use crate::db::schema::{market_resolutions, redemptions};

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
