//! `GET /views/portfolio?token=…`: the read-only portfolio page a signed link opens,
//! outside `/api/operator` and without an API key; the token is the credential.

use actix_web::{HttpResponse, web};

use crate::http::error::ApiError;
use crate::http::problem::{PROBLEM_JSON, Problem};
use crate::http::problem_responses::InvalidRequest;
use crate::state::ApiState;
use crate::views::dto::PortfolioLinkQuery;
use crate::views::{HTML_UTF8, page_response, portfolio_page};

/// Where the public portfolio page is served, below the public base URL.
pub const PORTFOLIO_VIEW_PATH: &str = "/views/portfolio";

/// The address a portfolio link's signed `token` opens, on the service's public URL; the
/// API and the dashboard hand out the same.
pub fn portfolio_view_url(state: &ApiState, token: &str) -> String {
    format!("{}{PORTFOLIO_VIEW_PATH}?token={token}", state.public_url)
}

/// The page a portfolio link opens.
///
/// No credential besides the link's signed token (from `POST /api/operator/users/portfolio-view`);
/// read-only, until the link expires.
#[utoipa::path(
    get,
    path = PORTFOLIO_VIEW_PATH,
    operation_id = "PortfolioViewByLink",
    params(PortfolioLinkQuery),
    responses(
        (status = 200, description = "an HTML page (UTF-8) with a restrictive Content-Security-Policy", body = String, content_type = HTML_UTF8),
        InvalidRequest,
        (status = 401, description = "`view_link_invalid` or `view_link_expired`: the link is invalid or has expired", body = Problem, content_type = PROBLEM_JSON),
        (status = 404, description = "`not_found`: the player no longer exists", body = Problem, content_type = PROBLEM_JSON),
    ),
)]
pub async fn portfolio(
    state: web::Data<ApiState>,
    query: web::Query<PortfolioLinkQuery>,
) -> Result<HttpResponse, ApiError> {
    let portfolio = state.reads.portfolio_by_link(&query.token).await?;
    let (title, content) = portfolio_page(&portfolio, state.reads.now());
    Ok(page_response(&title, content))
}
