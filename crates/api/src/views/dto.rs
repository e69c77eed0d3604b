//! The query of the public portfolio page.

use serde::Deserialize;
use utoipa::IntoParams;

/// `GET /views/portfolio`.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct PortfolioLinkQuery {
    /// The signed token of the link.
    pub token: String,
}
