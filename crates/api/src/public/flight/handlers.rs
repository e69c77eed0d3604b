//! `GET /api/public/flight/chains` and `/chains/{id}`: every seed chain's commitment and
//! salt, served to anyone from the moment the chain is stored, before its first flight
//! boards. Answers are never stale in a cache (a chain must be visible as soon as it
//! exists) and may be read by any site's script (public data, no credential involved).

use actix_web::http::header::{ACCESS_CONTROL_ALLOW_ORIGIN, CACHE_CONTROL};
use actix_web::{HttpResponse, HttpResponseBuilder, web};
use opinion_access::RouteId;

use crate::http::error::ApiError;
use crate::http::extract::path_id;
use crate::http::problem::{PROBLEM_JSON, Problem};
use crate::http::problem_responses::InvalidRequest;
use crate::public::flight::dto::FlightChainBody;
use crate::shared::list::ListBody;
use crate::shared::page_query::PageQuery;
use crate::state::ApiState;

/// Lists the seed chains, newest first: the first one of the first page is the chain
/// being played.
#[utoipa::path(
    get,
    path = RouteId::PublicFlightChainsList.spec().path,
    params(PageQuery),
    responses(
        (status = 200, description = "one page of seed chains, newest first", body = ListBody<FlightChainBody>),
        InvalidRequest,
    ),
)]
pub async fn chains(state: web::Data<ApiState>, query: web::Query<PageQuery>) -> Result<HttpResponse, ApiError> {
    let page = state.flight_reads.chains(query.page()?).await?;
    Ok(published().json(ListBody::from_page(page, FlightChainBody::from)))
}

/// One seed chain, as its flights' `chainId` names it.
#[utoipa::path(
    get,
    path = RouteId::PublicFlightChainGet.spec().path,
    params(("id" = String, Path, description = "`fch_…`")),
    responses(
        (status = 200, description = "the chain", body = FlightChainBody),
        InvalidRequest,
        (status = 404, description = "`not_found`: no such chain", body = Problem, content_type = PROBLEM_JSON),
    ),
)]
pub async fn chain(state: web::Data<ApiState>, id: web::Path<String>) -> Result<HttpResponse, ApiError> {
    let chain = state.flight_reads.chain(path_id(&id)?).await?;
    Ok(published().json(FlightChainBody::from(chain)))
}

/// A 200 of published data: revalidated on every use, readable from any origin.
fn published() -> HttpResponseBuilder {
    let mut response = HttpResponse::Ok();
    response
        .insert_header((CACHE_CONTROL, "no-cache"))
        .insert_header((ACCESS_CONTROL_ALLOW_ORIGIN, "*"));
    response
}
