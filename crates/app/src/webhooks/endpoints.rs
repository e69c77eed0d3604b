//! Webhook endpoint use cases: register (a generated secret shown once, or the operator's
//! own), list, change (including the delivery settings and secret rotation with an
//! overlap), delete.

use opinion_core::{EventId, Label, OperatorId, Page, PageRequest, WebhookEndpointId, WebhookEndpointKind};
use opinion_webhook::check_endpoint_url;
use opinion_webhook::{AttemptTimeout, MaxAttempts};
use opinion_webhook::{DisableReason, EventType, ROTATION_OVERLAP_SECS, RateLimit, SigningSecret, Subscription};
use serde_json::{Value, json};
use time::{Duration, OffsetDateTime};

use crate::access::Principal;
use crate::error::{AppError, ProblemCode};
use crate::model::{EndpointSecrets, EndpointUpdate, NewEvent, WebhookEndpoint};
use crate::webhooks::{Webhooks, rfc3339};

/// Longest endpoint description, in characters.
pub const MAX_DESCRIPTION_CHARS: usize = 500;

/// A request for a new endpoint.
#[derive(Debug, Clone, Default)]
pub struct NewWebhookEndpoint {
    /// Where to deliver.
    pub url: String,
    /// Event type names to receive (an explicit list).
    pub event_types: Vec<String>,
    /// Whether to deliver at once (default true).
    pub enabled: Option<bool>,
    /// What it is for.
    pub description: Option<String>,
    /// At most this many attempts a minute.
    pub rate_limit_per_minute: Option<u32>,
    /// Scheduled attempts per delivery (default [`MaxAttempts::DEFAULT`]).
    pub max_attempts: Option<i64>,
    /// One attempt's time limit in seconds (default [`AttemptTimeout::DEFAULT`]).
    pub timeout_seconds: Option<i64>,
    /// The operator's own `whsec_…` secret instead of a generated one.
    pub secret: Option<String>,
}

/// A change to an endpoint; `None` leaves a field as it is, `Some(None)` clears it.
#[derive(Debug, Clone, Default)]
pub struct WebhookEndpointChange {
    /// New URL.
    pub url: Option<String>,
    /// New event type list.
    pub event_types: Option<Vec<String>>,
    /// Enable or disable.
    pub enabled: Option<bool>,
    /// New description, or none.
    pub description: Option<Option<String>>,
    /// New rate limit, or none.
    pub rate_limit_per_minute: Option<Option<u32>>,
    /// New number of scheduled attempts per delivery.
    pub max_attempts: Option<i64>,
    /// New time limit of one attempt, in seconds.
    pub timeout_seconds: Option<i64>,
    /// Issue a new secret; the old one keeps signing for the overlap window.
    pub rotate_secret: bool,
    /// Rotate to the operator's own `whsec_…` secret (the old one keeps signing for the
    /// overlap window), with or without `rotate_secret`.
    pub secret: Option<String>,
}

/// An endpoint and, right after its creation or a rotation, its new secret (shown once).
#[derive(Debug, Clone)]
pub struct EndpointWithSecret {
    pub endpoint: WebhookEndpoint,
    /// The new secret, only when the service just generated one (an operator's own
    /// secret is never sent back).
    pub secret: Option<SigningSecret>,
    /// Until when the previous secret also signs, after a rotation.
    pub previous_secret_expires_at: Option<OffsetDateTime>,
}

impl Webhooks {
    /// Registers an endpoint for the caller's operator.
    #[tracing::instrument(skip_all, fields(operator_id = %caller.operator_id))]
    pub async fn create_endpoint(
        &self,
        caller: &Principal,
        request: NewWebhookEndpoint,
    ) -> Result<EndpointWithSecret, AppError> {
        let url = self.checked_url(&request.url).await?;
        let subscription = subscription(&request.event_types)?;
        let description = request.description.as_deref().map(description).transpose()?;
        let rate_limit = request.rate_limit_per_minute.map(rate_limit).transpose()?;
        let max_attempts = request.max_attempts.map(max_attempts).transpose()?.unwrap_or_default();
        let timeout = request.timeout_seconds.map(timeout).transpose()?.unwrap_or_default();
        let own_secret = request.secret.as_deref().map(own_secret).transpose()?;
        let enabled = request.enabled.unwrap_or(true);
        let secret = match &own_secret {
            Some(secret) => secret.clone(),
            None => self.new_secret()?,
        };
        let now = self.ports.clock.now();
        let endpoint = WebhookEndpoint {
            id: WebhookEndpointId::from_ulid(self.ports.random.ulid()),
            operator_id: caller.operator_id,
            url,
            description,
            subscription,
            enabled,
            disabled_reason: (!enabled).then_some(DisableReason::Operator),
            rate_limit,
            max_attempts,
            timeout,
            secrets: EndpointSecrets::new(secret.clone()),
            failing_since: None,
            created_at: now,
            updated_at: now,
        };
        self.ports.store.insert_endpoint(&endpoint).await?;
        tracing::info!(
            webhook_endpoint_id = %endpoint.id,
            actor = %caller.actor_id(),
            own_secret = own_secret.is_some(),
            "webhook endpoint created"
        );
        Ok(EndpointWithSecret {
            endpoint,
            secret: own_secret.is_none().then_some(secret),
            previous_secret_expires_at: None,
        })
    }

