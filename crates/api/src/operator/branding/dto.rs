//! The operator's brand on the wire, replaced whole by `PUT`.

use opinion_app::model::OperatorBranding;
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use utoipa::ToSchema;

/// The operator's brand in the hosted app.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BrandingBody {
    /// Shown in the app's header and title.
    #[schema(example = "Casino Merah")]
    pub name: String,
    /// The logo in the header (on the operator's launch hosts); `null` for none.
    #[schema(example = "https://cdn.casino.example/logo.svg")]
    pub logo_url: Option<String>,
    /// Buttons, links and the selected tab, `#rrggbb` in lower case.
    #[schema(example = "#b91c1c")]
    pub primary_color: String,
    /// The header band, `#rrggbb` in lower case.
    #[schema(example = "#111827")]
    pub accent_color: String,
    /// `en` or `id`: the app's language when the launch's `locale` names none it speaks.
    #[schema(example = "id")]
    pub default_language: String,
    /// When it was last replaced; `null` before the first `PUT` (the platform's brand).
    #[serde(with = "time::serde::rfc3339::option")]
    pub updated_at: Option<OffsetDateTime>,
}

impl From<OperatorBranding> for BrandingBody {
    fn from(stored: OperatorBranding) -> Self {
        let brand = stored.branding;
        Self {
            name: brand.name.as_str().to_owned(),
            logo_url: brand.logo_url.map(|logo| logo.as_str().to_owned()),
            primary_color: brand.primary_color.to_string(),
            accent_color: brand.accent_color.to_string(),
            default_language: brand.default_language.as_str().to_owned(),
            updated_at: stored.updated_at,
        }
    }
}

/// `PUT /api/operator/branding`: the new brand, replacing the old one whole.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PutBrandingBody {
    /// 1 to 60 characters, no control characters, no spaces around it.
    pub name: String,
    /// `https://` URL of at most 512 characters without user, fragment, spaces or
    /// quotes; `null` or absent for none.
    #[serde(default)]
    pub logo_url: Option<String>,
    /// `#rrggbb`.
    pub primary_color: String,
    /// `#rrggbb`.
    pub accent_color: String,
    /// `en` or `id`.
    pub default_language: String,
}
