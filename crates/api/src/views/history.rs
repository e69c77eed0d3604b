//! One player's trades in one market as a page, with the market and their position.

use maud::{Markup, html};
use opinion_app::opinion::reads::TradeHistory;
use opinion_market::{Outcome, value_position};

use super::format::{maybe_time, money, percent, time, units};

/// The page of a player's trade history in one market.
pub fn history_page(history: &TradeHistory) -> (String, Markup) {
    let market = &history.market;
    let user = &history.user;
    let title = format!("Trades of {} in one market", user.external_user_id);
    let currency = history.currency.as_str();
    let content = html! {
        dl {
            dt { "Market" } dd { (market.market.question) br; code { (market.market.id) } }
            dt { "Status" } dd { (market.market.status) @if market.hidden() { " (hidden from players)" } }
            dt { "YES price" } dd { (percent(market.pool.price(Outcome::Yes))) }
            dt { "Player" } dd { code { (user.external_user_id) } }
        }
        h2 { "Position" }
        @match &history.position {
            Some(record) => {
                @let position = &record.position;
                @let valuation = value_position(position, &market.pool, market.market.status);
                dl {
                    dt { "YES shares" } dd { (units(position.holding(Outcome::Yes).shares, currency)) }
                    dt { "NO shares" } dd { (units(position.holding(Outcome::No).shares, currency)) }
                    dt { "Cost basis" } dd { (money(valuation.cost_basis, currency)) }
                    dt { "Value (" (valuation.basis.as_str()) ")" } dd { (money(valuation.value, currency)) }
                    dt { "Realized P&L" } dd { (money(position.realized_pnl(), currency)) }
                    dt { "Unrealized P&L" } dd { (money(valuation.unrealized_pnl, currency)) }
                    dt { "Redeemed" } dd { (maybe_time(record.redeemed_at)) }
                }
            }
            None => { p.empty { "No position in this market." } }
        }
        h2 { "Trades" }
        @if history.trades.items.is_empty() {
            p.empty { "No trades in this market." }
        } @else {
            table {
                thead { tr {
                    th { "Created" } th { "Trade" } th { "Order" } th.num { "Shares" } th.num { "Amount" }
                    th.num { "Fee" } th { "Price" } th { "Status" }
                } }
                tbody {
                    @for trade in &history.trades.items {
                        tr {
                            td { (time(trade.created_at)) }
                            td { code { (trade.id) } }
                            td { (trade.side.as_str()) " " (trade.outcome.as_str()) }
                            td.num { (units(trade.shares, currency)) }
                            td.num { (money(trade.amount, currency)) }
                            td.num { (money(trade.fee, currency)) }
                            td { (percent(trade.price_before)) " → " (percent(trade.price_after)) }
                            td { (trade.status.as_str())
                                @if let Some(reason) = &trade.failure_reason { " (" (reason) ")" } }
                        }
                    }
                }
            }
            @if let Some(next) = &history.trades.next {
                p { "Older trades follow: ask for this page again with " code { "cursor=" (next.encode()) } "." }
            }
        }
    };
    (title, content)
}
