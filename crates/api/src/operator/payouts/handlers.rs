//! `/api/operator/resolutions` and `/api/operator/redemptions`.

use actix_web::{HttpResponse, web};

use crate::http::auth::Caller;
use crate::http::error::ApiError;
use crate::operator::payouts::dto::{RedemptionBody, RedemptionsQuery, ResolutionBody, ResolutionsQuery};
use crate::shared::list::ListBody;
use crate::state::ApiState;

/// Lists what the operator's players were owed per resolved market, newest market first.
pub async fn resolutions(
    state: web::Data<ApiState>,
    caller: Caller,
    query: web::Query<ResolutionsQuery>,
) -> Result<HttpResponse, ApiError> {
    let page = query.page_query().page()?;
    let resolutions = state
        .reads
        .list_resolutions(caller.0.operator_id, &(&*query).into(), page)
        .await?;
    Ok(HttpResponse::Ok().json(ListBody::from_page(resolutions, ResolutionBody::from)))
}

/// Lists the payouts of positions, newest first.
pub async fn redemptions(
    state: web::Data<ApiState>,
    caller: Caller,
    query: web::Query<RedemptionsQuery>,
) -> Result<HttpResponse, ApiError> {
    let page = query.page_query().page()?;
    let redemptions = state
        .reads
        .list_redemptions(caller.0.operator_id, &(&*query).into(), page)
        .await?;
    Ok(HttpResponse::Ok().json(ListBody::from_page(redemptions, RedemptionBody::from)))
}
