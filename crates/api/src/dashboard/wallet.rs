//! The wallet adapter: its configuration (address and time limit), a secret rotation
//! (the new secret shown once), and the full-contract test with its report step by step,
//! every call sent and every answer received. Mirrors `/api/operator/wallet-adapter` and
//! its test route, and calls the same use cases.

use actix_web::http::StatusCode;
use actix_web::web::Bytes;
use actix_web::{HttpResponse, web};
use maud::{Markup, html};
use opinion_access::RouteId;
use opinion_app::error::AppError;
use opinion_app::wallet::{WalletAdapterChange, WalletAdapterView, WalletTestRequest};

use crate::dashboard::confirm::Confirmation;
use crate::dashboard::error::DashboardError;
use crate::dashboard::form::{FormData, FormView, token_field};
use crate::dashboard::format::{at, maybe_at};
use crate::dashboard::layout::document;
use crate::dashboard::page::html as respond;
use crate::dashboard::session::SignedIn;
use crate::operator::wallet_adapter::wallet_test::dto::{CheckBody, ExchangeBody, WalletTestReportBody};
use crate::shared::minor_units::minor_units;
use crate::state::ApiState;

const PATH: &str = "/dashboard/wallet";
const CONFIG_FIELDS: &[&str] = &["baseUrl", "timeoutMs"];
const TEST_FIELDS: &[&str] = &["externalUserId", "amount"];

/// What the page shows besides the configuration.
#[derive(Default)]
struct Shown<'a> {
    config_form: FormView,
    test_form: FormView,
    new_secret: Option<String>,
    report: Option<&'a WalletTestReportBody>,
}

fn verdict(text: &str) -> Markup {
    let class = match text {
        "passed" => "good",
        "not_run" => "warn",
        _ => "bad",
    };
    html! { span class=(format!("badge {class}")) { (text) } }
}

fn exchange(exchange: &ExchangeBody) -> Markup {
    html! {
        div.exchange {
            p {
                code { (exchange.call) } " · " (exchange.elapsed_ms) " ms"
                @if let Some(key) = &exchange.idempotency_key { " · idempotency key " code { (key) } }
            }
            div.pair {
                div { h4 { "Sent" } pre.body { (exchange.sent) } }
                div { h4 { "Received" } pre.body { (exchange.received) } }
            }
        }
    }
}

fn check(check: &CheckBody) -> Markup {
    html! {
        li.step {
            details open[check.verdict != "passed"] {
                summary { (verdict(&check.verdict)) " " strong { (check.name) } span.muted { " · " (check.elapsed_ms) " ms" } }
                p { "Expected: " (check.expected) }
                @if let Some(problem) = &check.problem { p.error { "Problem: " (problem) } }
                @if let Some(fix) = &check.fix { p { "Fix: " (fix) } }
                @for item in &check.exchanges { (exchange(item)) }
            }
        }
    }
}

/// One product's part of the report (the Opinion part's fields are the report's top level).
struct Part<'a> {
    title: &'static str,
    verdict: &'a str,
    external_user_id: &'a str,
    amount: &'a str,
    net_change: Option<&'a str>,
    not_run: Option<(&'a str, &'a str)>,
    checks: &'a [CheckBody],
    cleanup: &'a [ExchangeBody],
}

fn part(part: &Part<'_>) -> Markup {
    html! {
        section.report {
            h3 { (part.title) " " (verdict(part.verdict)) }
            @if let Some((reason, detail)) = part.not_run {
                p.muted { code { (reason) } ": " (detail) }
            } @else {
                p.muted { "User " code { (part.external_user_id) } " · amount " (part.amount) " minor units"
                    @if let Some(change) = part.net_change { " · net change " (change) } }
                ol.steps { @for item in part.checks { (check(item)) } }
                @if !part.cleanup.is_empty() {
                    h4 { "Clean-up" }
                    @for item in part.cleanup { (exchange(item)) }
                }
            }
        }
    }
}

