//! Webhook endpoints: register one (its generated secret shown once), list them, change an
//! endpoint's subscription and delivery settings, enable or disable it, rotate its secret,
//! delete it. Mirrors `/api/operator/webhooks/endpoints` and calls the same use cases.

use actix_web::http::StatusCode;
use actix_web::web::Bytes;
use actix_web::{HttpResponse, web};
use maud::{Markup, html};
use opinion_access::RouteId;
use opinion_app::error::AppError;
use opinion_app::model::WebhookEndpoint;
use opinion_app::webhooks::{EndpointWithSecret, NewWebhookEndpoint, WebhookEndpointChange};
use opinion_core::WebhookEndpointId;
use opinion_webhook::EventType;

use crate::dashboard::confirm::Confirmation;
use crate::dashboard::error::DashboardError;
use crate::dashboard::form::{FormData, FormView, token_field};
use crate::dashboard::format::{at, maybe_at};
use crate::dashboard::layout::document;
use crate::dashboard::page::{html as respond, see_other};
use crate::dashboard::paging::{Cursor, pager};
use crate::dashboard::session::SignedIn;
use crate::http::extract::path_id;
use crate::state::ApiState;

const PATH: &str = "/dashboard/webhooks";
const FIELDS: &[&str] = &[
    "url",
    "description",
    "eventTypes",
    "maxAttempts",
    "timeoutSeconds",
    "rateLimitPerMinute",
    "secret",
];

fn event_options() -> Vec<(String, String)> {
    EventType::ALL
        .iter()
        .map(|event| (event.as_str().to_owned(), event.as_str().to_owned()))
        .collect()
}

fn settings_fields(view: &FormView, endpoint: Option<&WebhookEndpoint>) -> Markup {
    let subscribed: Vec<String> = endpoint
        .map(|e| e.subscription.types().map(|t| t.as_str().to_owned()).collect())
        .unwrap_or_default();
    let url = endpoint.map(|e| e.url.clone()).unwrap_or_default();
    let description = endpoint.and_then(|e| e.description.clone()).unwrap_or_default();
    let attempts = endpoint.map(|e| e.max_attempts.get().to_string()).unwrap_or_default();
    let timeout = endpoint.map(|e| e.timeout.secs().to_string()).unwrap_or_default();
    let rate = endpoint
        .and_then(|e| e.rate_limit.map(|limit| limit.get().to_string()))
        .unwrap_or_default();
    html! {
        (view.input("url", "URL", "url", &url, Some("Where the events are posted: https, a public address.")))
        (view.input("description", "Description (optional)", "text", &description, None))
        (view.checkboxes("eventTypes", "Event types", &event_options(), &subscribed))
        div.row {
            (view.input("maxAttempts", "Attempts per delivery", "number", &attempts, Some("1 to 20; blank for the default.")))
            (view.input("timeoutSeconds", "Time limit per attempt (s)", "number", &timeout, Some("1 to 30; blank for the default.")))
            (view.input("rateLimitPerMinute", "At most per minute (optional)", "number", &rate, None))
        }
    }
}

fn secret_shown(title: &str, secret: &str) -> Markup {
    html! {
        section.card.secret role="status" {
            h2 { (title) }
            p { "Copy the signing secret now: it is shown this once and cannot be read again." }
            div.copyable {
                code #new-secret { (secret) }
                button.small type="button" data-copy="new-secret" { "Copy" }
            }
        }
    }
}

fn state_of(endpoint: &WebhookEndpoint) -> Markup {
    match (endpoint.enabled, endpoint.failing_since) {
        (false, _) => html! {
            span.badge.bad { "disabled" }
            @if let Some(reason) = endpoint.disabled_reason { br; span.muted { (reason.as_str()) } }
        },
        (true, Some(since)) => html! { span.badge.warn { "failing" } br; span.muted { "since " (at(since)) } },
        (true, None) => html! { span.badge.good { "healthy" } },
    }
}

