//! The staging simulator (development and staging only; 404 in production): simulated
//! users and their wallets, operations with injected wallet faults, operator-wide
//! scenarios, and each run's step-by-step report. Mirrors `/api/operator/simulator` and
//! reads the forms with the API's own reading of an operation or a scenario.

use actix_web::http::StatusCode;
use actix_web::web::Bytes;
use actix_web::{HttpResponse, web};
use maud::{Markup, html};
use opinion_access::RouteId;
use opinion_app::error::AppError;
use opinion_app::model::SimulatedUser;
use opinion_app::simulator::{NewSimulatedUser, OperationReport, Scenario, Simulator, StepOutcome, UserOperation};

use crate::dashboard::error::DashboardError;
use crate::dashboard::form::{FormData, FormView, token_field};
use crate::dashboard::format::{amount, at};
use crate::dashboard::layout::document;
use crate::dashboard::page::html as respond;
use crate::dashboard::paging::{Cursor, pager};
use crate::dashboard::session::SignedIn;
use crate::dashboard::simulated_user;
use crate::http::error::ApiError;
use crate::http::extract::path_id;
use crate::shared::minor_units::minor_units;
use crate::simulator::available::simulator;
use crate::simulator::operations::dto::{ScenarioBody, UserOperationBody};
use crate::simulator::operations::handlers::{
    CONNECT_WALLET, faults, operation_fields, scenario, scenario_fields, user_operation,
};
use crate::simulator::users::dto::{FaultBody, FaultKind};
use crate::state::ApiState;

/// The simulator's page; a simulated user's page is below it.
pub const PATH: &str = "/dashboard/simulator";
const USER_FIELDS: &[&str] = &["externalUserId", "displayName", "currency", "startingBalance"];
const SCENARIO_FIELDS: &[&str] = &[
    "scenario",
    "timeoutMs",
    "marketId",
    "outcome",
    "shares",
    "users",
    "resolution",
    "question",
];
const OPERATION_FIELDS: &[&str] = &[
    "operation",
    "marketId",
    "outcome",
    "shares",
    "amount",
    "stake",
    "autoCashOut",
    "clientTicketId",
    "ticketId",
    "cashOutAt",
    "faults",
    "delayMs",
];
const FAULTS: &[(FaultKind, &str)] = &[
    (FaultKind::Timeout, "timeout"),
    (FaultKind::ServerError, "server_error"),
    (FaultKind::DroppedConnection, "dropped_connection"),
    (FaultKind::InsufficientFunds, "insufficient_funds"),
    (FaultKind::SlowAnswer, "slow_answer"),
];

fn report(report: &OperationReport) -> Markup {
    html! {
        section.card #report role="status" {
            h2 {
                "Report: " code { (report.operation) } " "
                @if report.completed { span.badge.good { "completed" } } @else { span.badge.bad { "stopped" } }
            }
            ol.steps {
                @for step in &report.steps {
                    li.step {
                        strong { (step.step) } " "
                        span class=(format!("badge {}", if step.outcome == StepOutcome::Completed { "good" } else { "bad" })) { (step.outcome.as_str()) }
                        p { (step.detail) }
                        @if !step.ids.is_empty() {
                            p.muted { @for (name, id) in &step.ids { (name) ": " code { (id) } " " } }
                        }
                    }
                }
            }
        }
    }
}

fn user_row(user: &SimulatedUser) -> Markup {
    html! {
        tr {
            td { a href=(format!("{PATH}/users/{}", user.id)) { code { (user.external_user_id) } } }
            td { (user.display_name.as_deref().unwrap_or("—")) }
            td.num { (amount(user.balance, user.currency)) }
            td { @if user.disabled { span.badge.bad { "disabled" } } @else { span.badge.good { "active" } } }
            td { (user.faults.len()) }
            td { (at(user.created_at)) }
        }
    }
}

struct Shown<'a> {
    cursor: Cursor,
    user_form: FormView,
    scenario_form: FormView,
    report: Option<&'a OperationReport>,
}

