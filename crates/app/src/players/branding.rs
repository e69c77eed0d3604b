//! `GET` and `PUT /api/operator/branding`: the operator's name, logo, colours and default
//! language in the hosted app; and the brand a player's page shows.

use opinion_core::OperatorId;
use opinion_launch::Branding;

use crate::access::Principal;
use crate::error::AppError;
use crate::model::OperatorBranding;
use crate::players::Players;

/// A new brand as the operator wrote it, replacing the old one whole.
#[derive(Debug, Clone, Default)]
pub struct BrandingChange {
    /// 1 to 60 characters.
    pub name: String,
    /// An `https://` URL, or none.
    pub logo_url: Option<String>,
    /// `#rrggbb`.
    pub primary_color: String,
    /// `#rrggbb`.
    pub accent_color: String,
    /// `en` or `id`.
    pub default_language: String,
}

impl Players {
    /// The caller's operator's brand; the platform's own before the first change.
    pub async fn branding(&self, caller: &Principal) -> Result<OperatorBranding, AppError> {
        self.branding_of(caller.operator_id).await
    }

    /// `operator`'s brand, as its players' pages show it.
    pub async fn branding_of(&self, operator: OperatorId) -> Result<OperatorBranding, AppError> {
        let stored = self.ports.settings.find_branding(operator).await?;
        Ok(stored.unwrap_or_else(|| OperatorBranding::unset(operator)))
    }

    /// Replaces the caller's operator's brand after checking every value; a bad value
    /// is refused naming its field and nothing is written.
    #[tracing::instrument(skip_all, fields(operator_id = %caller.operator_id))]
    pub async fn set_branding(&self, caller: &Principal, change: BrandingChange) -> Result<OperatorBranding, AppError> {
        let branding = Branding::parse(
            &change.name,
            change.logo_url.as_deref(),
            &change.primary_color,
            &change.accent_color,
            &change.default_language,
        )
        .map_err(|e| AppError::invalid(e.field(), e))?;
        let now = self.ports.clock.now();
        self.ports
            .settings
            .replace_branding(caller.operator_id, &branding, now)
            .await?;
        tracing::info!(actor = %caller.actor_id(), "branding replaced");
        Ok(OperatorBranding {
            operator_id: caller.operator_id,
            branding,
            updated_at: Some(now),
        })
    }
}