async fn render(
    state: &ApiState,
    member: &SignedIn,
    cursor: &Cursor,
    view: &FormView,
    created: Option<&EndpointWithSecret>,
) -> Result<Markup, DashboardError> {
    let page = state.webhooks.list_endpoints(&member.principal, cursor.page()?).await?;
    let content = html! {
        @if let Some(secret) = created.and_then(|c| c.secret.as_ref()) {
            (secret_shown("Endpoint registered", &secret.reveal()))
        }
        @if member.may(RouteId::WebhookEndpointCreate) {
            section.card {
                h2 { "New endpoint" }
                (view.banner(FIELDS))
                form method="post" action=(PATH) {
                    (token_field(&member.form_token))
                    (settings_fields(view, None))
                    (view.input("secret", "Own signing secret (optional)", "password", "", Some("A whsec_… secret of your own; leave blank and one is generated.")))
                    button type="submit" { "Register endpoint" }
                }
            }
        }
        section {
            h2 { "Endpoints" }
            @if page.items.is_empty() {
                p.empty { "No endpoints yet." }
            } @else {
                div.scroll {
                    table {
                        thead { tr { th { "URL" } th { "Events" } th { "Attempts" } th { "State" } th { "Created" } th { span.sr { "Actions" } } } }
                        tbody {
                            @for endpoint in &page.items {
                                tr {
                                    td {
                                        code { (endpoint.url) }
                                        @if let Some(description) = &endpoint.description { br; span.muted { (description) } }
                                    }
                                    td { (endpoint.subscription.types().count()) }
                                    td.num { (endpoint.max_attempts.get()) " × " (endpoint.timeout.secs()) " s" }
                                    td { (state_of(endpoint)) }
                                    td { (at(endpoint.created_at)) }
                                    td.actions {
                                        a href=(format!("{PATH}/{}", endpoint.id)) { "Open" }
                                        " "
                                        a href=(format!("/dashboard/deliveries?endpointId={}", endpoint.id)) { "Deliveries" }
                                    }
                                }
                            }
                        }
                    }
                }
            }
            (pager(PATH, &page, &[], cursor.cursor.is_some()))
        }
    };
    Ok(document(member, PATH, "Webhooks", content))
}

/// `GET /dashboard/webhooks`.
pub async fn page(
    state: web::Data<ApiState>,
    member: SignedIn,
    cursor: web::Query<Cursor>,
) -> Result<HttpResponse, DashboardError> {
    member.require(RouteId::WebhookEndpointsList)?;
    Ok(respond(
        StatusCode::OK,
        render(&state, &member, &cursor, &FormView::default(), None).await?,
    ))
}

/// An endpoint's delivery settings as typed: attempts, time limit, rate limit.
struct Settings {
    max_attempts: Option<i64>,
    timeout_seconds: Option<i64>,
    rate_limit_per_minute: Option<u32>,
}

fn settings_of(form: &FormData) -> Result<Settings, AppError> {
    let rate = form
        .number("rateLimitPerMinute", "rateLimitPerMinute")?
        .map(|n| u32::try_from(n).map_err(|_| AppError::invalid("rateLimitPerMinute", "must be a positive number")))
        .transpose()?;
    Ok(Settings {
        max_attempts: form.number("maxAttempts", "maxAttempts")?,
        timeout_seconds: form.number("timeoutSeconds", "timeoutSeconds")?,
        rate_limit_per_minute: rate,
    })
}

/// `POST /dashboard/webhooks`: registers an endpoint, or shows the form again.
pub async fn create(state: web::Data<ApiState>, member: SignedIn, body: Bytes) -> Result<HttpResponse, DashboardError> {
    member.require(RouteId::WebhookEndpointCreate)?;
    let form = FormData::parse(&body);
    member.check_form(&state, &form)?;
    let attempt = async {
        let Settings {
            max_attempts,
            timeout_seconds,
            rate_limit_per_minute,
        } = settings_of(&form)?;
        let request = NewWebhookEndpoint {
            url: form.text("url").trim().to_owned(),
            event_types: form.all("eventTypes"),
            enabled: Some(true),
            description: form.optional("description"),
            rate_limit_per_minute,
            max_attempts,
            timeout_seconds,
            secret: form.optional("secret"),
        };
        state.webhooks.create_endpoint(&member.principal, request).await
    };
    match attempt.await {
        Ok(created) => Ok(respond(
            StatusCode::CREATED,
            render(
                &state,
                &member,
                &Cursor::default(),
                &FormView::default(),
                Some(&created),
            )
            .await?,
        )),
        Err(error) => {
            let (view, status) = FormView::refused(form, error.into())?;
            Ok(respond(
                status,
                render(&state, &member, &Cursor::default(), &view, None).await?,
            ))
        }
    }
}