async fn render(state: &ApiState, member: &SignedIn, shown: Shown<'_>) -> Result<Markup, DashboardError> {
    let simulator = simulator(state)?;
    let users = simulator.list_users(&member.principal, shown.cursor.page()?).await?;
    let scenarios: Vec<(&str, &str)> = Scenario::NAMES.iter().map(|name| (*name, *name)).collect();
    let outcomes = [("yes", "yes"), ("no", "no")];
    let resolutions = [("", "—"), ("yes", "yes"), ("no", "no"), ("void", "void")];
    let user_options: Vec<(String, String)> = users
        .items
        .iter()
        .map(|user| (user.id.to_string(), user.external_user_id.clone()))
        .collect();
    let content = html! {
        p.muted { "Simulated users hold simulated wallets served by this service; runs go through the real trading and wallet code. Development and staging only." }
        @if let Some(body) = shown.report { (report(body)) }
        section {
            h2 { "Simulated users" }
            @if users.items.is_empty() {
                p.empty { "No simulated users yet." }
            } @else {
                div.scroll {
                    table {
                        thead { tr { th { "User" } th { "Name" } th.num { "Balance" } th { "State" } th { "Faults queued" } th { "Created" } } }
                        tbody { @for user in &users.items { (user_row(user)) } }
                    }
                }
            }
            (pager(PATH, &users, &[], shown.cursor.cursor.is_some()))
        }
        @if member.may(RouteId::SimulatorUserCreate) {
            section.card {
                h2 { "New simulated user" }
                (shown.user_form.banner(USER_FIELDS))
                form method="post" action=(PATH) {
                    (token_field(&member.form_token))
                    div.row {
                        (shown.user_form.input("externalUserId", "External user id", "text", "", None))
                        (shown.user_form.input("displayName", "Display name (optional)", "text", "", None))
                    }
                    div.row {
                        (shown.user_form.input("currency", "Currency (optional)", "text", "", Some("The operator's currency when blank; IDR for flight.")))
                        (shown.user_form.input("startingBalance", "Starting balance, minor units (optional)", "text", "", None))
                    }
                    button type="submit" { "Create user" }
                }
            }
        }
        @if member.may(RouteId::SimulatorOperation) {
            section.card {
                h2 { "Run a scenario" }
                (shown.scenario_form.banner(SCENARIO_FIELDS))
                form method="post" action=(format!("{PATH}/scenarios")) {
                    (token_field(&member.form_token))
                    (shown.scenario_form.select("scenario", "Scenario", &scenarios, "create_market"))
                    (shown.scenario_form.input("timeoutMs", "Wallet time limit, ms (connect_wallet, optional)", "number", "", None))
                    div.row {
                        (shown.scenario_form.input("question", "Question (create_market)", "text", "", None))
                        (shown.scenario_form.input("marketId", "Market (trade_batch, resolve_market)", "text", "", Some("mkt_…")))
                    }
                    div.row {
                        (shown.scenario_form.select("outcome", "Outcome (trade_batch)", &outcomes, "yes"))
                        (shown.scenario_form.input("shares", "Shares, minor units (trade_batch)", "text", "", None))
                        (shown.scenario_form.select("resolution", "Resolution (resolve_market)", &resolutions, ""))
                    }
                    @if !users.items.is_empty() {
                        (shown.scenario_form.checkboxes("users", "Trading users (trade_batch; none ticked: the newest 50)", &user_options, &[]))
                    }
                    button type="submit" { "Run scenario" }
                }
            }
        }
    };
    Ok(document(member, PATH, "Simulator", content))
}

/// `GET /dashboard/simulator`.
pub async fn page(
    state: web::Data<ApiState>,
    member: SignedIn,
    cursor: web::Query<Cursor>,
) -> Result<HttpResponse, DashboardError> {
    member.require(RouteId::SimulatorUsersList)?;
    let shown = Shown {
        cursor: cursor.into_inner(),
        user_form: FormView::default(),
        scenario_form: FormView::default(),
        report: None,
    };
    Ok(respond(StatusCode::OK, render(&state, &member, shown).await?))
}

/// `POST /dashboard/simulator`: a new simulated user and its wallet.
pub async fn create_user(
    state: web::Data<ApiState>,
    member: SignedIn,
    body: Bytes,
) -> Result<HttpResponse, DashboardError> {
    member.require(RouteId::SimulatorUserCreate)?;
    let form = FormData::parse(&body);
    member.check_form(&state, &form)?;
    let attempt = async {
        let new = NewSimulatedUser {
            external_user_id: form.text("externalUserId").trim().to_owned(),
            display_name: form.optional("displayName"),
            currency: form.optional("currency"),
            starting_balance: form
                .optional("startingBalance")
                .map(|text| minor_units("startingBalance", &text))
                .transpose()?,
        };
        Ok::<_, DashboardError>(simulator(&state)?.create_user(&member.principal, new).await?)
    };
    let (user_form, status) = match attempt.await {
        Ok(_) => (FormView::default(), StatusCode::CREATED),
        Err(error) => FormView::refused(form, error)?,
    };
    let shown = Shown {
        cursor: Cursor::default(),
        user_form,
        scenario_form: FormView::default(),
        report: None,
    };
    Ok(respond(status, render(&state, &member, shown).await?))
}

