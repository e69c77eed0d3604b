//! `GET /views/portfolio?token=…`: the read-only portfolio page a signed link opens,
//! outside `/api/operator` and without an API key; the token is the credential.

use actix_web::{HttpResponse, web};

use crate::http::error::ApiError;
use crate::state::ApiState;
use crate::views::dto::PortfolioLinkQuery;
use crate::views::{page_response, portfolio_page};

/// Where the public portfolio page is served, below the public base URL.
pub const PORTFOLIO_VIEW_PATH: &str = "/views/portfolio";

/// The page a portfolio link opens.
pub async fn portfolio(
    state: web::Data<ApiState>,
    query: web::Query<PortfolioLinkQuery>,
) -> Result<HttpResponse, ApiError> {
    let portfolio = state.reads.portfolio_by_link(&query.token).await?;
    let (title, content) = portfolio_page(&portfolio, state.reads.now());
    Ok(page_response(&title, content))
}
