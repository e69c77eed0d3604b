//! The operator's visibility mode on the markets page: which mode decides what its
//! players are offered, and (with `markets:write`) a form to change it. Mirrors
//! `GET`/`PUT /api/operator/markets/visibility-mode`, reads the mode as the API does and
//! calls the same use cases.

use actix_web::http::StatusCode;
use actix_web::web::Bytes;
use actix_web::{HttpResponse, web};
use maud::{Markup, html};
use opinion_access::RouteId;
use opinion_app::opinion::reads::VisibilityModeChange;
use opinion_market::VisibilityMode;

use crate::dashboard::error::DashboardError;
use crate::dashboard::form::{FormData, FormView, token_field};
use crate::dashboard::format::at;
use crate::dashboard::listing::ListQuery;
use crate::dashboard::markets;
use crate::dashboard::session::SignedIn;
use crate::operator::markets::dto::SetVisibilityModeBody;
use crate::state::ApiState;

/// Where the mode form posts.
pub const PATH: &str = "/dashboard/markets/visibility-mode";
const FIELDS: &[&str] = &["mode"];

/// What the mode panel shows besides the mode in force: the change just made, or the
/// refused form.
#[derive(Default)]
pub struct ModeView {
    form: FormView,
    changed: Option<VisibilityModeChange>,
}

impl ModeView {
    /// The status of a refused change; `None` otherwise.
    pub fn status(&self) -> Option<StatusCode> {
        self.form.refusal.as_ref().map(|refusal| refusal.status)
    }
}

/// What a mode means for the operator's players.
fn meaning(mode: VisibilityMode) -> &'static str {
    match mode {
        VisibilityMode::Blocklist => "every market is offered until you hide it",
        VisibilityMode::Allowlist => "a market is offered only once you show it",
        VisibilityMode::All => "every market is offered; your Show and Hide choices are kept but not applied",
    }
}

/// The panel: the mode in force and when the visibility last changed, the change just
/// made, and the form to change it for a member with `markets:write`.
pub async fn panel(state: &ApiState, member: &SignedIn, view: &ModeView) -> Result<Markup, DashboardError> {
    let settings = state.reads.visibility_mode(member.principal.operator_id).await?;
    let modes: Vec<(&str, &str)> = VisibilityMode::ALL
        .iter()
        .map(|mode| (mode.as_str(), mode.as_str()))
        .collect();
    Ok(html! {
        section.card #visibility-mode {
            h2 { "Visibility mode: " code { (settings.mode.as_str()) } }
            p { "Your players see what the mode decides: " (meaning(settings.mode)) "." }
            @if let Some(updated_at) = settings.updated_at {
                p.muted { "The mode or a market's choice last changed " (at(updated_at)) "." }
            }
            @if let Some(change) = &view.changed {
                p.notice role="status" {
                    "The mode is " code { (change.settings.mode.as_str()) } ". "
                    "Markets not yet resolved it showed or hid: " (change.changed_markets) "."
                }
            }
            @if member.may(RouteId::MarketVisibilityModeSet) {
                (view.form.banner(FIELDS))
                form method="post" action=(PATH) {
                    (token_field(&member.form_token))
                    (view.form.select("mode", "Mode", &modes, settings.mode.as_str()))
                    button type="submit" { "Set mode" }
                }
            }
        }
    })
}

/// `POST /dashboard/markets/visibility-mode`: sets the mode and shows the markets page
/// with how many markets it showed or hid; refused, the page with the error beside the
/// mode. The answer is the markets page, so its scope is needed as well as the route's.
pub async fn set(state: web::Data<ApiState>, member: SignedIn, body: Bytes) -> Result<HttpResponse, DashboardError> {
    member.require(RouteId::MarketVisibilityModeSet)?;
    member.require(RouteId::MarketsList)?;
    let form = FormData::parse(&body);
    member.check_form(&state, &form)?;
    let attempt = async {
        let mode = SetVisibilityModeBody {
            mode: form.text("mode"),
        }
        .requested()?;
        Ok::<_, DashboardError>(
            state
                .reads
                .set_visibility_mode(member.principal.operator_id, mode)
                .await?,
        )
    };
    let view = match attempt.await {
        Ok(change) => ModeView {
            form: FormView::default(),
            changed: Some(change),
        },
        Err(error) => ModeView {
            form: FormView::refused(form, error)?.0,
            changed: None,
        },
    };
    let everything = ListQuery(FormData::default());
    markets::render(&state, &member, &everything, &view).await
}
