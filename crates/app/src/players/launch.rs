//! `POST /api/operator/launch`: the operator creates or updates its player and gets a
//! launch URL with a short-lived, single-use token, on the service's public address or
//! on one of the operator's launch hosts. Making a launch URL is not a login: the
//! player's `mini_app.login.succeeded` is written when the token is redeemed.

use opinion_core::{ExternalUserId, Label, LaunchId, OperatorId, UserId};
use opinion_launch::{LaunchHost, LaunchMetadata, Locale};
use opinion_wallet::Product;
use serde_json::Value;
use time::OffsetDateTime;

use crate::access::Principal;
use crate::error::{AppError, ProblemCode};
use crate::model::{Launch, User};
use crate::players::Players;

/// What the operator sends to launch a player.
#[derive(Debug, Clone, Default)]
pub struct LaunchRequest {
    /// The operator's id of the player.
    pub external_user_id: String,
    /// A name to show in the hosted app.
    pub display_name: Option<String>,
    /// The player's language (BCP 47, e.g. `en` or `pt-BR`).
    pub language: Option<String>,
    /// Where the hosted app sends the player back to.
    pub return_url: Option<String>,
    /// `flight`, or absent for Opinion.
    pub product: Option<String>,
    /// One of the operator's launch hosts for the launch URL, instead of the public URL.
    pub host: Option<String>,
    /// The locale of this launch's session (BCP 47).
    pub locale: Option<String>,
    /// The operator's opaque JSON object, echoed in the player's webhook events.
    pub metadata: Option<Value>,
}

/// A launch ready to hand to the player.
#[derive(Debug, Clone)]
pub struct Launched {
    /// The player as stored.
    pub user: User,
    /// The URL to open; it carries the token.
    pub launch_url: String,
    /// The single-use token alone.
    pub launch_token: String,
    /// When the token stops working.
    pub expires_at: OffsetDateTime,
    /// The launch's locale, as stored.
    pub locale: Option<Locale>,
    /// The launch's metadata, as stored.
    pub metadata: Option<LaunchMetadata>,
}

impl Players {
    /// Creates or updates the caller's player and makes a launch for it.
    #[tracing::instrument(skip_all, fields(operator_id = %caller.operator_id))]
    pub async fn launch(&self, caller: &Principal, request: LaunchRequest) -> Result<Launched, AppError> {
        let product = parse_product(request.product.as_deref())?;
        if !self.ports.products.product_enabled(caller.operator_id, product).await? {
            return Err(AppError::Conflict {
                code: ProblemCode::ProductNotEnabled,
                detail: format!(
                    "the {product} product is not enabled for this operator; omit `product` to launch Opinion"
                ),
            });
        }
        let external_user_id =
            ExternalUserId::parse(&request.external_user_id).map_err(|e| AppError::invalid("externalUserId", e))?;
        let display_name = request
            .display_name
            .as_deref()
            .map(|name| Label::parse(name).map(Label::into_string))
            .transpose()
            .map_err(|e| AppError::invalid("displayName", e))?;
        let language = request
            .language
            .as_deref()
            .map(Locale::parse)
            .transpose()
            .map_err(|e| AppError::invalid("language", e))?;
        let locale = request
            .locale
            .as_deref()
            .map(Locale::parse)
            .transpose()
            .map_err(|e| AppError::invalid("locale", e))?;
        let metadata = request
            .metadata
            .map(LaunchMetadata::parse)
            .transpose()
            .map_err(|e| AppError::invalid("metadata", e))?;
        let return_url = request.return_url.map(check_return_url).transpose()?;
        let base_url = self
            .launch_base_url(caller.operator_id, request.host.as_deref())
            .await?;
        let now = self.ports.clock.now();
        let candidate = User {
            id: UserId::from_ulid(self.ports.random.ulid()),
            operator_id: caller.operator_id,
            external_user_id: external_user_id.into_string(),
            display_name,
            language: language.map(Locale::into_string),
            created_at: now,
            last_launched_at: now,
        };
        let mut launch = Launch {
            id: LaunchId::from_ulid(self.ports.random.ulid()),
            operator_id: caller.operator_id,
            user_id: candidate.id,
            return_url,
            locale,
            metadata,
            product,
            created_at: now,
            expires_at: now + self.settings.launch_ttl,
        };
        let user = self.ports.store.record_launch(&candidate, &launch).await?;
        launch.user_id = user.id;
        let launch_token = self
            .settings
            .tokens
            .launch_token(caller.operator_id, launch.id, now, launch.expires_at)?;
        let launch_url = format!("{base_url}{}#launch={launch_token}", play_path(product));
        tracing::info!(user_id = %user.id, launch_id = %launch.id, "player launched");
        Ok(Launched {
            user,
            launch_url,
            launch_token,
            expires_at: launch.expires_at,
            locale: launch.locale,
            metadata: launch.metadata,
        })
    }

