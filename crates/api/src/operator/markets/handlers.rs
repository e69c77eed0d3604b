//! `/api/operator/markets`: markets with the operator's pool, the trending ranking, and
//! the visibility of a market to the operator's players.

use actix_web::{HttpResponse, web};
use opinion_access::RouteId;
use opinion_app::error::ProblemCode;
use opinion_core::PageLimit;

use crate::http::auth::Caller;
use crate::http::error::ApiError;
use crate::http::extract::{Json, path_id};
use crate::http::problem_responses::{InvalidRequest, NotFound, PayloadTooLarge, UnsupportedMediaType};
use crate::operator::markets::dto::{
    MarketBody, MarketsQuery, SetVisibilityModeBody, TrendingBody, TrendingQuery, VisibilityBody, VisibilityModeBody,
};
use crate::shared::list::ListBody;
use crate::state::ApiState;

/// Lists markets as the operator sees them, newest first.
#[utoipa::path(
    get,
    path = RouteId::MarketsList.spec().path,
    params(MarketsQuery),
    responses(
        (status = 200, description = "one page of markets, newest first", body = ListBody<MarketBody>),
        InvalidRequest,
    ),
)]
pub async fn list(
    state: web::Data<ApiState>,
    caller: Caller,
    query: web::Query<MarketsQuery>,
) -> Result<HttpResponse, ApiError> {
    let page = query.page_query().page()?;
    let markets = state
        .reads
        .list_markets(caller.0.operator_id, &(&*query).into(), page)
        .await?;
    Ok(HttpResponse::Ok().json(ListBody::from_page(markets, MarketBody::from)))
}

/// The operator's open, visible markets ranked by recent activity.
#[utoipa::path(
    get,
    path = RouteId::MarketsTrending.spec().path,
    params(TrendingQuery),
    responses(
        (status = 200, description = "the ranking, best first", body = TrendingBody),
        InvalidRequest,
    ),
)]
pub async fn trending(
    state: web::Data<ApiState>,
    caller: Caller,
    query: web::Query<TrendingQuery>,
) -> Result<HttpResponse, ApiError> {
    let limit = match query.limit {
        Some(limit) => {
            PageLimit::new(limit).map_err(|e| ApiError::bad_request(ProblemCode::InvalidLimit, e.to_string()))?
        }
        None => PageLimit::default(),
    };
    let trending = state
        .reads
        .trending_markets(caller.0.operator_id, query.window.as_deref(), limit)
        .await?;
    Ok(HttpResponse::Ok().json(TrendingBody::from(trending)))
}

/// Shows or hides a market to the operator's players.
#[utoipa::path(
    post,
    path = RouteId::MarketVisibilitySet.spec().path,
    params(("id" = String, Path, description = "`mkt_…`")),
    request_body = VisibilityBody,
    responses(
        (status = 200, description = "the market as the operator's players now see it", body = MarketBody),
        InvalidRequest,
        NotFound,
        PayloadTooLarge,
        UnsupportedMediaType,
    ),
)]
pub async fn set_visibility(
    state: web::Data<ApiState>,
    caller: Caller,
    id: web::Path<String>,
    body: Json<VisibilityBody>,
) -> Result<HttpResponse, ApiError> {
    let id = path_id(&id)?;
    let market = state
        .reads
        .set_market_visibility(caller.0.operator_id, id, body.visible)
        .await?;
    Ok(HttpResponse::Ok().json(MarketBody::from(market)))
}

/// The operator's visibility mode.
#[utoipa::path(
    get,
    path = RouteId::MarketVisibilityModeGet.spec().path,
    responses((status = 200, description = "the operator's visibility mode", body = VisibilityModeBody)),
)]
pub async fn visibility_mode(state: web::Data<ApiState>, caller: Caller) -> Result<HttpResponse, ApiError> {
    let settings = state.reads.visibility_mode(caller.0.operator_id).await?;
    Ok(HttpResponse::Ok().json(VisibilityModeBody::new(settings, None)))
}

/// Sets the operator's visibility mode: `all`, `allowlist` or `blocklist`.
#[utoipa::path(
    put,
    path = RouteId::MarketVisibilityModeSet.spec().path,
    request_body = SetVisibilityModeBody,
    responses(
        (status = 200, description = "the mode now in force, and how many markets it showed or hid", body = VisibilityModeBody),
        InvalidRequest,
        PayloadTooLarge,
        UnsupportedMediaType,
    ),
)]
pub async fn set_visibility_mode(
    state: web::Data<ApiState>,
    caller: Caller,
    body: Json<SetVisibilityModeBody>,
) -> Result<HttpResponse, ApiError> {
    let mode = body.requested()?;
    let change = state.reads.set_visibility_mode(caller.0.operator_id, mode).await?;
    Ok(HttpResponse::Ok().json(VisibilityModeBody::new(change.settings, Some(change.changed_markets))))
}
