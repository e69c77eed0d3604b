//! One trade and its wallet operations as a page.

use maud::{Markup, html};
use opinion_app::opinion::reads::TradeDetail;

use super::format::{maybe_time, money, time, units};

/// The page of one trade.
pub fn trade_page(detail: &TradeDetail) -> (String, Markup) {
    let trade = &detail.trade;
    let currency = trade.currency.as_str();
    let title = format!("Trade {}", trade.id);
    let content = html! {
        dl {
            dt { "Market" } dd { (detail.market.market.question) br; code { (trade.market_id) } }
            dt { "Player" } dd { code { (trade.external_user_id) } }
            dt { "Order" } dd { (trade.side.as_str()) " " (trade.outcome.as_str()) " by " (trade.order_kind.as_str())
                " (client order " code { (trade.client_order_id) } ")" }
            dt { "Shares" } dd { (units(trade.shares, currency)) }
            dt { "Amount" } dd { (money(trade.amount, currency)) " (fee " (money(trade.fee, currency)) " included)" }
            dt { "Price" } dd { (trade.price_before) " → " (trade.price_after) }
            dt { "Status" } dd { (trade.status.as_str())
                @if let Some(reason) = &trade.failure_reason { " (" (reason) ")" } }
            dt { "Created" } dd { (time(trade.created_at)) }
            dt { "Settled" } dd { (maybe_time(trade.settled_at)) }
        }
        h2 { "Wallet operations" }
        @if detail.operations.is_empty() {
            p.empty { "No wallet operation was made for this trade." }
        } @else {
            table {
                thead { tr {
                    th { "Flow" } th { "State" } th.num { "Amount" } th { "Idempotency key" }
                    th { "remote_reference" } th.num { "HTTP" } th { "Detail" } th { "Created" } th { "Answered" } th { "Steps" }
                } }
                tbody {
                    @for entry in &detail.operations {
                        @let operation = &entry.operation;
                        tr {
                            td { (operation.flow.as_str()) }
                            td { (operation.state.as_str()) }
                            td.num { (money(operation.amount, operation.currency.as_str())) }
                            td { code { (operation.idempotency_key) } }
                            td { code { (operation.remote_reference.as_deref().unwrap_or("—")) } }
                            td.num { (operation.http_status.map(|s| s.to_string()).unwrap_or_else(|| "—".into())) }
                            td { (operation.detail.as_deref().unwrap_or("—")) }
                            td { (time(operation.created_at)) }
                            td { (maybe_time(operation.answered_at)) }
                            td {
                                @for step in entry.steps.iter().flatten() {
                                    (time(step.at)) ": " (step.state.as_str())
                                    @if let Some(status) = step.http_status { " (" (status) ")" }
                                    br;
                                }
                            }
                        }
                    }
                }
            }
        }
    };
    (title, content)
}
