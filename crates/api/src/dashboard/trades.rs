//! Trades: the operator's trades with the API's filters (player, market, status, side,
//! creation days) and keyset pages. Mirrors `GET /api/operator/trades` and calls the same
//! use case.

use actix_web::{HttpResponse, web};
use maud::{Markup, html};
use opinion_access::RouteId;
use opinion_app::model::Trade;
use opinion_app::opinion::reads::TradeQuery;
use opinion_market::TradeStatus;

use crate::dashboard::error::DashboardError;
use crate::dashboard::format::{amount, at};
use crate::dashboard::listing::{Filter, ListQuery, Listing};
use crate::dashboard::session::SignedIn;
use crate::dashboard::users::player_link;
use crate::state::ApiState;

const PATH: &str = "/dashboard/trades";

fn filters() -> Vec<Filter> {
    vec![
        Filter::Text("externalUserId", "Player"),
        Filter::Text("marketId", "Market (mkt_…)"),
        Filter::Choice(
            "status",
            "Status",
            TradeStatus::ALL.iter().map(|s| s.as_str()).collect(),
        ),
        Filter::Choice("side", "Side", vec!["buy", "sell"]),
        Filter::Day("from", "From (UTC day)"),
        Filter::Day("to", "Before (UTC day)"),
    ]
}

/// The rows of a list of trades (also the trade history of a player's page).
pub fn table(trades: &[Trade]) -> Markup {
    html! {
        @if trades.is_empty() {
            p.empty { "No trade matches." }
        } @else {
            div.scroll {
                table {
                    thead { tr { th { "Trade" } th { "Player" } th { "Market" } th { "Side" } th.num { "Shares" } th.num { "Amount" } th { "Price" } th { "Status" } th { "Created" } } }
                    tbody {
                        @for trade in trades {
                            tr {
                                td { code { (trade.id) } }
                                td { a href=(player_link(&trade.external_user_id)) { (trade.external_user_id) } }
                                td { code { (trade.market_id) } }
                                td { (trade.side.as_str()) " " (trade.outcome.as_str()) }
                                td.num { (trade.shares) }
                                td.num { (amount(trade.amount, trade.currency)) }
                                td { (trade.price_before) " → " (trade.price_after) }
                                td {
                                    span class=(format!("badge {}", match trade.status { TradeStatus::Executed => "good", TradeStatus::Pending => "warn", _ => "bad" })) { (trade.status.as_str()) }
                                    @if let Some(reason) = &trade.failure_reason { br; span.muted { (reason) } }
                                }
                                td { (at(trade.created_at)) }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// `GET /dashboard/trades`.
pub async fn page(
    state: web::Data<ApiState>,
    member: SignedIn,
    query: web::Query<Vec<(String, String)>>,
) -> Result<HttpResponse, DashboardError> {
    member.require(RouteId::TradesList)?;
    let query = ListQuery::of(query);
    let cursor = query.cursor();
    let asked = TradeQuery {
        external_user_id: query.value("externalUserId"),
        market_id: query.value("marketId"),
        status: query.value("status"),
        side: query.value("side"),
        from: query.instant("from"),
        to: query.instant("to"),
    };
    let result = async {
        Ok::<_, DashboardError>(
            state
                .reads
                .list_trades(member.principal.operator_id, &asked, cursor.page()?)
                .await?,
        )
    };
    let filters = filters();
    let listing = Listing::new(PATH, &filters, &query);
    listing.page(&member, "Trades", result.await, table)
}
