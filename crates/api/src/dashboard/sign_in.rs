//! Signing in and out: the staff e-mail and password start the same session as the API's
//! login (throttled the same way), kept in the session cookie on the dashboard's path;
//! signing out ends the session for every client that holds it.

use actix_web::cookie::time::Duration as CookieDuration;
use actix_web::http::StatusCode;
use actix_web::http::header::ORIGIN;
use actix_web::web::Bytes;
use actix_web::{HttpRequest, HttpResponse, web};
use maud::{Markup, html};
use opinion_app::access::AuthFailure;
use opinion_app::error::AppError;
use serde::Deserialize;

use crate::dashboard::error::DashboardError;
use crate::dashboard::form::{FormData, FormView};
use crate::dashboard::layout::bare;
use crate::dashboard::page::{html as respond, see_other};
use crate::dashboard::session::{SignedIn, session_cookie};
use crate::http::client::request_client;
use crate::state::ApiState;

/// Why the sign-in page is shown.
#[derive(Debug, Default, Deserialize)]
pub struct Arrival {
    /// A session that was presented has ended (logout elsewhere, reset, disabled, expired).
    ended: Option<String>,
    /// The member has just signed out.
    signed_out: Option<String>,
}

fn sign_in_page(view: &FormView, notice: Option<&str>) -> Markup {
    bare(
        "Sign in",
        html! {
            @if let Some(notice) = notice { p.notice role="status" { (notice) } }
            (view.banner(&["email", "password"]))
            form.card method="post" action="/dashboard/sign-in" {
                (view.input("email", "E-mail", "email", "", None))
                div.field {
                    label for="password" { "Password" }
                    input #password name="password" type="password" autocomplete="current-password";
                }
                button type="submit" { "Sign in" }
            }
            p.muted { "Staff of an operator sign in with the e-mail and password their administrator gave them." }
        },
    )
}

/// `GET /dashboard/sign-in`.
pub async fn form(query: web::Query<Arrival>) -> HttpResponse {
    let notice = if query.signed_out.is_some() {
        Some("You have signed out.")
    } else if query.ended.is_some() {
        Some("Your session has ended. Sign in again to go on.")
    } else {
        None
    };
    respond(StatusCode::OK, sign_in_page(&FormView::default(), notice))
}

/// Whether a post comes from a page of this service: a browser names the page's origin in
/// `Origin`; one naming another site is a forged sign-in.
fn same_origin(request: &HttpRequest) -> bool {
    let Some(origin) = request.headers().get(ORIGIN).and_then(|value| value.to_str().ok()) else {
        return true;
    };
    let host = request.connection_info().host().to_owned();
    origin
        .split_once("://")
        .is_some_and(|(_, authority)| authority.eq_ignore_ascii_case(&host))
}

/// `POST /dashboard/sign-in`: starts a session, or shows the form again saying why not.
pub async fn submit(state: web::Data<ApiState>, request: HttpRequest, body: Bytes) -> HttpResponse {
    if !same_origin(&request) {
        return respond(
            StatusCode::FORBIDDEN,
            bare(
                "Sign in from the dashboard",
                html! { p { "This sign-in was not sent from the dashboard's own page." } p { a href="/dashboard/sign-in" { "Sign in" } } },
            ),
        );
    }
    let form = FormData::parse(&body);
    let address = request_client(&request, &state.trusted_proxies).address;
    let email = form.text("email");
    match state
        .access
        .start_session(&email, &form.text("password"), address)
        .await
    {
        Ok(started) => {
            let lifetime = started.session.expires_at - started.session.created_at;
            let cookie = session_cookie(&state, started.token, CookieDuration::seconds(lifetime.whole_seconds()));
            let mut response = see_other("/dashboard");
            let _ = response.add_cookie(&cookie);
            response
        }
        Err(error) => refused(form, error),
    }
}

fn refused(form: FormData, error: AppError) -> HttpResponse {
    let (status, message) = match &error {
        AppError::Unauthenticated(AuthFailure::StaffDisabled) => {
            let body = bare(
                "Membership disabled",
                html! {
                    p { "This staff membership is disabled, so it cannot sign in." }
                    p { "An administrator of your operator can enable it again from the staff page." }
                    p { a href="/dashboard/sign-in" { "Back to sign-in" } }
                },
            );
            return respond(StatusCode::UNAUTHORIZED, body);
        }
        AppError::Unauthenticated(_) => (
            StatusCode::UNAUTHORIZED,
            "The e-mail address or the password is wrong.".to_owned(),
        ),
        AppError::RateLimited { retry_after_secs } => (
            StatusCode::TOO_MANY_REQUESTS,
            format!("Too many attempts. Try again in {retry_after_secs} seconds."),
        ),
        _ => return actix_web::ResponseError::error_response(&DashboardError::from(error)),
    };
    let view = FormView {
        values: form,
        refusal: Some(crate::dashboard::form::Refusal {
            field: None,
            message,
            status,
        }),
    };
    respond(status, sign_in_page(&view, None))
}

/// `POST /dashboard/sign-out`: ends the session (for every client holding it) and clears
/// the cookie.
pub async fn sign_out(
    state: web::Data<ApiState>,
    member: SignedIn,
    body: Bytes,
) -> Result<HttpResponse, DashboardError> {
    member.check_form(&state, &FormData::parse(&body))?;
    state.access.end_session(&member.principal).await?;
    let mut response = see_other("/dashboard/sign-in?signed_out=1");
    let _ = response.add_cookie(&session_cookie(&state, String::new(), CookieDuration::ZERO));
    Ok(response)
}
