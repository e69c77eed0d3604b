//! Players: the operator's players with the API's filters and keyset pages, and one
//! player's page with its portfolio (positions valued at the pool's price) and trade
//! history and a portfolio link to hand out (see `portfolio_link.rs`). Mirrors
//! `GET /api/operator/users`, `GET …/users/portfolio` and the trades list filtered by
//! player, and calls the same use cases.

use actix_web::{HttpResponse, web};
use maud::html;
use opinion_access::RouteId;
use opinion_app::opinion::reads::{TradeQuery, UserQuery};
use opinion_market::Outcome;

use crate::dashboard::error::DashboardError;
use crate::dashboard::format::{amount, at};
use crate::dashboard::layout::document;
use crate::dashboard::listing::{Filter, ListQuery, Listing};
use crate::dashboard::page::html as respond;
use crate::dashboard::paging::pager;
use crate::dashboard::portfolio_link::{self, LinkView};
use crate::dashboard::session::SignedIn;
use crate::dashboard::trades;
use crate::state::ApiState;

const PATH: &str = "/dashboard/users";
const PLAYER_PATH: &str = "/dashboard/users/player";

/// The address of a player's page (the operator's id of the player, URL-encoded).
pub fn player_link(external_user_id: &str) -> String {
    let query = url::form_urlencoded::Serializer::new(String::new())
        .append_pair("externalUserId", external_user_id)
        .finish();
    format!("{PLAYER_PATH}?{query}")
}

/// `GET /dashboard/users`.
pub async fn page(
    state: web::Data<ApiState>,
    member: SignedIn,
    query: web::Query<Vec<(String, String)>>,
) -> Result<HttpResponse, DashboardError> {
    member.require(RouteId::UsersList)?;
    let query = ListQuery::of(query);
    let cursor = query.cursor();
    let filters = vec![
        Filter::Text("externalUserId", "Player"),
        Filter::Day("from", "First launched from (UTC day)"),
        Filter::Day("to", "Before (UTC day)"),
    ];
    let asked = UserQuery {
        external_user_id: query.value("externalUserId"),
        from: query.instant("from"),
        to: query.instant("to"),
    };
    let result = async {
        Ok::<_, DashboardError>(
            state
                .reads
                .list_users(member.principal.operator_id, &asked, cursor.page()?)
                .await?,
        )
    };
    let listing = Listing::new(PATH, &filters, &query);
    listing.page(&member, "Players", result.await, |items| {
        html! {
            @if items.is_empty() { p.empty { "No player matches." } } @else {
                div.scroll { table {
                    thead { tr { th { "Player" } th { "Name" } th { "Language" } th { "First launched" } th { "Last launched" } } }
                    tbody { @for user in items { tr {
                        td { a href=(player_link(&user.external_user_id)) { (user.external_user_id) } }
                        td { (user.display_name.as_deref().unwrap_or("—")) }
                        td { (user.language.as_deref().unwrap_or("—")) }
                        td { (at(user.created_at)) }
                        td { (at(user.last_launched_at)) }
                    } } }
                } }
            }
        }
    })
}

/// `GET /dashboard/users/player?externalUserId=…`: the portfolio and the trade history.
pub async fn player(
    state: web::Data<ApiState>,
    member: SignedIn,
    query: web::Query<Vec<(String, String)>>,
) -> Result<HttpResponse, DashboardError> {
    member.require(RouteId::UserPortfolio)?;
    render_player(&state, &member, &ListQuery::of(query), &LinkView::default()).await
}

/// The player's page for `query`, with the portfolio link form as `link` shows it.
pub async fn render_player(
    state: &ApiState,
    member: &SignedIn,
    query: &ListQuery,
    link: &LinkView,
) -> Result<HttpResponse, DashboardError> {
    let external = query.0.text("externalUserId");
    let portfolio = state.reads.portfolio(member.principal.operator_id, &external).await?;
    let history = if member.may(RouteId::TradesList) {
        let cursor = query.cursor();
        let asked = TradeQuery {
            external_user_id: Some(portfolio.user.external_user_id.clone()),
            ..TradeQuery::default()
        };
        let found = state
            .reads
            .list_trades(member.principal.operator_id, &asked, cursor.page()?)
            .await?;
        Some((found, cursor))
    } else {
        None
    };
    let currency = portfolio.currency;
    let totals = &portfolio.totals;
    let user = &portfolio.user;
    let content = html! {
        p { a href=(PATH) { "← All players" } }
        (portfolio_link::issued(link))
        dl.facts {
            dt { "Player" } dd { code { (user.external_user_id) } }
            dt { "Name" } dd { (user.display_name.as_deref().unwrap_or("—")) }
            dt { "First launched" } dd { (at(user.created_at)) }
            dt { "Last launched" } dd { (at(user.last_launched_at)) }
        }
        div.panels {
            section.panel { h2 { "Value" } p.figure { (amount(totals.value, currency)) } }
            section.panel { h2 { "Cost basis" } p.figure { (amount(totals.cost_basis, currency)) } }
            section.panel { h2 { "Realised P&L" } p.figure { (amount(totals.realized_pnl, currency)) } }
            section.panel { h2 { "Unrealised P&L" } p.figure { (amount(totals.unrealized_pnl, currency)) } }
        }
        section {
            h2 { "Positions" }
            @if portfolio.lines.is_empty() { p.empty { "No positions." } } @else {
                div.scroll { table {
                    thead { tr { th { "Market" } th { "Status" } th.num { "YES shares" } th.num { "NO shares" } th { "YES price" } th.num { "Value" } th.num { "Unrealised" } } }
                    tbody { @for line in &portfolio.lines { tr {
                        td { (line.market.market.question) br; code { (line.market.market.id) } }
                        td { (line.market.market.status.as_str()) }
                        td.num { (line.position.position.holding(Outcome::Yes).shares) }
                        td.num { (line.position.position.holding(Outcome::No).shares) }
                        td { (line.market.pool.price(Outcome::Yes)) }
                        td.num { (amount(line.valuation.value, currency)) }
                        td.num { (amount(line.valuation.unrealized_pnl, currency)) }
                    } } }
                } }
            }
        }
        (portfolio_link::form(member, &user.external_user_id, link))
        @if let Some((found, cursor)) = history {
            section {
                h2 { "Trade history" }
                (trades::table(&found.items))
                (pager(PLAYER_PATH, &found, &[("externalUserId", user.external_user_id.clone())], cursor.cursor.is_some()))
            }
        }
    };
    Ok(respond(link.status(), document(member, PATH, "Player", content)))
}