fn edit_page(member: &SignedIn, endpoint: &WebhookEndpoint, view: &FormView, rotated: Option<&str>) -> Markup {
    let path = format!("{PATH}/{}", endpoint.id);
    let may_write = member.may(RouteId::WebhookEndpointUpdate);
    let content = html! {
        p { a href=(PATH) { "← All endpoints" } " · " a href=(format!("/dashboard/deliveries?endpointId={}", endpoint.id)) { "Its deliveries" } }
        @if let Some(secret) = rotated { (secret_shown("Secret rotated", secret)) }
        dl.facts {
            dt { "Id" } dd { code { (endpoint.id) } }
            dt { "State" } dd { (state_of(endpoint)) }
            dt { "Previous secret signs until" } dd { (maybe_at(endpoint.secrets.previous_expires_at)) }
            dt { "Created" } dd { (at(endpoint.created_at)) }
            dt { "Changed" } dd { (at(endpoint.updated_at)) }
        }
        @if may_write {
            section.card {
                h2 { "Settings" }
                (view.banner(FIELDS))
                form method="post" action=(path) {
                    (token_field(&member.form_token))
                    (settings_fields(view, Some(endpoint)))
                    button type="submit" { "Save" }
                }
            }
            section.card {
                h2 { "Rotate the signing secret" }
                p.muted { "The previous secret keeps signing for 24 hours, so receivers can switch without losing events." }
                a.button href=(format!("{path}/rotate")) { "Rotate secret…" }
            }
            section.card.danger-zone {
                @if endpoint.enabled {
                    h2 { "Disable" }
                    p.muted { "A disabled endpoint receives nothing; its pending deliveries are cancelled." }
                    a.button.danger href=(format!("{path}/disable")) { "Disable endpoint…" }
                } @else {
                    h2 { "Enable" }
                    p.muted { "New events are delivered again; cancelled deliveries can be replayed from the delivery log." }
                    form method="post" action=(format!("{path}/enable")) {
                        (token_field(&member.form_token))
                        button type="submit" { "Enable endpoint" }
                    }
                }
            }
            section.card.danger-zone {
                h2 { "Delete" }
                p.muted { "Deleting stops every delivery to this endpoint. The delivery log keeps its history." }
                a.button.danger href=(format!("{path}/delete")) { "Delete endpoint…" }
            }
        } @else {
            dl.facts {
                dt { "URL" } dd { code { (endpoint.url) } }
                dt { "Events" } dd { @for t in endpoint.subscription.types() { code { (t.as_str()) } " " } }
            }
        }
    };
    document(member, PATH, "Webhook endpoint", content)
}

async fn endpoint_of(state: &ApiState, member: &SignedIn, id: &str) -> Result<WebhookEndpoint, DashboardError> {
    let id: WebhookEndpointId = path_id(id)?;
    Ok(state.webhooks.endpoint(&member.principal, id).await?)
}

/// `GET /dashboard/webhooks/{id}`.
pub async fn edit(
    state: web::Data<ApiState>,
    member: SignedIn,
    id: web::Path<String>,
) -> Result<HttpResponse, DashboardError> {
    member.require(RouteId::WebhookEndpointsList)?;
    let endpoint = endpoint_of(&state, &member, &id).await?;
    Ok(respond(
        StatusCode::OK,
        edit_page(&member, &endpoint, &FormView::default(), None),
    ))
}

