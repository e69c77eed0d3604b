//! A player's portfolio as a page.

use maud::{Markup, html};
use opinion_app::opinion::reads::Portfolio;
use opinion_market::Outcome;

use super::format::{maybe_time, money, percent, time, units};

/// The page of `portfolio`, generated at `generated_at`.
pub fn portfolio_page(portfolio: &Portfolio, generated_at: time::OffsetDateTime) -> (String, Markup) {
    let currency = portfolio.currency.as_str();
    let user = &portfolio.user;
    let title = format!("Portfolio of {}", user.external_user_id);
    let totals = &portfolio.totals;
    let content = html! {
        dl {
            dt { "Player" } dd { code { (user.external_user_id) } }
            @if let Some(name) = &user.display_name { dt { "Display name" } dd { (name) } }
            dt { "Player id" } dd { code { (user.id) } }
            dt { "First launched" } dd { (time(user.created_at)) }
            dt { "Cost basis" } dd { (money(totals.cost_basis, currency)) }
            dt { "Value" } dd { (money(totals.value, currency)) }
            dt { "Realized P&L" } dd { (money(totals.realized_pnl, currency)) }
            dt { "Unrealized P&L" } dd { (money(totals.unrealized_pnl, currency)) }
        }
        h2 { "Positions" }
        @if portfolio.lines.is_empty() {
            p.empty { "No positions yet." }
        } @else {
            table {
                thead { tr {
                    th { "Market" } th { "Status" } th.num { "YES price" }
                    th.num { "YES shares" } th.num { "NO shares" } th.num { "Cost basis" }
                    th.num { "Value" } th { "Valued at" } th.num { "Realized P&L" } th.num { "Unrealized P&L" }
                } }
                tbody {
                    @for line in &portfolio.lines {
                        @let position = &line.position.position;
                        tr {
                            td { (line.market.market.question) br; code { (line.market.market.id) } }
                            td { (line.market.market.status) @if line.market.hidden() { " (hidden)" } }
                            td.num { (percent(line.market.pool.price(Outcome::Yes))) }
                            td.num { (units(position.holding(Outcome::Yes).shares, currency)) }
                            td.num { (units(position.holding(Outcome::No).shares, currency)) }
                            td.num { (money(line.valuation.cost_basis, currency)) }
                            td.num { (money(line.valuation.value, currency)) }
                            td { (line.valuation.basis.as_str()) }
                            td.num { (money(position.realized_pnl(), currency)) }
                            td.num { (money(line.valuation.unrealized_pnl, currency)) }
                        }
                    }
                }
            }
        }
        p { "Generated " (time(generated_at)) ". Last change: "
            (maybe_time(portfolio.lines.iter().map(|line| line.position.updated_at).max())) "." }
    };
    (title, content)
}