    /// One page of the caller's operator's endpoints.
    pub async fn list_endpoints(
        &self,
        caller: &Principal,
        page: PageRequest<WebhookEndpointKind>,
    ) -> Result<Page<WebhookEndpoint, WebhookEndpointKind>, AppError> {
        Ok(self.ports.store.list_endpoints(caller.operator_id, page).await?)
    }

    /// One of the caller's operator's endpoints, for a page that shows or edits it.
    pub async fn endpoint(&self, caller: &Principal, id: WebhookEndpointId) -> Result<WebhookEndpoint, AppError> {
        self.ports
            .store
            .find_endpoint(caller.operator_id, id)
            .await?
            .ok_or(AppError::NotFound("webhook endpoint"))
    }

    /// Changes an endpoint. Disabling cancels its pending deliveries and emits
    /// `mini_app.webhook_endpoint.disabled`; enabling starts its health afresh; rotating
    /// (to a generated secret or the operator's own) keeps the old secret signing too for
    /// [`ROTATION_OVERLAP_SECS`].
    #[tracing::instrument(skip_all, fields(operator_id = %caller.operator_id, webhook_endpoint_id = %id))]
    pub async fn update_endpoint(
        &self,
        caller: &Principal,
        id: WebhookEndpointId,
        change: WebhookEndpointChange,
    ) -> Result<EndpointWithSecret, AppError> {
        let current = self
            .ports
            .store
            .find_endpoint(caller.operator_id, id)
            .await?
            .ok_or(AppError::NotFound("webhook endpoint"))?;
        let mut endpoint = current.clone();
        if let Some(url) = &change.url {
            endpoint.url = self.checked_url(url).await?;
        }
        if let Some(types) = &change.event_types {
            endpoint.subscription = subscription(types)?;
        }
        if let Some(text) = &change.description {
            endpoint.description = text.as_deref().map(description).transpose()?;
        }
        if let Some(limit) = change.rate_limit_per_minute {
            endpoint.rate_limit = limit.map(rate_limit).transpose()?;
        }
        if let Some(attempts) = change.max_attempts {
            endpoint.max_attempts = max_attempts(attempts)?;
        }
        if let Some(secs) = change.timeout_seconds {
            endpoint.timeout = timeout(secs)?;
        }
        let own_secret = change.secret.as_deref().map(own_secret).transpose()?;
        if own_secret.as_ref() == Some(&current.secrets.current) {
            return Err(AppError::invalid(
                "secret",
                "must differ from the endpoint's current secret",
            ));
        }
        let now = self.ports.clock.now();
        let mut secret = None;
        let next = match own_secret {
            Some(own) => Some(own),
            None if change.rotate_secret => {
                let generated = self.new_secret()?;
                secret = Some(generated.clone());
                Some(generated)
            }
            None => None,
        };
        if let Some(next) = next {
            endpoint.secrets = current
                .secrets
                .rotated(next, now + Duration::seconds(ROTATION_OVERLAP_SECS));
        }
        let rotated = endpoint.secrets != current.secrets;
        let disabling = current.enabled && change.enabled == Some(false);
        let enabling = !current.enabled && change.enabled == Some(true);
        let mut events = Vec::new();
        if disabling {
            endpoint.enabled = false;
            endpoint.disabled_reason = Some(DisableReason::Operator);
            events.push(self.disabled_event(&current, DisableReason::Operator, now)?);
        }
        if enabling {
            endpoint.enabled = true;
            endpoint.disabled_reason = None;
            endpoint.failing_since = None;
        }
        endpoint.updated_at = now;
        let update = EndpointUpdate {
            endpoint: endpoint.clone(),
            expected_updated_at: current.updated_at,
            cancel_pending: disabling,
            reset_health: enabling,
            events,
        };
        if !self.ports.store.update_endpoint(&update).await? {
            return Err(AppError::Conflict {
                code: ProblemCode::WebhookEndpointChanged,
                detail: "the endpoint changed while this request was applied; read it again and retry".into(),
            });
        }
        tracing::info!(actor = %caller.actor_id(), rotated, disabling, enabling, "webhook endpoint changed");
        Ok(EndpointWithSecret {
            previous_secret_expires_at: endpoint.secrets.previous_expires_at.filter(|_| rotated),
            endpoint,
            secret,
        })
    }

