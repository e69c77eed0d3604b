//! API keys: create one (its secret shown once, with a copy button), list them, revoke
//! one. Mirrors `/api/operator/api-keys` and calls the same use cases.

use actix_web::http::StatusCode;
use actix_web::web::Bytes;
use actix_web::{HttpResponse, web};
use maud::{Markup, html};
use opinion_access::RouteId;
use opinion_app::access::{CreatedApiKey, NewApiKey};
use opinion_app::error::AppError;
use opinion_core::{ApiKeyKind, Page};
use time::macros::format_description;
use time::{Date, OffsetDateTime};

use opinion_app::model::ApiKeyRecord;

use crate::dashboard::confirm::Confirmation;
use crate::dashboard::error::DashboardError;
use crate::dashboard::form::{FormData, FormView, token_field};
use crate::dashboard::format::{at, maybe_at};
use crate::dashboard::layout::document;
use crate::dashboard::page::{html as respond, see_other};
use crate::dashboard::paging::{Cursor, pager};
use crate::dashboard::scopes::{grantable, listed};
use crate::dashboard::session::SignedIn;
use crate::http::extract::path_id;
use crate::state::ApiState;

const PATH: &str = "/dashboard/api-keys";
const FIELDS: &[&str] = &["name", "scopes", "expiresAt"];

fn create_form(member: &SignedIn, view: &FormView) -> Markup {
    html! {
        section.card {
            h2 { "New key" }
            p.muted { "Split keys by workload (launch, reporting, webhooks, wallet) and give each only the scopes it needs." }
            (view.banner(FIELDS))
            form method="post" action=(PATH) {
                (token_field(&member.form_token))
                (view.input("name", "Name", "text", "", Some("What the key is for, e.g. “reporting server”.")))
                (view.checkboxes("scopes", "Scopes", &grantable(&member.principal, false), &[]))
                (view.input("expiresAt", "Expires on (optional)", "date", "", Some("The key stops working at 00:00 UTC that day.")))
                button type="submit" { "Create key" }
            }
        }
    }
}

fn status(key: &ApiKeyRecord, now: OffsetDateTime) -> Markup {
    if key.revoked_at.is_some() {
        html! { span.badge.bad { "revoked" } }
    } else if !key.is_usable_at(now) {
        html! { span.badge.warn { "expired" } }
    } else {
        html! { span.badge.good { "active" } }
    }
}