/// `POST /dashboard/simulator/scenarios`: runs a scenario and shows its report.
pub async fn scenario_run(
    state: web::Data<ApiState>,
    member: SignedIn,
    body: Bytes,
) -> Result<HttpResponse, DashboardError> {
    member.require(RouteId::SimulatorOperation)?;
    let form = FormData::parse(&body);
    member.check_form(&state, &form)?;
    let attempt = async {
        let name = form.text("scenario");
        // One form serves every scenario: only the chosen one's fields are sent.
        let field = |field: &str| form.optional_among(field, scenario_fields(&name));
        let body = ScenarioBody {
            timeout_ms: form
                .number("timeoutMs", "timeoutMs")?
                .filter(|_| scenario_fields(&name).contains(&"timeoutMs")),
            question: field("question"),
            close_in_minutes: None,
            liquidity: None,
            fee_bps: None,
            market_id: field("marketId"),
            outcome: field("outcome"),
            shares: field("shares"),
            users: if scenario_fields(&name).contains(&"users") {
                form.all("users")
            } else {
                Vec::new()
            },
            resolution: field("resolution"),
            scenario: name,
        };
        let scenario = scenario(&body)?;
        if matches!(scenario, Scenario::ConnectWallet { .. }) {
            CONNECT_WALLET
                .check(member.principal.kind(), &member.principal.grant)
                .map_err(DashboardError::Denied)?;
        }
        Ok::<_, DashboardError>(simulator(&state)?.run_scenario(&member.principal, scenario).await?)
    };
    let (ran, scenario_form, status) = match attempt.await {
        Ok(ran) => (Some(ran), FormView::default(), StatusCode::OK),
        Err(error) => {
            let (view, status) = FormView::refused(form, error)?;
            (None, view, status)
        }
    };
    let shown = Shown {
        cursor: Cursor::default(),
        user_form: FormView::default(),
        scenario_form,
        report: ran.as_ref(),
    };
    Ok(respond(status, render(&state, &member, shown).await?))
}

/// The forms of a simulated user's page; the one posted shows what was typed and refused.
#[derive(Default)]
pub struct UserForms {
    /// Running an operation.
    pub operation: FormView,
    /// Setting the wallet's balance.
    pub balance: FormView,
    /// Changing the user's name or state.
    pub change: FormView,
}

/// A simulated user's page: its facts, the report of an operation just run, and the forms
/// the member's scopes allow.
pub fn user_page(member: &SignedIn, user: &SimulatedUser, forms: &UserForms, ran: Option<&OperationReport>) -> Markup {
    let view = &forms.operation;
    let operations: Vec<(&str, &str)> = UserOperation::NAMES.iter().map(|name| (*name, *name)).collect();
    let outcomes = [("yes", "yes"), ("no", "no")];
    let fault_options: Vec<(String, String)> = FAULTS
        .iter()
        .map(|(_, name)| ((*name).to_owned(), (*name).replace('_', " ")))
        .collect();
    let content = html! {
        p { a href=(PATH) { "← All simulated users" } }
        @if let Some(body) = ran { (report(body)) }
        dl.facts {
            dt { "Id" } dd { code { (user.id) } }
            dt { "External user id" } dd { code { (user.external_user_id) } }
            dt { "Display name" } dd { (user.display_name.as_deref().unwrap_or("—")) }
            dt { "State" } dd { @if user.disabled { span.badge.bad { "disabled" } } @else { span.badge.good { "active" } } }
            dt { "Balance" } dd { (amount(user.balance, user.currency)) " (started with " (amount(user.starting_balance, user.currency)) ")" }
            dt { "Queued faults" } dd {
                @if user.faults.is_empty() { span.muted { "none" } }
                @for fault in &user.faults { code { (serde_json::to_string(&FaultBody::from(*fault)).unwrap_or_default()) } " " }
            }
            dt { "Created" } dd { (at(user.created_at)) }
        }
        @if member.may(RouteId::SimulatorUserOperation) {
            section.card {
                h2 { "Run an operation" }
                (view.banner(OPERATION_FIELDS))
                form method="post" action=(format!("{PATH}/users/{}", user.id)) {
                    (token_field(&member.form_token))
                    (view.select("operation", "Operation", &operations, "launch"))
                    div.row {
                        (view.input("marketId", "Market (buy, sell)", "text", "", Some("mkt_…")))
                        (view.select("outcome", "Outcome (buy, sell)", &outcomes, "yes"))
                    }
                    div.row {
                        (view.input("shares", "Shares, minor units (buy or sell)", "text", "", None))
                        (view.input("amount", "Or amount, minor units (buy)", "text", "", None))
                    }
                    div.row {
                        (view.input("stake", "Stake, whole rupiah (buy_ticket, play_flight)", "text", "", None))
                        (view.input("autoCashOut", "Auto cash-out multiplier (buy_ticket, optional)", "text", "", Some("e.g. 2.00")))
                        (view.input("clientTicketId", "Client ticket id (buy_ticket, optional)", "text", "", None))
                    }
                    div.row {
                        (view.input("ticketId", "Ticket (cash_out)", "text", "", Some("ftk_…")))
                        (view.input("cashOutAt", "Cash out at multiplier (play_flight)", "text", "", Some("e.g. 1.50")))
                    }
                    (view.checkboxes("faults", "Wallet faults to inject on the next calls", &fault_options, &[]))
                    (view.input("delayMs", "Delay of slow_answer, ms", "number", "", Some("1 to 30000; needed with slow_answer only.")))
                    button type="submit" { "Run operation" }
                }
            }
        }
        (simulated_user::forms(member, user, forms))
    };
    document(member, PATH, "Simulated user", content)
}