/// `POST /dashboard/webhooks/{id}`: changes the settings, or shows the form again.
pub async fn update(
    state: web::Data<ApiState>,
    member: SignedIn,
    id: web::Path<String>,
    body: Bytes,
) -> Result<HttpResponse, DashboardError> {
    member.require(RouteId::WebhookEndpointUpdate)?;
    let form = FormData::parse(&body);
    member.check_form(&state, &form)?;
    let endpoint = endpoint_of(&state, &member, &id).await?;
    let attempt = async {
        let Settings {
            max_attempts,
            timeout_seconds,
            rate_limit_per_minute,
        } = settings_of(&form)?;
        let change = WebhookEndpointChange {
            url: Some(form.text("url").trim().to_owned()),
            event_types: Some(form.all("eventTypes")),
            enabled: None,
            description: Some(form.optional("description")),
            rate_limit_per_minute: Some(rate_limit_per_minute),
            max_attempts,
            timeout_seconds,
            rotate_secret: false,
            secret: None,
        };
        state
            .webhooks
            .update_endpoint(&member.principal, endpoint.id, change)
            .await
    };
    match attempt.await {
        Ok(_) => Ok(see_other(&format!("{PATH}/{}", endpoint.id))),
        Err(error) => {
            let (view, status) = FormView::refused(form, error.into())?;
            Ok(respond(status, edit_page(&member, &endpoint, &view, None)))
        }
    }
}

/// An action on an endpoint that is asked about first.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Destructive {
    Rotate,
    Disable,
    Delete,
}

impl Destructive {
    /// The API route whose requirement the action has.
    fn route(self) -> RouteId {
        match self {
            Self::Rotate | Self::Disable => RouteId::WebhookEndpointUpdate,
            Self::Delete => RouteId::WebhookEndpointDelete,
        }
    }

    /// Its confirmation for `endpoint`.
    fn confirmation(self, endpoint: &WebhookEndpoint) -> Confirmation<'static> {
        let path = format!("{PATH}/{}", endpoint.id);
        let (segment, question, consequence, confirm) = match self {
            Self::Rotate => (
                "rotate",
                "Rotate the signing secret of",
                "A new secret signs every delivery from now on; the previous one keeps signing for 24 hours.",
                "Rotate secret",
            ),
            Self::Disable => (
                "disable",
                "Disable",
                "Nothing is delivered to it until it is enabled again, and its pending deliveries are cancelled.",
                "Disable endpoint",
            ),
            Self::Delete => (
                "delete",
                "Delete",
                "Every delivery to it stops and it cannot be enabled again; the delivery log keeps its history.",
                "Delete endpoint",
            ),
        };
        Confirmation {
            section: PATH,
            question: format!("{question} {}?", endpoint.url),
            consequence,
            action: format!("{path}/{segment}"),
            confirm,
            cancel: path,
        }
    }
}

/// The rotation's own field: the operator's own secret, or blank for a generated one.
fn own_secret_field(view: &FormView) -> Markup {
    html! {
        (view.banner(&["secret"]))
        (view.input("secret", "Own signing secret (optional)", "password", "", Some("A whsec_… secret of your own; leave blank and one is generated and shown once.")))
    }
}

async fn confirm(
    state: &ApiState,
    member: &SignedIn,
    id: &str,
    action: Destructive,
) -> Result<HttpResponse, DashboardError> {
    member.require(action.route())?;
    let endpoint = endpoint_of(state, member, id).await?;
    let fields = if action == Destructive::Rotate {
        own_secret_field(&FormView::default())
    } else {
        html! {}
    };
    Ok(respond(
        StatusCode::OK,
        action.confirmation(&endpoint).page(member, fields),
    ))
}

/// `GET /dashboard/webhooks/{id}/rotate`: asks before rotating, offering the operator's
/// own secret.
pub async fn confirm_rotate(
    state: web::Data<ApiState>,
    member: SignedIn,
    id: web::Path<String>,
) -> Result<HttpResponse, DashboardError> {
    confirm(&state, &member, &id, Destructive::Rotate).await
}