fn list(member: &SignedIn, page: &Page<ApiKeyRecord, ApiKeyKind>, paged: bool) -> Markup {
    let now = OffsetDateTime::now_utc();
    let may_revoke = member.may(RouteId::ApiKeyRevoke);
    html! {
        section {
            h2 { "Keys" }
            @if page.items.is_empty() {
                p.empty { "No keys yet." }
            } @else {
                div.scroll {
                    table {
                        thead { tr { th { "Name" } th { "Key" } th { "Scopes" } th { "Created" } th { "Last used" } th { "Expires" } th { "Status" } @if may_revoke { th { span.sr { "Actions" } } } } }
                        tbody {
                            @for key in &page.items {
                                tr {
                                    td { (key.name) }
                                    td { code { (key.hint) } }
                                    td { (listed(&key.grant)) }
                                    td { (at(key.created_at)) }
                                    td {
                                        (maybe_at(key.last_used_at))
                                        @if let Some(ip) = key.last_used_ip { br; span.muted { (ip) } }
                                    }
                                    td { (maybe_at(key.expires_at)) }
                                    td { (status(key, now)) }
                                    @if may_revoke {
                                        td {
                                            @if key.revoked_at.is_none() {
                                                a.button.danger.small href=(format!("{PATH}/{}/revoke", key.id)) aria-label=(format!("Revoke {}", key.name)) { "Revoke" }
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
            (pager(PATH, page, &[], paged))
        }
    }
}

async fn render(
    state: &ApiState,
    member: &SignedIn,
    cursor: &Cursor,
    view: &FormView,
    created: Option<&CreatedApiKey>,
) -> Result<Markup, DashboardError> {
    let page = state.access.list_api_keys(&member.principal, cursor.page()?).await?;
    let content = html! {
        @if let Some(created) = created {
            section.card.secret role="status" {
                h2 { "Key “" (created.record.name) "” created" }
                p { "Copy the secret now: it is shown this once and cannot be read again." }
                div.copyable {
                    code #new-secret { (created.secret.expose()) }
                    button.small type="button" data-copy="new-secret" { "Copy" }
                }
            }
        }
        @if member.may(RouteId::ApiKeyCreate) { (create_form(member, view)) }
        (list(member, &page, cursor.cursor.is_some()))
    };
    Ok(document(member, PATH, "API keys", content))
}

/// `GET /dashboard/api-keys`.
pub async fn page(
    state: web::Data<ApiState>,
    member: SignedIn,
    cursor: web::Query<Cursor>,
) -> Result<HttpResponse, DashboardError> {
    member.require(RouteId::ApiKeysList)?;
    let document = render(&state, &member, &cursor, &FormView::default(), None).await?;
    Ok(respond(StatusCode::OK, document))
}

fn expiry(form: &FormData) -> Result<Option<OffsetDateTime>, AppError> {
    form.optional("expiresAt")
        .map(|text| {
            Date::parse(&text, format_description!("[year]-[month]-[day]"))
                .map(|date| date.midnight().assume_utc())
                .map_err(|_| AppError::invalid("expiresAt", "must be a date, e.g. 2027-01-31"))
        })
        .transpose()
}

/// `POST /dashboard/api-keys`: creates a key and shows its secret once, or the form again.
pub async fn create(state: web::Data<ApiState>, member: SignedIn, body: Bytes) -> Result<HttpResponse, DashboardError> {
    member.require(RouteId::ApiKeyCreate)?;
    let form = FormData::parse(&body);
    member.check_form(&state, &form)?;
    let attempt = async {
        let request = NewApiKey {
            name: form.text("name"),
            scopes: form.all("scopes"),
            expires_at: expiry(&form)?,
        };
        state.access.create_api_key(&member.principal, request).await
    };
    match attempt.await {
        Ok(created) => {
            let document = render(
                &state,
                &member,
                &Cursor::default(),
                &FormView::default(),
                Some(&created),
            )
            .await?;
            Ok(respond(StatusCode::CREATED, document))
        }
        Err(error) => {
            let (view, status) = FormView::refused(form, error.into())?;
            let document = render(&state, &member, &Cursor::default(), &view, None).await?;
            Ok(respond(status, document))
        }
    }
}

/// `GET /dashboard/api-keys/{id}/revoke`: asks before revoking the key.
pub async fn confirm_revoke(
    state: web::Data<ApiState>,
    member: SignedIn,
    id: web::Path<String>,
) -> Result<HttpResponse, DashboardError> {
    member.require(RouteId::ApiKeyRevoke)?;
    let key = state.access.api_key(&member.principal, path_id(&id)?).await?;
    let confirmation = Confirmation {
        section: PATH,
        question: format!("Revoke the key “{}” ({})?", key.name, key.hint),
        consequence: "Every request made with it is refused from now on; this cannot be undone.",
        action: format!("{PATH}/{}/revoke", key.id),
        confirm: "Revoke key",
        cancel: PATH.to_owned(),
    };
    Ok(respond(StatusCode::OK, confirmation.page(&member, html! {})))
}

/// `POST /dashboard/api-keys/{id}/revoke`: the confirmed revocation.
pub async fn revoke(
    state: web::Data<ApiState>,
    member: SignedIn,
    id: web::Path<String>,
    body: Bytes,
) -> Result<HttpResponse, DashboardError> {
    member.require(RouteId::ApiKeyRevoke)?;
    member.check_form(&state, &FormData::parse(&body))?;
    state.access.revoke_api_key(&member.principal, path_id(&id)?).await?;
    Ok(see_other(PATH))
}