/// The simulated user `id` of the member's operator.
pub async fn user_of(simulator: &Simulator, member: &SignedIn, id: &str) -> Result<SimulatedUser, DashboardError> {
    Ok(simulator.user(&member.principal, path_id(id)?).await?)
}

/// `GET /dashboard/simulator/users/{id}`.
pub async fn user(
    state: web::Data<ApiState>,
    member: SignedIn,
    id: web::Path<String>,
) -> Result<HttpResponse, DashboardError> {
    member.require(RouteId::SimulatorUserGet)?;
    let user = user_of(simulator(&state)?, &member, &id).await?;
    Ok(respond(
        StatusCode::OK,
        user_page(&member, &user, &UserForms::default(), None),
    ))
}

/// The ticked faults; the delay typed goes with `slow_answer` only (the API's reading
/// refuses `slow_answer` without one).
fn fault_bodies(form: &FormData) -> Result<Vec<FaultBody>, ApiError> {
    let delay_ms = form
        .number("delayMs", "delayMs")?
        .map(|ms| u32::try_from(ms).map_err(|_| AppError::invalid("delayMs", "must be 1 to 30000")))
        .transpose()?;
    form.all("faults")
        .iter()
        .map(|name| {
            FAULTS
                .iter()
                .find(|(_, known)| known == name)
                .map(|(kind, _)| FaultBody {
                    kind: *kind,
                    delay_ms: delay_ms.filter(|_| *kind == FaultKind::SlowAnswer),
                })
                .ok_or_else(|| AppError::invalid("faults", format!("`{name}` is not a fault")).into())
        })
        .collect()
}

/// `POST /dashboard/simulator/users/{id}`: runs an operation for the user, with the faults
/// ticked, and shows its report.
pub async fn operation(
    state: web::Data<ApiState>,
    member: SignedIn,
    id: web::Path<String>,
    body: Bytes,
) -> Result<HttpResponse, DashboardError> {
    member.require(RouteId::SimulatorUserOperation)?;
    let form = FormData::parse(&body);
    member.check_form(&state, &form)?;
    let simulator = simulator(&state)?;
    let user = user_of(simulator, &member, &id).await?;
    let attempt = async {
        let name = form.text("operation");
        // One form serves every operation: only the chosen one's fields are sent.
        let field = |field: &str| form.optional_among(field, operation_fields(&name));
        let body = UserOperationBody {
            market_id: field("marketId"),
            outcome: field("outcome"),
            shares: field("shares"),
            amount: field("amount"),
            stake: field("stake"),
            auto_cash_out: field("autoCashOut"),
            client_ticket_id: field("clientTicketId"),
            ticket_id: field("ticketId"),
            cash_out_at: field("cashOutAt"),
            faults: fault_bodies(&form)?,
            operation: name,
        };
        let operation = user_operation(&body)?;
        let faults = faults(body.faults)?;
        Ok::<_, DashboardError>(
            simulator
                .run_user_operation(&member.principal, user.id, operation, faults)
                .await?,
        )
    };
    match attempt.await {
        Ok(ran) => {
            let user = user_of(simulator, &member, &id).await?;
            Ok(respond(
                StatusCode::OK,
                user_page(&member, &user, &UserForms::default(), Some(&ran)),
            ))
        }
        Err(error) => {
            let (operation, status) = FormView::refused(form, error)?;
            let forms = UserForms {
                operation,
                ..UserForms::default()
            };
            Ok(respond(status, user_page(&member, &user, &forms, None)))
        }
    }
}
