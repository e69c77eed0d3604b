//! Staff: the operator's dashboard members; add one (a generated password shown once),
//! change a member's name and scopes, disable or enable it, reset its password (which
//! ends its sessions). A member never grants what it does not hold: the form offers only
//! its own scopes and the use case refuses the rest. Mirrors `/api/operator/staff` and
//! calls the same use cases.

use actix_web::http::StatusCode;
use actix_web::web::Bytes;
use actix_web::{HttpResponse, web};
use maud::{Markup, html};
use opinion_access::RouteId;
use opinion_app::access::{NewStaff, StaffChange};
use opinion_app::model::StaffMember;
use opinion_core::StaffId;

use crate::dashboard::confirm::Confirmation;
use crate::dashboard::error::DashboardError;
use crate::dashboard::form::{FormData, FormView, token_field};
use crate::dashboard::format::at;
use crate::dashboard::layout::document;
use crate::dashboard::page::{html as respond, see_other};
use crate::dashboard::paging::{Cursor, pager};
use crate::dashboard::scopes::{grantable, listed};
use crate::dashboard::session::SignedIn;
use crate::http::extract::path_id;
use crate::state::ApiState;

const PATH: &str = "/dashboard/staff";
const FIELDS: &[&str] = &["email", "name", "scopes", "password"];

fn password_shown(email: &str, password: &str) -> Markup {
    html! {
        section.card.secret role="status" {
            h2 { "Password for " (email) }
            p { "Give it to the member now: it is shown this once. They can change it after signing in." }
            div.copyable {
                code #new-secret { (password) }
                button.small type="button" data-copy="new-secret" { "Copy" }
            }
        }
    }
}

async fn render(
    state: &ApiState,
    member: &SignedIn,
    cursor: &Cursor,
    view: &FormView,
    created: Option<(&str, &str)>,
) -> Result<Markup, DashboardError> {
    let page = state.access.list_staff(&member.principal, cursor.page()?).await?;
    let content = html! {
        @if let Some((email, password)) = created { (password_shown(email, password)) }
        @if member.may(RouteId::StaffCreate) {
            section.card {
                h2 { "New member" }
                (view.banner(FIELDS))
                form method="post" action=(PATH) {
                    (token_field(&member.form_token))
                    div.row {
                        (view.input("email", "E-mail", "email", "", None))
                        (view.input("name", "Name", "text", "", None))
                    }
                    (view.checkboxes("scopes", "Scopes", &grantable(&member.principal, true), &[]))
                    (view.input("password", "Password (optional)", "password", "", Some("12 characters or more; leave blank and one is generated.")))
                    button type="submit" { "Add member" }
                }
            }
        }
        section {
            h2 { "Members" }
            div.scroll { table {
                thead { tr { th { "Name" } th { "E-mail" } th { "Scopes" } th { "State" } th { "Added" } th { span.sr { "Actions" } } } }
                tbody { @for item in &page.items { tr {
                    td { (item.name) }
                    td { (item.email.as_str()) }
                    td { (listed(&item.grant)) }
                    td { @if item.disabled { span.badge.bad { "disabled" } } @else { span.badge.good { "active" } } }
                    td { (at(item.created_at)) }
                    td.actions { a href=(format!("{PATH}/{}", item.id)) { "Open" } }
                } } }
            } }
            (pager(PATH, &page, &[], cursor.cursor.is_some()))
        }
    };
    Ok(document(member, PATH, "Staff", content))
}

/// `GET /dashboard/staff`.
pub async fn page(
    state: web::Data<ApiState>,
    member: SignedIn,
    cursor: web::Query<Cursor>,
) -> Result<HttpResponse, DashboardError> {
    member.require(RouteId::StaffList)?;
    Ok(respond(
        StatusCode::OK,
        render(&state, &member, &cursor, &FormView::default(), None).await?,
    ))
}

