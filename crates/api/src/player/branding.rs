//! `GET /api/player/branding`: what the hosted app needs to dress itself as the player's
//! operator: its name, colours (each with the text colour readable on it), the language
//! to speak and the currency amounts are in. Either product's session may ask.

use actix_web::{HttpResponse, web};
use opinion_app::error::AppError;
use opinion_launch::Locale;
use serde::{Deserialize, Serialize};

use crate::http::error::ApiError;
use crate::http::extract::AfterAuth;
use crate::http::player_auth::Player;
use crate::state::ApiState;

/// The query: the locale the session was opened with, as the session told the app.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BrandingQuery {
    /// A BCP 47 tag (`id-ID`); absent when the session named none.
    pub locale: Option<String>,
}

/// The brand as the app applies it.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PlayerBrandingBody {
    /// The operator's brand name.
    pub name: String,
    /// The logo's URL, when the operator set one.
    pub logo_url: Option<String>,
    /// `#rrggbb`.
    pub primary_color: String,
    /// The text colour readable on `primaryColor`.
    pub primary_text: String,
    /// `#rrggbb`.
    pub accent_color: String,
    /// The text colour readable on `accentColor`.
    pub accent_text: String,
    /// `en` or `id`: the locale's language if the app speaks it, else the operator's default.
    pub language: &'static str,
    /// The operator's currency.
    pub currency: String,
    /// Digits after the decimal point of the currency's major unit, as the platform
    /// counts it (none for IDR, counted in whole rupiah): amounts are integers of minor
    /// units, shown divided by 10 to this power.
    pub currency_digits: u32,
}

/// The player's operator's brand, in the language of `locale`.
pub async fn branding(
    state: web::Data<ApiState>,
    player: Player,
    query: AfterAuth<web::Query<BrandingQuery>>,
) -> Result<HttpResponse, ApiError> {
    let query = query?;
    let locale = query
        .locale
        .as_deref()
        .map(Locale::parse)
        .transpose()
        .map_err(|e| AppError::invalid("locale", e))?;
    let stored = state.players.branding_of(player.0.operator_id).await?;
    let currency = state.trading.currency(&player.0).await?;
    let brand = stored.branding;
    Ok(HttpResponse::Ok().json(PlayerBrandingBody {
        name: brand.name.as_str().to_owned(),
        logo_url: brand.logo_url.as_ref().map(|logo| logo.as_str().to_owned()),
        primary_color: brand.primary_color.to_string(),
        primary_text: brand.primary_color.text_on().to_string(),
        accent_color: brand.accent_color.to_string(),
        accent_text: brand.accent_color.text_on().to_string(),
        language: brand.language_for(locale.as_ref().map(Locale::as_str)).as_str(),
        currency: currency.as_str().to_owned(),
        currency_digits: currency.minor_digits(),
    }))
}