    /// Deletes an endpoint: it receives nothing more, its pending deliveries are cancelled,
    /// and its delivery log stays readable.
    #[tracing::instrument(skip_all, fields(operator_id = %caller.operator_id, webhook_endpoint_id = %id))]
    pub async fn delete_endpoint(&self, caller: &Principal, id: WebhookEndpointId) -> Result<(), AppError> {
        let now = self.ports.clock.now();
        if !self.ports.store.delete_endpoint(caller.operator_id, id, now).await? {
            return Err(AppError::NotFound("webhook endpoint"));
        }
        tracing::info!(actor = %caller.actor_id(), "webhook endpoint deleted");
        Ok(())
    }

    /// `mini_app.webhook_endpoint.disabled` for `endpoint`, disabled at `at` for `reason`.
    pub(crate) fn disabled_event(
        &self,
        endpoint: &WebhookEndpoint,
        reason: DisableReason,
        at: OffsetDateTime,
    ) -> Result<NewEvent, AppError> {
        disabled_event(
            EventId::from_ulid(self.ports.random.ulid()),
            endpoint.operator_id,
            (endpoint.id, &endpoint.url),
            reason,
            endpoint.failing_since,
            at,
        )
    }

    /// The URL if its text passes the rules and its host resolves to allowed addresses.
    async fn checked_url(&self, url: &str) -> Result<String, AppError> {
        check_endpoint_url(url, self.settings.production).map_err(|e| AppError::invalid("url", e))?;
        self.ports
            .transport
            .check_destination(url)
            .await
            .map_err(|e| AppError::invalid("url", e))?;
        Ok(url.to_owned())
    }
}

/// Builds `mini_app.webhook_endpoint.disabled` (its fields are listed in the event catalog).
pub(crate) fn disabled_event(
    id: EventId,
    operator_id: OperatorId,
    (endpoint_id, url): (WebhookEndpointId, &str),
    reason: DisableReason,
    failing_since: Option<OffsetDateTime>,
    at: OffsetDateTime,
) -> Result<NewEvent, AppError> {
    let failing_since = failing_since.map(rfc3339).transpose()?;
    let data = json!({
        "webhookEndpointId": endpoint_id.to_string(),
        "url": url,
        "reason": reason.as_str(),
        "failingSince": failing_since,
        "disabledAt": rfc3339(at)?,
    });
    let Value::Object(data) = data else {
        return Err(AppError::Internal("event data is not an object".into()));
    };
    Ok(NewEvent {
        id,
        operator_id,
        event_type: EventType::WebhookEndpointDisabled,
        data,
        created_at: at,
    })
}

fn subscription(names: &[String]) -> Result<Subscription, AppError> {
    let types = names
        .iter()
        .map(|name| name.parse::<EventType>())
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| AppError::invalid("eventTypes", e))?;
    Subscription::new(types).map_err(|e| AppError::invalid("eventTypes", e))
}

fn description(text: &str) -> Result<String, AppError> {
    Label::parse_at_most(text, MAX_DESCRIPTION_CHARS)
        .map(Label::into_string)
        .map_err(|e| AppError::invalid("description", e))
}

fn rate_limit(per_minute: u32) -> Result<RateLimit, AppError> {
    RateLimit::per_minute(per_minute).map_err(|e| AppError::invalid("rateLimitPerMinute", e))
}

fn max_attempts(attempts: i64) -> Result<MaxAttempts, AppError> {
    u32::try_from(attempts)
        .map_err(|_| opinion_webhook::MaxAttemptsError)
        .and_then(MaxAttempts::new)
        .map_err(|e| AppError::invalid("maxAttempts", e))
}

fn timeout(secs: i64) -> Result<AttemptTimeout, AppError> {
    u32::try_from(secs)
        .map_err(|_| opinion_webhook::AttemptTimeoutError)
        .and_then(AttemptTimeout::from_secs)
        .map_err(|e| AppError::invalid("timeoutSeconds", e))
}

/// An operator's own signing secret, in the Standard Webhooks form.
fn own_secret(text: &str) -> Result<SigningSecret, AppError> {
    text.parse().map_err(|e| AppError::invalid("secret", e))
}