/// `POST /dashboard/staff`: adds a member, or shows the form again.
pub async fn create(state: web::Data<ApiState>, member: SignedIn, body: Bytes) -> Result<HttpResponse, DashboardError> {
    member.require(RouteId::StaffCreate)?;
    let form = FormData::parse(&body);
    member.check_form(&state, &form)?;
    let request = NewStaff {
        email: form.text("email").trim().to_owned(),
        name: form.text("name").trim().to_owned(),
        scopes: form.all("scopes"),
        password: form.optional("password"),
    };
    match state.access.create_staff(&member.principal, request).await {
        Ok(created) => {
            let email = created.member.email.as_str().to_owned();
            let shown = created
                .generated_password
                .as_deref()
                .map(|password| (email.as_str(), password));
            Ok(respond(
                StatusCode::CREATED,
                render(&state, &member, &Cursor::default(), &FormView::default(), shown).await?,
            ))
        }
        Err(error) => {
            let (view, status) = FormView::refused(form, error.into())?;
            Ok(respond(
                status,
                render(&state, &member, &Cursor::default(), &view, None).await?,
            ))
        }
    }
}

fn member_page(viewer: &SignedIn, member: &StaffMember, view: &FormView, password: Option<&str>) -> Markup {
    let path = format!("{PATH}/{}", member.id);
    let held = member.grant.to_strings();
    let content = html! {
        p { a href=(PATH) { "← All members" } }
        @if let Some(password) = password { (password_shown(member.email.as_str(), password)) }
        dl.facts {
            dt { "E-mail" } dd { (member.email.as_str()) }
            dt { "Scopes" } dd { (listed(&member.grant)) }
            dt { "State" } dd { @if member.disabled { span.badge.bad { "disabled" } } @else { span.badge.good { "active" } } }
            dt { "Added" } dd { (at(member.created_at)) }
            dt { "Changed" } dd { (at(member.updated_at)) }
        }
        @if viewer.may(RouteId::StaffUpdate) {
            section.card {
                h2 { "Membership" }
                (view.banner(&["name", "scopes"]))
                form method="post" action=(path) {
                    (token_field(&viewer.form_token))
                    (view.input("name", "Name", "text", &member.name, None))
                    (view.checkboxes("scopes", "Scopes", &grantable(&viewer.principal, true), &held))
                    button type="submit" { "Save" }
                }
            }
            section.card.danger-zone {
                @if member.disabled {
                    h2 { "Enable" }
                    p.muted { "The member can sign in again." }
                    form method="post" action=(format!("{path}/enable")) {
                        (token_field(&viewer.form_token))
                        button type="submit" { "Enable member" }
                    }
                } @else {
                    h2 { "Disable" }
                    p.muted { "Every session of the member ends and it cannot sign in." }
                    a.button.danger href=(format!("{path}/disable")) { "Disable member…" }
                }
            }
        }
        @if viewer.may(RouteId::StaffPasswordReset) {
            section.card.danger-zone {
                h2 { "Reset the password" }
                p.muted { "A new password is generated and shown once; every session of the member ends." }
                a.button.danger href=(format!("{path}/reset-password")) { "Reset password…" }
            }
        }
    };
    document(viewer, PATH, &member.name, content)
}

async fn member_of(state: &ApiState, viewer: &SignedIn, id: &str) -> Result<StaffMember, DashboardError> {
    let id: StaffId = path_id(id)?;
    Ok(state.access.staff_member(&viewer.principal, id).await?)
}

/// `GET /dashboard/staff/{id}`.
pub async fn edit(
    state: web::Data<ApiState>,
    viewer: SignedIn,
    id: web::Path<String>,
) -> Result<HttpResponse, DashboardError> {
    viewer.require(RouteId::StaffList)?;
    let member = member_of(&state, &viewer, &id).await?;
    Ok(respond(
        StatusCode::OK,
        member_page(&viewer, &member, &FormView::default(), None),
    ))
}

/// `POST /dashboard/staff/{id}`: the name, scopes and state, or the form again.
pub async fn update(
    state: web::Data<ApiState>,
    viewer: SignedIn,
    id: web::Path<String>,
    body: Bytes,
) -> Result<HttpResponse, DashboardError> {
    viewer.require(RouteId::StaffUpdate)?;
    let form = FormData::parse(&body);
    viewer.check_form(&state, &form)?;
    let member = member_of(&state, &viewer, &id).await?;
    let change = StaffChange {
        name: Some(form.text("name").trim().to_owned()),
        scopes: Some(form.all("scopes")),
        disabled: None,
    };
    match state.access.update_staff(&viewer.principal, member.id, change).await {
        Ok(_) => Ok(see_other(&format!("{PATH}/{}", member.id))),
        Err(error) => {
            let (view, status) = FormView::refused(form, error.into())?;
            Ok(respond(status, member_page(&viewer, &member, &view, None)))
        }
    }
}