    /// Where the launch URL points: `https://<host>` when the launch names one of the
    /// operator's launch hosts, else the public URL.
    async fn launch_base_url(&self, operator: OperatorId, host: Option<&str>) -> Result<String, AppError> {
        let Some(host) = host else {
            return Ok(self.settings.public_url.trim_end_matches('/').to_owned());
        };
        let host = LaunchHost::parse(host).map_err(|e| AppError::invalid("host", e))?;
        let settings = self.ports.settings.find_launch_settings(operator).await?;
        if !settings.is_some_and(|settings| settings.hosts.contains(&host)) {
            return Err(AppError::invalid(
                "host",
                format!("`{host}` is not one of the operator's launch hosts (see /api/operator/launch-settings)"),
            ));
        }
        Ok(format!("https://{host}"))
    }
}

/// Where the hosted Opinion app is served.
pub const OPINION_PLAY_PATH: &str = "/play";
/// Where the hosted flight page is served.
pub const FLIGHT_PLAY_PATH: &str = "/play/flight";

/// The page a launch into `product` opens: the launch URL points there, so each product's
/// page is served on its own path before the token (in the fragment) is exchanged.
pub fn play_path(product: Product) -> &'static str {
    match product {
        Product::Opinion => OPINION_PLAY_PATH,
        Product::Flight => FLIGHT_PLAY_PATH,
    }
}

/// Omitted is Opinion; the contract's one other value is `flight` (Opinion is never
/// named: the contract has no such value).
fn parse_product(product: Option<&str>) -> Result<Product, AppError> {
    match product {
        None => Ok(Product::Opinion),
        Some(name) if name == Product::Flight.as_str() => Ok(Product::Flight),
        Some(_) => Err(AppError::invalid("product", "must be `flight` or omitted (Opinion)")),
    }
}

/// Longest `returnUrl` a launch accepts, in characters.
pub const MAX_RETURN_URL_CHARS: usize = 2048;

/// An absolute `http` or `https` URL of at most [`MAX_RETURN_URL_CHARS`] characters.
fn check_return_url(url: String) -> Result<String, AppError> {
    let parsed = url::Url::parse(&url).map_err(|e| AppError::invalid("returnUrl", e))?;
    if !matches!(parsed.scheme(), "http" | "https") || url.chars().count() > MAX_RETURN_URL_CHARS {
        return Err(AppError::invalid(
            "returnUrl",
            format!("must be an http(s) URL of at most {MAX_RETURN_URL_CHARS} characters"),
        ));
    }
    Ok(url)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn product_is_opinion_when_omitted_flight_when_named_and_anything_else_is_invalid() {
        assert_eq!(parse_product(None).ok(), Some(Product::Opinion));
        assert_eq!(parse_product(Some("flight")).ok(), Some(Product::Flight));
        for other in ["opinion", "Flight", ""] {
            assert!(matches!(
                parse_product(Some(other)),
                Err(AppError::Invalid { field: "product", .. })
            ));
        }
    }

    #[test]
    fn return_urls_are_checked() {
        assert!(check_return_url("https://casino.example/lobby".into()).is_ok());
        for bad in ["javascript:alert(1)", "/lobby", "ftp://x.example"] {
            assert!(check_return_url(bad.into()).is_err(), "{bad}");
        }
    }
}