/// `GET /dashboard/webhooks/{id}/disable`: asks before disabling.
pub async fn confirm_disable(
    state: web::Data<ApiState>,
    member: SignedIn,
    id: web::Path<String>,
) -> Result<HttpResponse, DashboardError> {
    confirm(&state, &member, &id, Destructive::Disable).await
}

/// `GET /dashboard/webhooks/{id}/delete`: asks before deleting.
pub async fn confirm_delete(
    state: web::Data<ApiState>,
    member: SignedIn,
    id: web::Path<String>,
) -> Result<HttpResponse, DashboardError> {
    confirm(&state, &member, &id, Destructive::Delete).await
}

/// `POST /dashboard/webhooks/{id}/rotate`: the confirmed rotation, to the operator's own
/// secret when one is typed, else to a generated one, shown once.
pub async fn rotate(
    state: web::Data<ApiState>,
    member: SignedIn,
    id: web::Path<String>,
    body: Bytes,
) -> Result<HttpResponse, DashboardError> {
    member.require(RouteId::WebhookEndpointUpdate)?;
    let form = FormData::parse(&body);
    member.check_form(&state, &form)?;
    let endpoint = endpoint_of(&state, &member, &id).await?;
    let own = form.optional("secret");
    let change = WebhookEndpointChange {
        rotate_secret: own.is_none(),
        secret: own,
        ..WebhookEndpointChange::default()
    };
    match state
        .webhooks
        .update_endpoint(&member.principal, endpoint.id, change)
        .await
    {
        Ok(rotated) => {
            let secret = rotated.secret.as_ref().map(|secret| secret.reveal());
            Ok(respond(
                StatusCode::OK,
                edit_page(&member, &rotated.endpoint, &FormView::default(), secret.as_deref()),
            ))
        }
        Err(error) => {
            let (view, status) = FormView::refused(FormData::default(), error.into())?;
            Ok(respond(
                status,
                Destructive::Rotate
                    .confirmation(&endpoint)
                    .page(&member, own_secret_field(&view)),
            ))
        }
    }
}

async fn set_enabled(
    state: &ApiState,
    member: &SignedIn,
    id: &str,
    body: &Bytes,
    enabled: bool,
) -> Result<HttpResponse, DashboardError> {
    member.require(RouteId::WebhookEndpointUpdate)?;
    member.check_form(state, &FormData::parse(body))?;
    let endpoint = endpoint_of(state, member, id).await?;
    let change = WebhookEndpointChange {
        enabled: Some(enabled),
        ..WebhookEndpointChange::default()
    };
    state
        .webhooks
        .update_endpoint(&member.principal, endpoint.id, change)
        .await?;
    Ok(see_other(&format!("{PATH}/{}", endpoint.id)))
}

/// `POST /dashboard/webhooks/{id}/disable`: the confirmed disabling (its pending
/// deliveries are cancelled).
pub async fn disable(
    state: web::Data<ApiState>,
    member: SignedIn,
    id: web::Path<String>,
    body: Bytes,
) -> Result<HttpResponse, DashboardError> {
    set_enabled(&state, &member, &id, &body, false).await
}

/// `POST /dashboard/webhooks/{id}/enable`.
pub async fn enable(
    state: web::Data<ApiState>,
    member: SignedIn,
    id: web::Path<String>,
    body: Bytes,
) -> Result<HttpResponse, DashboardError> {
    set_enabled(&state, &member, &id, &body, true).await
}

/// `POST /dashboard/webhooks/{id}/delete`: the confirmed deletion.
pub async fn delete(
    state: web::Data<ApiState>,
    member: SignedIn,
    id: web::Path<String>,
    body: Bytes,
) -> Result<HttpResponse, DashboardError> {
    member.require(RouteId::WebhookEndpointDelete)?;
    member.check_form(&state, &FormData::parse(&body))?;
    state.webhooks.delete_endpoint(&member.principal, path_id(&id)?).await?;
    Ok(see_other(PATH))
}
