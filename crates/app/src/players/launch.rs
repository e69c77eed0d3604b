//! `POST /api/operator/launch`: the operator creates or updates its player and gets a
//! launch URL with a short-lived, single-use token. Making a launch URL is not a login:
//! the player's `mini_app.login.succeeded` is written when the token is redeemed.

use opinion_core::{ExternalUserId, Label, LaunchId, UserId};
use time::OffsetDateTime;

use crate::access::Principal;
use crate::error::{AppError, ProblemCode};
use crate::model::{Launch, User};
use crate::players::Players;

/// The product value the contract names besides the default.
const FLIGHT_PRODUCT: &str = "flight";

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
}

impl Players {
    /// Creates or updates the caller's player and makes a launch for it.
    #[tracing::instrument(skip_all, fields(operator_id = %caller.operator_id))]
    pub async fn launch(&self, caller: &Principal, request: LaunchRequest) -> Result<Launched, AppError> {
        check_product(request.product.as_deref())?;
        let external_user_id =
            ExternalUserId::parse(&request.external_user_id).map_err(|e| AppError::invalid("externalUserId", e))?;
        let display_name = request
            .display_name
            .as_deref()
            .map(|name| Label::parse(name).map(Label::into_string))
            .transpose()
            .map_err(|e| AppError::invalid("displayName", e))?;
        let language = request.language.map(check_language).transpose()?;
        let return_url = request.return_url.map(check_return_url).transpose()?;
        let now = self.ports.clock.now();
        let candidate = User {
            id: UserId::from_ulid(self.ports.random.ulid()),
            operator_id: caller.operator_id,
            external_user_id: external_user_id.into_string(),
            display_name,
            language,
            created_at: now,
            last_launched_at: now,
        };
        let mut launch = Launch {
            id: LaunchId::from_ulid(self.ports.random.ulid()),
            operator_id: caller.operator_id,
            user_id: candidate.id,
            return_url,
            created_at: now,
            expires_at: now + self.settings.launch_ttl,
        };
        let user = self.ports.store.record_launch(&candidate, &launch).await?;
        launch.user_id = user.id;
        let launch_token = self
            .settings
            .tokens
            .launch_token(caller.operator_id, launch.id, now, launch.expires_at)?;
        let launch_url = format!(
            "{}/play#launch={launch_token}",
            self.settings.public_url.trim_end_matches('/')
        );
        tracing::info!(user_id = %user.id, launch_id = %launch.id, "player launched");
        Ok(Launched {
            user,
            launch_url,
            launch_token,
            expires_at: launch.expires_at,
        })
    }
}

/// Omitted is Opinion; `flight` is a contract value whose product is not enabled here.
fn check_product(product: Option<&str>) -> Result<(), AppError> {
    match product {
        None => Ok(()),
        Some(FLIGHT_PRODUCT) => Err(AppError::Conflict {
            code: ProblemCode::ProductNotEnabled,
            detail: "the flight product is not enabled for this operator; omit `product` to launch Opinion".into(),
        }),
        Some(_) => Err(AppError::invalid("product", "must be `flight` or omitted (Opinion)")),
    }
}

/// A BCP 47-shaped tag: a 2-3 letter language, then alphanumeric subtags of 2-8.
fn check_language(tag: String) -> Result<String, AppError> {
    let mut parts = tag.split('-');
    let language_ok = parts
        .next()
        .is_some_and(|l| (2..=3).contains(&l.len()) && l.bytes().all(|b| b.is_ascii_lowercase()));
    let rest_ok = parts.all(|p| (2..=8).contains(&p.len()) && p.bytes().all(|b| b.is_ascii_alphanumeric()));
    if language_ok && rest_ok {
        Ok(tag)
    } else {
        Err(AppError::invalid(
            "language",
            "must be a language tag such as `en` or `pt-BR`",
        ))
    }
}

/// An absolute `http` or `https` URL of at most 2048 characters.
fn check_return_url(url: String) -> Result<String, AppError> {
    let parsed = url::Url::parse(&url).map_err(|e| AppError::invalid("returnUrl", e))?;
    if !matches!(parsed.scheme(), "http" | "https") || url.len() > 2048 {
        return Err(AppError::invalid(
            "returnUrl",
            "must be an http(s) URL of at most 2048 characters",
        ));
    }
    Ok(url)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn product_is_opinion_when_omitted_flight_is_not_enabled_and_anything_else_is_invalid() {
        assert!(check_product(None).is_ok());
        assert!(matches!(
            check_product(Some("flight")),
            Err(AppError::Conflict {
                code: ProblemCode::ProductNotEnabled,
                ..
            })
        ));
        for other in ["opinion", "Flight", ""] {
            assert!(matches!(
                check_product(Some(other)),
                Err(AppError::Invalid { field: "product", .. })
            ));
        }
    }

    #[test]
    fn languages_and_return_urls_are_checked() {
        for good in ["en", "pt-BR", "zh-Hant-TW"] {
            assert!(check_language(good.into()).is_ok(), "{good}");
        }
        for bad in ["", "e", "EN", "en_US", "en-", "english-x"] {
            assert!(check_language(bad.into()).is_err(), "{bad}");
        }
        assert!(check_return_url("https://casino.example/lobby".into()).is_ok());
        for bad in ["javascript:alert(1)", "/lobby", "ftp://x.example"] {
            assert!(check_return_url(bad.into()).is_err(), "{bad}");
        }
    }
}
