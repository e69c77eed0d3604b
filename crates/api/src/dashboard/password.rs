//! The signed-in member's own password: the current one proves it is them (a wrong one
//! counts against the login throttle), the new one meets the policy, and every other
//! session of theirs ends while this one stays. Mirrors
//! `POST /api/operator/staff/me/password` and calls the same use case.

use actix_web::http::StatusCode;
use actix_web::web::Bytes;
use actix_web::{HttpRequest, HttpResponse, web};
use maud::{Markup, html};
use opinion_access::RouteId;
use opinion_app::access::OwnPasswordChange;
use opinion_app::error::{AppError, ProblemCode};
use serde::Deserialize;

use crate::dashboard::error::DashboardError;
use crate::dashboard::form::{FormData, FormView, token_field};
use crate::dashboard::layout::document;
use crate::dashboard::page::{html as respond, see_other};
use crate::dashboard::session::SignedIn;
use crate::http::client::request_client;
use crate::state::ApiState;

/// The page's address (its navigation entry).
pub const PATH: &str = "/dashboard/password";
const FIELDS: &[&str] = &["currentPassword", "newPassword"];

/// Why the page is shown.
#[derive(Debug, Default, Deserialize)]
pub struct Arrival {
    /// The password has just been changed.
    changed: Option<String>,
}

fn password_page(member: &SignedIn, view: &FormView, changed: bool) -> Markup {
    let content = html! {
        @if changed {
            p.notice role="status" { "Your password is changed. Your other sessions have ended; this one stays signed in." }
        }
        section.card {
            h2 { "Change your password" }
            p.muted { "Every other session of yours ends, so one opened with the old password does not outlive it." }
            (view.banner(FIELDS))
            form method="post" action=(PATH) {
                (token_field(&member.form_token))
                (view.input("currentPassword", "Current password", "password", "", None))
                (view.input("newPassword", "New password", "password", "", Some("12 characters or more, different from the current one.")))
                button type="submit" { "Change password" }
            }
        }
    };
    document(member, PATH, "Your password", content)
}

/// `GET /dashboard/password`.
pub async fn page(member: SignedIn, arrival: web::Query<Arrival>) -> Result<HttpResponse, DashboardError> {
    member.require(RouteId::StaffOwnPasswordChange)?;
    Ok(respond(
        StatusCode::OK,
        password_page(&member, &FormView::default(), arrival.changed.is_some()),
    ))
}

/// `POST /dashboard/password`: changes the password (then the page says so), or shows the
/// form again with the refusal beside its field; passwords are never written back into
/// the page.
pub async fn change(
    state: web::Data<ApiState>,
    member: SignedIn,
    request: HttpRequest,
    body: Bytes,
) -> Result<HttpResponse, DashboardError> {
    member.require(RouteId::StaffOwnPasswordChange)?;
    let form = FormData::parse(&body);
    member.check_form(&state, &form)?;
    let address = request_client(&request, &state.trusted_proxies).address;
    let change = OwnPasswordChange {
        current_password: form.text("currentPassword"),
        new_password: form.text("newPassword"),
    };
    match state
        .access
        .change_own_password(&member.principal, change, address)
        .await
    {
        Ok(_) => Ok(see_other(&format!("{PATH}?changed=1"))),
        Err(error) => {
            let wrong_current = matches!(
                error,
                AppError::Conflict {
                    code: ProblemCode::CurrentPasswordWrong,
                    ..
                }
            );
            let (mut view, status) = FormView::refused(FormData::default(), error.into())?;
            if let Some(refusal) = view.refusal.as_mut().filter(|_| wrong_current) {
                refusal.field = Some("currentPassword".to_owned());
            }
            Ok(respond(status, password_page(&member, &view, false)))
        }
    }
}
