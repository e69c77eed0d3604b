//! Markets: the operator's markets with its pool's price and its players' visibility,
//! a switch per market, the visibility mode (see `visibility_mode.rs`) and the trending
//! list. Mirrors `GET /api/operator/markets`, `POST …/markets/{id}/visibility` and
//! `GET …/markets/trending`, and calls the same use cases.

use actix_web::web::Bytes;
use actix_web::{HttpResponse, web};
use maud::html;
use opinion_access::RouteId;
use opinion_app::model::OperatorMarket;
use opinion_app::opinion::reads::MarketQuery;
use opinion_core::PageLimit;
use opinion_market::Outcome;

use crate::dashboard::error::DashboardError;
use crate::dashboard::form::{FormData, token_field};
use crate::dashboard::format::at;
use crate::dashboard::layout::document;
use crate::dashboard::listing::{Filter, ListQuery, Listing};
use crate::dashboard::page::{html as respond, see_other};
use crate::dashboard::session::SignedIn;
use crate::dashboard::visibility_mode::{self, ModeView};
use crate::http::extract::path_id;
use crate::state::ApiState;

/// The markets page.
pub const PATH: &str = "/dashboard/markets";
/// Markets the trending panel shows.
const TRENDING: u32 = 5;

/// `GET /dashboard/markets`.
pub async fn page(
    state: web::Data<ApiState>,
    member: SignedIn,
    query: web::Query<Vec<(String, String)>>,
) -> Result<HttpResponse, DashboardError> {
    member.require(RouteId::MarketsList)?;
    render(&state, &member, &ListQuery::of(query), &ModeView::default()).await
}

/// The markets page for `query`, with the visibility mode panel as `mode` shows it.
pub async fn render(
    state: &ApiState,
    member: &SignedIn,
    query: &ListQuery,
    mode: &ModeView,
) -> Result<HttpResponse, DashboardError> {
    let cursor = query.cursor();
    let filters = vec![
        Filter::Choice("status", "Status", vec!["open", "closed", "resolved"]),
        Filter::Choice("visibility", "Visibility", vec!["visible", "hidden"]),
    ];
    let asked = MarketQuery {
        status: query.value("status"),
        visibility: query.value("visibility"),
    };
    let operator = member.principal.operator_id;
    let result = async { Ok::<_, DashboardError>(state.reads.list_markets(operator, &asked, cursor.page()?).await?) };
    let may_switch = member.may(RouteId::MarketVisibilitySet);
    let rows = |items: &[OperatorMarket]| {
        html! {
            @if items.is_empty() { p.empty { "No market matches." } } @else {
                div.scroll { table {
                    thead { tr { th { "Market" } th { "Status" } th { "YES price" } th { "Closes" } th { "Players see it" } } }
                    tbody { @for market in items {
                        @let hidden = market.hidden();
                        tr {
                            td { (market.market.question) br; code { (market.market.id) } }
                            td { (market.market.status.as_str()) }
                            td { (market.pool.price(Outcome::Yes)) }
                            td { (at(market.market.close_at)) }
                            td {
                                @if hidden { span.badge.bad { "hidden" } } @else { span.badge.good { "visible" } }
                                @if may_switch {
                                    form.inline method="post" action=(format!("{PATH}/{}/visibility", market.market.id)) {
                                        (token_field(&member.form_token))
                                        input type="hidden" name="visible" value=(if hidden { "true" } else { "false" });
                                        button.small.secondary type="submit" { @if hidden { "Show" } @else { "Hide" } }
                                    }
                                }
                            }
                        }
                    } }
                } }
            }
        }
    };
    let listing = Listing::new(PATH, &filters, query);
    let (status, list) = listing.section(result.await, rows, html! {})?;
    let status = mode.status().unwrap_or(status);
    let mode_panel = visibility_mode::panel(state, member, mode).await?;
    let limit = PageLimit::new(TRENDING).unwrap_or_default();
    let trending = state.reads.trending_markets(operator, None, limit).await?;
    let content = html! {
        (mode_panel)
        section.card {
            h2 { "Trending over the last " (trending.window.as_str()) }
            @if trending.markets.is_empty() { p.empty { "Nothing traded in the window." } } @else {
                ol { @for ranked in &trending.markets {
                    li { (ranked.market.market.question) " " span.muted { "YES " (ranked.market.pool.price(Outcome::Yes)) } }
                } }
            }
        }
        (list)
    };
    Ok(respond(status, document(member, PATH, "Markets", content)))
}

/// `POST /dashboard/markets/{id}/visibility`: shows or hides the market to the operator's
/// players, then back to the list.
pub async fn set_visibility(
    state: web::Data<ApiState>,
    member: SignedIn,
    id: web::Path<String>,
    body: Bytes,
) -> Result<HttpResponse, DashboardError> {
    member.require(RouteId::MarketVisibilitySet)?;
    let form = FormData::parse(&body);
    member.check_form(&state, &form)?;
    let visible = form.text("visible") == "true";
    state
        .reads
        .set_market_visibility(member.principal.operator_id, path_id(&id)?, visible)
        .await?;
    Ok(see_other(PATH))
}