fn report(report: &WalletTestReportBody) -> Markup {
    let flight = &report.flight;
    html! {
        section.card #report {
            h2 { "Test report " (verdict(&report.verdict)) }
            p.muted { "Run " code { (report.test_run_id) } " against " code { (report.base_url) } " (time limit " (report.timeout_ms) " ms) at " (at(report.ran_at)) }
            (part(&Part {
                title: "Opinion",
                verdict: &report.verdict,
                external_user_id: &report.external_user_id,
                amount: &report.amount,
                net_change: report.net_change.as_deref(),
                not_run: None,
                checks: &report.checks,
                cleanup: &report.cleanup,
            }))
            (part(&Part {
                title: "Flight",
                verdict: &flight.verdict,
                external_user_id: &flight.external_user_id,
                amount: &flight.amount,
                net_change: flight.net_change.as_deref(),
                not_run: flight.not_run.as_ref().map(|n| (n.reason.as_str(), n.detail.as_str())),
                checks: &flight.checks,
                cleanup: &flight.cleanup,
            }))
        }
    }
}

fn configuration(view: Option<&WalletAdapterView>) -> Markup {
    html! {
        @match view {
            Some(view) => {
                dl.facts {
                    dt { "Base URL" } dd { code { (view.config.base_url.as_str()) } }
                    dt { "Time limit" } dd { (view.config.timeout.as_millis()) " ms" }
                    dt { "Signing secret" } dd { code { (view.config.secrets.hint()) } }
                    dt { "Previous secret signs until" } dd { (maybe_at(view.previous_secret_expires_at)) }
                    dt { "Configured" } dd { (at(view.config.created_at)) }
                    dt { "Changed" } dd { (at(view.config.updated_at)) }
                }
            }
            None => p.empty { "No wallet adapter is configured yet." },
        }
    }
}

async fn render(state: &ApiState, member: &SignedIn, shown: Shown<'_>) -> Result<Markup, DashboardError> {
    let current = match state.wallet_adapters.wallet_adapter(&member.principal).await {
        Ok(view) => Some(view),
        Err(AppError::NotFound(_)) => None,
        Err(other) => return Err(other.into()),
    };
    let base_url = current
        .as_ref()
        .map(|v| v.config.base_url.as_str().to_owned())
        .unwrap_or_default();
    let timeout = current
        .as_ref()
        .map(|v| v.config.timeout.as_millis().to_string())
        .unwrap_or_default();
    let content = html! {
        @if let Some(secret) = &shown.new_secret {
            section.card.secret role="status" {
                h2 { "New signing secret" }
                p { "Give it to your wallet service now: it is shown this once and cannot be read again." }
                div.copyable {
                    code #new-secret { (secret) }
                    button.small type="button" data-copy="new-secret" { "Copy" }
                }
            }
        }
        section.card {
            h2 { "Configuration" }
            (configuration(current.as_ref()))
            @if member.may(RouteId::WalletAdapterPut) {
                (shown.config_form.banner(CONFIG_FIELDS))
                form method="post" action=(PATH) {
                    (token_field(&member.form_token))
                    (shown.config_form.input("baseUrl", "Base URL", "url", &base_url, Some("The platform calls {baseUrl}/v1/balance and {baseUrl}/v1/mutations.")))
                    (shown.config_form.input("timeoutMs", "Time limit (ms)", "number", &timeout, Some("1000 to 30000; blank for 10000.")))
                    button type="submit" { "Save configuration" }
                }
                @if current.is_some() {
                    p.inline {
                        a.button href=(format!("{PATH}/rotate")) { "Rotate signing secret…" }
                        span.muted { " The previous secret keeps signing for 24 hours." }
                    }
                }
            }
        }
        @if member.may(RouteId::WalletAdapterTest) && current.is_some() {
            section.card {
                h2 { "Full-contract test" }
                p.muted { "Calls your wallet as the platform does: balance, debit, credit, idempotent repeats and refusals, then cleans up. No operation lookup is used." }
                (shown.test_form.banner(TEST_FIELDS))
                form method="post" action=(format!("{PATH}/test")) {
                    (token_field(&member.form_token))
                    div.row {
                        (shown.test_form.input("externalUserId", "Test user (optional)", "text", "", Some("A user your wallet knows; blank for the default.")))
                        (shown.test_form.input("amount", "Amount in minor units (optional)", "text", "", None))
                    }
                    button type="submit" { "Run the test" }
                }
            }
        }
        @if let Some(body) = shown.report { (report(body)) }
    };
    Ok(document(member, PATH, "Wallet adapter", content))
}

/// `GET /dashboard/wallet`.
pub async fn page(state: web::Data<ApiState>, member: SignedIn) -> Result<HttpResponse, DashboardError> {
    member.require(RouteId::WalletAdapterGet)?;
    Ok(respond(
        StatusCode::OK,
        render(&state, &member, Shown::default()).await?,
    ))
}