/// An action on a member that is asked about first.
#[derive(Clone, Copy)]
enum Destructive {
    Disable,
    ResetPassword,
}

impl Destructive {
    /// The API route whose requirement the action has.
    fn route(self) -> RouteId {
        match self {
            Self::Disable => RouteId::StaffUpdate,
            Self::ResetPassword => RouteId::StaffPasswordReset,
        }
    }

    /// Its confirmation for `member`.
    fn confirmation(self, member: &StaffMember) -> Confirmation<'static> {
        let path = format!("{PATH}/{}", member.id);
        let (segment, question, consequence, confirm) = match self {
            Self::Disable => (
                "disable",
                "Disable",
                "Every session of the member ends at once and it cannot sign in until enabled again.",
                "Disable member",
            ),
            Self::ResetPassword => (
                "reset-password",
                "Reset the password of",
                "A new password is generated and shown once; the current one stops working and every session of the member ends.",
                "Reset password",
            ),
        };
        Confirmation {
            section: PATH,
            question: format!("{question} {} ({})?", member.name, member.email.as_str()),
            consequence,
            action: format!("{path}/{segment}"),
            confirm,
            cancel: path,
        }
    }
}

async fn confirm(
    state: &ApiState,
    viewer: &SignedIn,
    id: &str,
    action: Destructive,
) -> Result<HttpResponse, DashboardError> {
    viewer.require(action.route())?;
    let member = member_of(state, viewer, id).await?;
    Ok(respond(
        StatusCode::OK,
        action.confirmation(&member).page(viewer, html! {}),
    ))
}

/// `GET /dashboard/staff/{id}/disable`: asks before disabling the member.
pub async fn confirm_disable(
    state: web::Data<ApiState>,
    viewer: SignedIn,
    id: web::Path<String>,
) -> Result<HttpResponse, DashboardError> {
    confirm(&state, &viewer, &id, Destructive::Disable).await
}

/// `GET /dashboard/staff/{id}/reset-password`: asks before resetting the password.
pub async fn confirm_reset_password(
    state: web::Data<ApiState>,
    viewer: SignedIn,
    id: web::Path<String>,
) -> Result<HttpResponse, DashboardError> {
    confirm(&state, &viewer, &id, Destructive::ResetPassword).await
}

async fn set_disabled(
    state: &ApiState,
    viewer: &SignedIn,
    id: &str,
    body: &Bytes,
    disabled: bool,
) -> Result<HttpResponse, DashboardError> {
    viewer.require(RouteId::StaffUpdate)?;
    viewer.check_form(state, &FormData::parse(body))?;
    let member = member_of(state, viewer, id).await?;
    let change = StaffChange {
        name: None,
        scopes: None,
        disabled: Some(disabled),
    };
    state.access.update_staff(&viewer.principal, member.id, change).await?;
    Ok(see_other(&format!("{PATH}/{}", member.id)))
}

/// `POST /dashboard/staff/{id}/disable`: the confirmed disabling (the member's sessions end).
pub async fn disable(
    state: web::Data<ApiState>,
    viewer: SignedIn,
    id: web::Path<String>,
    body: Bytes,
) -> Result<HttpResponse, DashboardError> {
    set_disabled(&state, &viewer, &id, &body, true).await
}

/// `POST /dashboard/staff/{id}/enable`.
pub async fn enable(
    state: web::Data<ApiState>,
    viewer: SignedIn,
    id: web::Path<String>,
    body: Bytes,
) -> Result<HttpResponse, DashboardError> {
    set_disabled(&state, &viewer, &id, &body, false).await
}

/// `POST /dashboard/staff/{id}/reset-password`: the confirmed reset; a generated password,
/// shown once.
pub async fn reset_password(
    state: web::Data<ApiState>,
    viewer: SignedIn,
    id: web::Path<String>,
    body: Bytes,
) -> Result<HttpResponse, DashboardError> {
    viewer.require(RouteId::StaffPasswordReset)?;
    viewer.check_form(&state, &FormData::parse(&body))?;
    let member = member_of(&state, &viewer, &id).await?;
    let reset = state
        .access
        .reset_staff_password(&viewer.principal, member.id, None)
        .await?;
    Ok(respond(
        StatusCode::OK,
        member_page(
            &viewer,
            &reset.member,
            &FormView::default(),
            reset.generated_password.as_deref(),
        ),
    ))
}
