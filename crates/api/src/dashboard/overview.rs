//! The overview: the operator's trading and integration at a glance, each panel shown
//! only to a member whose scopes pass the API route it stands for (trades, balance
//! operations, wallet adapter, webhook endpoints), through the same use cases.

use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use maud::{Markup, html};
use opinion_access::RouteId;
use opinion_app::error::AppError;
use opinion_core::{PageLimit, PageRequest};

use crate::dashboard::chart::volume_chart;
use crate::dashboard::error::DashboardError;
use crate::dashboard::format::{amount, at};
use crate::dashboard::layout::document;
use crate::dashboard::page::html as respond;
use crate::dashboard::session::SignedIn;
use crate::state::ApiState;

/// Days the chart covers.
const CHART_DAYS: u16 = 14;

async fn trading_panels(state: &ApiState, member: &SignedIn) -> Result<Markup, DashboardError> {
    let activity = state.reads.activity(member.principal.operator_id, CHART_DAYS).await?;
    let today = activity.today().copied();
    let (trades, volume, players) = today.map_or((0, 0, 0), |d| (d.trades, d.volume, d.players));
    let reviews = member.may(RouteId::BalanceOperationsList);
    Ok(html! {
        div.panels {
            section.panel { h2 { "Trades today" } p.figure { (trades) } p.muted { "executed, UTC day" } }
            section.panel { h2 { "Volume today" } p.figure { (amount(volume, activity.currency)) } }
            section.panel { h2 { "Players today" } p.figure { (players) } p.muted { "who traded" } }
            @if reviews {
                section.panel {
                    h2 { "Open manual reviews" }
                    p.figure { (activity.manual_reviews_open) }
                    p { a href="/dashboard/balance-operations?state=manual_review" { "Wallet operations in review →" } }
                }
            }
        }
        section.card {
            h2 { "Executed volume, last " (CHART_DAYS) " days (UTC)" }
            (volume_chart(&activity.days, activity.currency))
        }
    })
}

async fn wallet_panel(state: &ApiState, member: &SignedIn) -> Result<Markup, DashboardError> {
    let configured = match state.wallet_adapters.wallet_adapter(&member.principal).await {
        Ok(view) => Some(view),
        Err(AppError::NotFound(_)) => None,
        Err(other) => return Err(other.into()),
    };
    Ok(html! {
        section.panel {
            h2 { "Wallet adapter" }
            @match configured {
                Some(view) => {
                    p { span.badge.good { "configured" } }
                    p { code { (view.config.base_url.as_str()) } }
                    p.muted { "Changed " (at(view.config.updated_at)) }
                }
                None => {
                    p { span.badge.warn { "not configured" } }
                    p.muted { "Players cannot trade until the platform can reach your wallet." }
                }
            }
            p { a href="/dashboard/wallet" { "Configure and test →" } }
        }
    })
}

async fn webhook_panel(state: &ApiState, member: &SignedIn) -> Result<Markup, DashboardError> {
    let page = PageRequest {
        limit: PageLimit::new(u32::from(PageLimit::MAX)).unwrap_or_default(),
        after: None,
    };
    let endpoints = state.webhooks.list_endpoints(&member.principal, page).await?;
    let disabled = endpoints.items.iter().filter(|e| !e.enabled).count();
    let failing = endpoints
        .items
        .iter()
        .filter(|e| e.enabled && e.failing_since.is_some())
        .count();
    let healthy = endpoints.items.len() - disabled - failing;
    Ok(html! {
        section.panel {
            h2 { "Webhooks" }
            @if endpoints.items.is_empty() {
                p { span.badge.warn { "no endpoint" } }
                p.muted { "Register an endpoint to receive trade, redemption and session events." }
            } @else {
                p {
                    span.badge.good { (healthy) " healthy" } " "
                    @if failing > 0 { span.badge.warn { (failing) " failing" } " " }
                    @if disabled > 0 { span.badge.bad { (disabled) " disabled" } }
                }
            }
            p { a href="/dashboard/webhooks" { "Endpoints →" } " " a href="/dashboard/deliveries?status=dead_letter" { "Dead letters →" } }
        }
    })
}

/// `GET /dashboard`.
pub async fn page(state: web::Data<ApiState>, member: SignedIn) -> Result<HttpResponse, DashboardError> {
    let wallet = if member.may(RouteId::WalletAdapterGet) {
        Some(wallet_panel(&state, &member).await?)
    } else {
        None
    };
    let webhooks = if member.may(RouteId::WebhookEndpointsList) {
        Some(webhook_panel(&state, &member).await?)
    } else {
        None
    };
    let trading = if member.may(RouteId::TradesList) {
        Some(trading_panels(&state, &member).await?)
    } else {
        None
    };
    let content = html! {
        @if let Some(panels) = trading { (panels) }
        div.panels {
            @if let Some(panel) = wallet { (panel) }
            @if let Some(panel) = webhooks { (panel) }
        }
    };
    Ok(respond(
        StatusCode::OK,
        document(&member, "/dashboard", "Overview", content),
    ))
}
