//! `/api/operator/users`: players, a player's portfolio as JSON or as a page, and the
//! signed link to a read-only portfolio page.

use actix_web::{HttpResponse, web};
use opinion_access::RouteId;

use crate::http::auth::Caller;
use crate::http::error::ApiError;
use crate::http::extract::Json;
use crate::http::problem_responses::{InvalidRequest, NotFound, PayloadTooLarge, UnsupportedMediaType};
use crate::operator::users::dto::{
    PortfolioBody, PortfolioLinkBody, PortfolioLinkRequestBody, PortfolioQuery, UserBody, UsersQuery,
};
use crate::shared::list::ListBody;
use crate::state::ApiState;
use crate::views::HTML_UTF8;
use crate::views::handlers::portfolio_view_url;
use crate::views::{page_response, portfolio_page};

/// Lists the operator's players, newest first.
#[utoipa::path(
    get,
    path = RouteId::UsersList.spec().path,
    params(UsersQuery),
    responses(
        (status = 200, description = "one page of players, newest first", body = ListBody<UserBody>),
        InvalidRequest,
    ),
)]
pub async fn list(
    state: web::Data<ApiState>,
    caller: Caller,
    query: web::Query<UsersQuery>,
) -> Result<HttpResponse, ApiError> {
    let page = query.page_query().page()?;
    let users = state
        .reads
        .list_users(caller.0.operator_id, &(&*query).into(), page)
        .await?;
    Ok(HttpResponse::Ok().json(ListBody::from_page(users, UserBody::from)))
}

/// One player's portfolio.
#[utoipa::path(
    get,
    path = RouteId::UserPortfolio.spec().path,
    params(PortfolioQuery),
    responses(
        (status = 200, description = "the player's portfolio", body = PortfolioBody),
        InvalidRequest,
        NotFound,
    ),
)]
pub async fn portfolio(
    state: web::Data<ApiState>,
    caller: Caller,
    query: web::Query<PortfolioQuery>,
) -> Result<HttpResponse, ApiError> {
    let portfolio = state
        .reads
        .portfolio(caller.0.operator_id, &query.external_user_id)
        .await?;
    Ok(HttpResponse::Ok().json(PortfolioBody::from(portfolio)))
}

/// One player's portfolio as a page.
#[utoipa::path(
    get,
    path = RouteId::UserPortfolioView.spec().path,
    params(PortfolioQuery),
    responses(
        (status = 200, description = "an HTML page (UTF-8) with a restrictive Content-Security-Policy", body = String, content_type = HTML_UTF8),
        InvalidRequest,
        NotFound,
    ),
)]
pub async fn portfolio_view(
    state: web::Data<ApiState>,
    caller: Caller,
    query: web::Query<PortfolioQuery>,
) -> Result<HttpResponse, ApiError> {
    let portfolio = state
        .reads
        .portfolio(caller.0.operator_id, &query.external_user_id)
        .await?;
    let (title, content) = portfolio_page(&portfolio, state.reads.now());
    Ok(page_response(&title, content))
}

/// A signed, expiring link to a player's read-only portfolio page.
#[utoipa::path(
    post,
    path = RouteId::PortfolioViewLink.spec().path,
    request_body = PortfolioLinkRequestBody,
    responses(
        (status = 201, description = "the link; treat it as a secret", body = PortfolioLinkBody),
        InvalidRequest,
        NotFound,
        PayloadTooLarge,
        UnsupportedMediaType,
    ),
)]
pub async fn portfolio_link(
    state: web::Data<ApiState>,
    caller: Caller,
    body: Json<PortfolioLinkRequestBody>,
) -> Result<HttpResponse, ApiError> {
    let link = state
        .reads
        .portfolio_link(caller.0.operator_id, &body.external_user_id, body.expires_in_seconds)
        .await?;
    Ok(HttpResponse::Created().json(PortfolioLinkBody {
        url: portfolio_view_url(&state, &link.token),
        expires_at: link.expires_at,
    }))
}
