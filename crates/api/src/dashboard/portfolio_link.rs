//! Portfolio links on a player's page: a signed, expiring link to the player's read-only
//! portfolio page, created on request and shown once with a copy button (the link is the
//! credential). Mirrors `POST /api/operator/users/portfolio-view` and calls the same use
//! case; the address is the one the API hands out.

use actix_web::http::StatusCode;
use actix_web::web::Bytes;
use actix_web::{HttpResponse, web};
use maud::{Markup, html};
use opinion_access::RouteId;
use opinion_app::opinion::reads::PortfolioLink;

use crate::dashboard::error::DashboardError;
use crate::dashboard::form::{FormData, FormView, token_field};
use crate::dashboard::format::at;
use crate::dashboard::listing::ListQuery;
use crate::dashboard::session::SignedIn;
use crate::dashboard::users::render_player;
use crate::state::ApiState;
use crate::views::handlers::portfolio_view_url;

/// Where the link form posts.
pub const PATH: &str = "/dashboard/users/portfolio-link";
const FIELDS: &[&str] = &["expiresInSeconds"];
/// The lifetime the form offers first, the API's default.
const DEFAULT_LIFETIME: &str = "3600";

/// What the link form shows: the link just created (once), or the refused form.
#[derive(Default)]
pub struct LinkView {
    form: FormView,
    issued: Option<(String, PortfolioLink)>,
}

impl LinkView {
    /// The status of the player's page: 201 with a new link, the refusal's, else 200.
    pub fn status(&self) -> StatusCode {
        match (&self.issued, &self.form.refusal) {
            (Some(_), _) => StatusCode::CREATED,
            (None, Some(refusal)) => refusal.status,
            (None, None) => StatusCode::OK,
        }
    }
}

/// The link just created, shown this once with a copy button.
pub fn issued(view: &LinkView) -> Markup {
    html! {
        @if let Some((url, link)) = &view.issued {
            section.card.secret role="status" {
                h2 { "Portfolio link created" }
                p {
                    "Copy it now: it is shown this once. Anyone holding it sees this player's portfolio, read-only, until "
                    (at(link.expires_at)) "."
                }
                div.copyable {
                    code #new-secret { (url) }
                    button.small type="button" data-copy="new-secret" { "Copy" }
                }
            }
        }
    }
}

/// The form creating a link to `external_user_id`'s portfolio, for a member whose scopes
/// pass the API route's.
pub fn form(member: &SignedIn, external_user_id: &str, view: &LinkView) -> Markup {
    html! {
        @if member.may(RouteId::PortfolioViewLink) {
            section.card {
                h2 { "Portfolio link" }
                p.muted { "A signed link that opens this player's portfolio without signing in, until it expires." }
                (view.form.banner(FIELDS))
                form method="post" action=(PATH) {
                    (token_field(&member.form_token))
                    input type="hidden" name="externalUserId" value=(external_user_id);
                    (view.form.input("expiresInSeconds", "Works for, seconds", "number", DEFAULT_LIFETIME, Some("60 to 604800 (seven days).")))
                    button type="submit" { "Create link" }
                }
            }
        }
    }
}

/// `POST /dashboard/users/portfolio-link`: creates the link and shows it once on the
/// player's page; refused, the page with the error beside the lifetime. The answer is
/// the player's page, so its scope is needed as well as the route's.
pub async fn create(state: web::Data<ApiState>, member: SignedIn, body: Bytes) -> Result<HttpResponse, DashboardError> {
    member.require(RouteId::PortfolioViewLink)?;
    member.require(RouteId::UserPortfolio)?;
    let form = FormData::parse(&body);
    member.check_form(&state, &form)?;
    let external_user_id = form.text("externalUserId");
    let attempt = async {
        let lifetime = form.number("expiresInSeconds", "expiresInSeconds")?;
        Ok::<_, DashboardError>(
            state
                .reads
                .portfolio_link(member.principal.operator_id, &external_user_id, lifetime)
                .await?,
        )
    };
    let view = match attempt.await {
        Ok(link) => LinkView {
            form: FormView::default(),
            issued: Some((portfolio_view_url(&state, &link.token), link)),
        },
        Err(error) => LinkView {
            form: FormView::refused(form, error)?.0,
            issued: None,
        },
    };
    let player = ListQuery(FormData::from_pairs(vec![("externalUserId", external_user_id)]));
    render_player(&state, &member, &player, &view).await
}