async fn save(
    state: &ApiState,
    member: &SignedIn,
    form: FormData,
    change: Result<WalletAdapterChange, AppError>,
) -> Result<HttpResponse, DashboardError> {
    let saved = match change {
        Ok(change) => {
            state
                .wallet_adapters
                .set_wallet_adapter(&member.principal, change)
                .await
        }
        Err(error) => Err(error),
    };
    match saved {
        Ok(saved) => {
            let shown = Shown {
                new_secret: saved.new_secret.map(|secret| secret.reveal()),
                ..Shown::default()
            };
            Ok(respond(StatusCode::OK, render(state, member, shown).await?))
        }
        Err(error) => {
            let (config_form, status) = FormView::refused(form, error.into())?;
            let shown = Shown {
                config_form,
                ..Shown::default()
            };
            Ok(respond(status, render(state, member, shown).await?))
        }
    }
}

/// `POST /dashboard/wallet`: sets the address and time limit (the first save makes the
/// signing secret, shown once).
pub async fn configure(
    state: web::Data<ApiState>,
    member: SignedIn,
    body: Bytes,
) -> Result<HttpResponse, DashboardError> {
    member.require(RouteId::WalletAdapterPut)?;
    let form = FormData::parse(&body);
    member.check_form(&state, &form)?;
    let change = form
        .number("timeoutMs", "timeoutMs")
        .map(|timeout_ms| WalletAdapterChange {
            base_url: form.text("baseUrl").trim().to_owned(),
            timeout_ms,
            rotate_secret: false,
        });
    save(&state, &member, form, change).await
}

/// `GET /dashboard/wallet/rotate`: asks before rotating the signing secret.
pub async fn confirm_rotate(state: web::Data<ApiState>, member: SignedIn) -> Result<HttpResponse, DashboardError> {
    member.require(RouteId::WalletAdapterPut)?;
    let current = state.wallet_adapters.wallet_adapter(&member.principal).await?;
    let confirmation = Confirmation {
        section: PATH,
        question: format!("Rotate the signing secret of {}?", current.config.base_url.as_str()),
        consequence: "A new secret, shown once, signs every call to your wallet from now on; the previous one keeps signing for 24 hours.",
        action: format!("{PATH}/rotate"),
        confirm: "Rotate signing secret",
        cancel: PATH.to_owned(),
    };
    Ok(respond(StatusCode::OK, confirmation.page(&member, html! {})))
}

/// `POST /dashboard/wallet/rotate`: the confirmed rotation; a new signing secret for the
/// same address, shown once.
pub async fn rotate(state: web::Data<ApiState>, member: SignedIn, body: Bytes) -> Result<HttpResponse, DashboardError> {
    member.require(RouteId::WalletAdapterPut)?;
    let form = FormData::parse(&body);
    member.check_form(&state, &form)?;
    let current = state.wallet_adapters.wallet_adapter(&member.principal).await?;
    let change = WalletAdapterChange {
        base_url: current.config.base_url.as_str().to_owned(),
        timeout_ms: Some(i64::from(current.config.timeout.as_millis())),
        rotate_secret: true,
    };
    save(&state, &member, FormData::default(), Ok(change)).await
}

/// `POST /dashboard/wallet/test`: runs the full-contract test and shows its report.
pub async fn test(state: web::Data<ApiState>, member: SignedIn, body: Bytes) -> Result<HttpResponse, DashboardError> {
    member.require(RouteId::WalletAdapterTest)?;
    let form = FormData::parse(&body);
    member.check_form(&state, &form)?;
    let request = form
        .optional("amount")
        .map(|text| minor_units("amount", &text))
        .transpose()
        .map(|amount| WalletTestRequest {
            external_user_id: form.optional("externalUserId"),
            amount,
            flight_external_user_id: None,
            flight_amount: None,
        });
    let ran = match request {
        Ok(request) => state
            .wallet_test
            .run(&member.principal, request)
            .await
            .map_err(DashboardError::from),
        Err(error) => Err(DashboardError::from(error)),
    };
    match ran {
        Ok(ran) => {
            let body = WalletTestReportBody::from(ran);
            let shown = Shown {
                report: Some(&body),
                ..Shown::default()
            };
            Ok(respond(StatusCode::OK, render(&state, &member, shown).await?))
        }
        Err(error) => {
            let (test_form, status) = FormView::refused(form, error)?;
            let shown = Shown {
                test_form,
                ..Shown::default()
            };
            Ok(respond(status, render(&state, &member, shown).await?))
        }
    }
}
