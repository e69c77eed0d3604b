//! A simulated user's own settings, on its page (development and staging only; 404 in
//! production): its wallet's balance, and its display name and state. Mirrors
//! `PUT /api/operator/simulator/wallets/{externalUserId}` and
//! `PATCH …/simulator/users/{id}`, reads the amount as the API does and calls the same use
//! cases.

use actix_web::web::Bytes;
use actix_web::{HttpResponse, web};
use maud::{Markup, html};
use opinion_access::RouteId;
use opinion_app::model::SimulatedUser;
use opinion_app::simulator::SimulatedUserChange;

use crate::dashboard::error::DashboardError;
use crate::dashboard::form::{FormData, FormView, token_field};
use crate::dashboard::page::{html as respond, see_other};
use crate::dashboard::session::SignedIn;
use crate::dashboard::simulator::{PATH, UserForms, user_of, user_page};
use crate::shared::minor_units::minor_units;
use crate::simulator::available::simulator;
use crate::state::ApiState;

const BALANCE_FIELDS: &[&str] = &["balance"];
const CHANGE_FIELDS: &[&str] = &["displayName", "disabled"];
/// The check box's value when ticked.
const DISABLED: &str = "true";

fn user_path(user: &SimulatedUser) -> String {
    format!("{PATH}/users/{}", user.id)
}

/// The balance and change forms of `user`'s page, each shown only to a member whose
/// scopes pass its API route.
pub fn forms(member: &SignedIn, user: &SimulatedUser, forms: &UserForms) -> Markup {
    let states = [(
        DISABLED.to_owned(),
        "Disabled: its wallet refuses it user_blocked".to_owned(),
    )];
    let disabled = if user.disabled {
        vec![DISABLED.to_owned()]
    } else {
        Vec::new()
    };
    html! {
        @if member.may(RouteId::SimulatorWalletPut) {
            section.card {
                h2 { "Set the wallet's balance" }
                (forms.balance.banner(BALANCE_FIELDS))
                form method="post" action=(format!("{}/balance", user_path(user))) {
                    (token_field(&member.form_token))
                    (forms.balance.input("balance", "New balance, minor units", "text", &user.balance.to_string(), Some("0 to 10^15; the wallet's log is kept.")))
                    button type="submit" { "Set balance" }
                }
            }
        }
        @if member.may(RouteId::SimulatorUserUpdate) {
            section.card {
                h2 { "Change the user" }
                (forms.change.banner(CHANGE_FIELDS))
                form method="post" action=(format!("{}/change", user_path(user))) {
                    (token_field(&member.form_token))
                    (forms.change.input("displayName", "Display name", "text", user.display_name.as_deref().unwrap_or(""), Some("Blank keeps the current name.")))
                    (forms.change.checkboxes("disabled", "State", &states, &disabled))
                    button type="submit" { "Save" }
                }
            }
        }
    }
}

/// `POST /dashboard/simulator/users/{id}/balance`: sets the simulated wallet's balance,
/// then back to the user's page; refused, the page again with the error beside the amount.
pub async fn set_balance(
    state: web::Data<ApiState>,
    member: SignedIn,
    id: web::Path<String>,
    body: Bytes,
) -> Result<HttpResponse, DashboardError> {
    member.require(RouteId::SimulatorWalletPut)?;
    let form = FormData::parse(&body);
    member.check_form(&state, &form)?;
    let simulator = simulator(&state)?;
    let user = user_of(simulator, &member, &id).await?;
    let attempt = async {
        let balance = minor_units("balance", form.text("balance").trim())?;
        Ok::<_, DashboardError>(
            simulator
                .set_wallet_balance(&member.principal, &user.external_user_id, balance)
                .await?,
        )
    };
    match attempt.await {
        Ok(_) => Ok(see_other(&user_path(&user))),
        Err(error) => {
            let (balance, status) = FormView::refused(form, error)?;
            let forms = UserForms {
                balance,
                ..UserForms::default()
            };
            Ok(respond(status, user_page(&member, &user, &forms, None)))
        }
    }
}

/// `POST /dashboard/simulator/users/{id}/change`: changes the display name (blank keeps
/// it) and the state, then back to the user's page; refused, the page again with the
/// error beside its field.
pub async fn change(
    state: web::Data<ApiState>,
    member: SignedIn,
    id: web::Path<String>,
    body: Bytes,
) -> Result<HttpResponse, DashboardError> {
    member.require(RouteId::SimulatorUserUpdate)?;
    let form = FormData::parse(&body);
    member.check_form(&state, &form)?;
    let simulator = simulator(&state)?;
    let user = user_of(simulator, &member, &id).await?;
    let change = SimulatedUserChange {
        display_name: form.optional("displayName"),
        disabled: Some(form.all("disabled").iter().any(|value| value == DISABLED)),
    };
    match simulator.update_user(&member.principal, user.id, change).await {
        Ok(_) => Ok(see_other(&user_path(&user))),
        Err(error) => {
            let (change, status) = FormView::refused(form, error.into())?;
            let forms = UserForms {
                change,
                ..UserForms::default()
            };
            Ok(respond(status, user_page(&member, &user, &forms, None)))
        }
    }
}
