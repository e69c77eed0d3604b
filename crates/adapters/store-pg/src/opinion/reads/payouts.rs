//! Market resolutions per operator, and redemptions with their player's external id.

use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use opinion_app::model::{MarketResolution, Redemption};
use opinion_app::opinion::reads::ports::{RedemptionFilter, ResolutionFilter};
use opinion_app::ports::StoreError;
use opinion_core::{MarketKind, OperatorId, Page, PageRequest, RedemptionKind};

use crate::db::error::from_diesel;
use crate::db::ids::uuid_of;
use crate::db::keyset_page::keyset_page;
use crate::db::schema::{market_resolutions, redemptions};
use crate::opinion::reads::users as players;
use crate::opinion::settlement::rows::{MarketResolutionRow, RedemptionRow};

/// One page of resolutions, newest market first.
pub(super) async fn resolutions(
    conn: &mut AsyncPgConnection,
    operator: OperatorId,
    filter: &ResolutionFilter,
    page: PageRequest<MarketKind>,
) -> Result<Page<MarketResolution, MarketKind>, StoreError> {
    let mut query = market_resolutions::table
        .filter(market_resolutions::operator_id.eq(uuid_of(operator)))
        .select(MarketResolutionRow::as_select())
        .order(market_resolutions::market_id.desc())
        .into_boxed();
    if let Some(market) = filter.market_id {
        query = query.filter(market_resolutions::market_id.eq(uuid_of(market)));
    }
    if let Some(resolution) = filter.resolution {
        query = query.filter(market_resolutions::resolution.eq(resolution.as_str()));
    }
    if let Some(from) = filter.resolved.from {
        query = query.filter(market_resolutions::resolved_at.ge(from));
    }
    if let Some(to) = filter.resolved.to {
        query = query.filter(market_resolutions::resolved_at.lt(to));
    }
    if let Some(after) = page.after {
        query = query.filter(market_resolutions::market_id.lt(uuid_of(after.position())));
    }
    let rows = keyset_page(query, &page).load(conn).await.map_err(from_diesel)?;
    let resolutions = rows
        .into_iter()
        .map(MarketResolutionRow::into_record)
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Page::from_overfetch(
        resolutions,
        page.limit,
        |resolution: &MarketResolution| resolution.market_id,
    ))
}

/// One page of redemptions, newest first.
pub(super) async fn redemptions(
    conn: &mut AsyncPgConnection,
    operator: OperatorId,
    filter: &RedemptionFilter,
    page: PageRequest<RedemptionKind>,
) -> Result<Page<Redemption, RedemptionKind>, StoreError> {
    let operator = uuid_of(operator);
    let mut query = redemptions::table
        .filter(redemptions::operator_id.eq(operator))
        .select(RedemptionRow::as_select())
        .order(redemptions::id.desc())
        .into_boxed();
    if let Some(external) = &filter.external_user_id {
        query = query.filter(
            redemptions::user_id
                .nullable()
                .eq(players::id_known_as(operator, external.clone())),
        );
    }
    if let Some(market) = filter.market_id {
        query = query.filter(redemptions::market_id.eq(uuid_of(market)));
    }
    if let Some(status) = filter.status {
        query = query.filter(redemptions::status.eq(status.as_str()));
    }
    if let Some(from) = filter.created.from {
        query = query.filter(redemptions::created_at.ge(from));
    }
    if let Some(to) = filter.created.to {
        query = query.filter(redemptions::created_at.lt(to));
    }
    if let Some(after) = page.after {
        query = query.filter(redemptions::id.lt(uuid_of(after.position())));
    }
    let rows = keyset_page(query, &page).load(conn).await.map_err(from_diesel)?;
    let redemptions = rows
        .into_iter()
        .map(RedemptionRow::into_record)
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Page::from_overfetch(
        redemptions,
        page.limit,
        |redemption: &Redemption| redemption.id,
    ))
}
