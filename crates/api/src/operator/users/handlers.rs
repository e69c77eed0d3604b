//! `/api/operator/users`: players, a player's portfolio as JSON or as a page, and the
//! signed link to a read-only portfolio page.

use actix_web::{HttpResponse, web};

use crate::http::auth::Caller;
use crate::http::error::ApiError;
use crate::operator::users::dto::{
    PortfolioBody, PortfolioLinkBody, PortfolioLinkRequestBody, PortfolioQuery, UserBody, UsersQuery,
};
use crate::shared::list::ListBody;
use crate::state::ApiState;
use crate::views::handlers::PORTFOLIO_VIEW_PATH;
use crate::views::{page_response, portfolio_page};

/// Lists the operator's players, newest first.
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
pub async fn portfolio_link(
    state: web::Data<ApiState>,
    caller: Caller,
    body: web::Json<PortfolioLinkRequestBody>,
) -> Result<HttpResponse, ApiError> {
    let link = state
        .reads
        .portfolio_link(caller.0.operator_id, &body.external_user_id, body.expires_in_seconds)
        .await?;
    let url = format!("{}{PORTFOLIO_VIEW_PATH}?token={}", state.public_url, link.token);
    Ok(HttpResponse::Created().json(PortfolioLinkBody {
        url,
        expires_at: link.expires_at,
    }))
}
