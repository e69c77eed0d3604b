//! Balance operations: every wallet call the platform made for the operator's players
//! (flow, state, idempotency key, remote reference, the wallet's answer), with the API's
//! filters and keyset pages; what an operator reconciles with. Mirrors
//! `GET /api/operator/balance-operations` and calls the same use case.

use actix_web::{HttpResponse, web};
use maud::html;
use opinion_access::RouteId;
use opinion_app::opinion::reads::BalanceOperationQuery;
use opinion_wallet::{OperationState, WalletFlow};

use crate::dashboard::error::DashboardError;
use crate::dashboard::format::{amount, at};
use crate::dashboard::listing::{Filter, ListQuery, Listing};
use crate::dashboard::session::SignedIn;
use crate::dashboard::users::player_link;
use crate::state::ApiState;

const PATH: &str = "/dashboard/balance-operations";

/// `GET /dashboard/balance-operations`.
pub async fn page(
    state: web::Data<ApiState>,
    member: SignedIn,
    query: web::Query<Vec<(String, String)>>,
) -> Result<HttpResponse, DashboardError> {
    member.require(RouteId::BalanceOperationsList)?;
    let query = ListQuery::of(query);
    let cursor = query.cursor();
    let filters = vec![
        Filter::Text("externalUserId", "Player"),
        Filter::Text("marketId", "Market (mkt_…)"),
        Filter::Choice("flow", "Flow", WalletFlow::ALL.iter().map(|f| f.as_str()).collect()),
        Filter::Choice(
            "state",
            "State",
            OperationState::ALL.iter().map(|s| s.as_str()).collect(),
        ),
        Filter::Day("from", "From (UTC day)"),
        Filter::Day("to", "Before (UTC day)"),
    ];
    let asked = BalanceOperationQuery {
        external_user_id: query.value("externalUserId"),
        market_id: query.value("marketId"),
        flow: query.value("flow"),
        state: query.value("state"),
        from: query.instant("from"),
        to: query.instant("to"),
        include_steps: false,
    };
    let result = async {
        Ok::<_, DashboardError>(
            state
                .reads
                .list_balance_operations(member.principal.operator_id, &asked, cursor.page()?)
                .await?,
        )
    };
    let listing = Listing::new(PATH, &filters, &query);
    listing.page(&member, "Balance operations", result.await, |items| {
        html! {
            @if items.is_empty() { p.empty { "No balance operation matches." } } @else {
                div.scroll { table {
                    thead { tr { th { "Operation" } th { "Player" } th { "Flow" } th.num { "Amount" } th { "State" } th { "Idempotency key" } th { "Wallet's answer" } th { "Created" } } }
                    tbody { @for item in items {
                        @let operation = &item.operation;
                        tr {
                            td { code { (operation.id) } }
                            td { a href=(player_link(&operation.external_user_id)) { (operation.external_user_id) } }
                            td { (operation.flow.as_str()) br; span.muted { (operation.reason.as_str()) } }
                            td.num { (amount(operation.amount, operation.currency)) }
                            td {
                                span class=(format!("badge {}", match operation.state { OperationState::ManualReview => "bad", s if s.is_terminal() => "good", _ => "warn" })) { (operation.state.as_str()) }
                                br; span.muted { (operation.attempts) " attempt(s)" }
                            }
                            td { code { (operation.idempotency_key.as_str()) } }
                            td {
                                @if let Some(code) = operation.http_status { strong { (code) } " " }
                                @if let Some(reference) = &operation.remote_reference { "ref " code { (reference) } }
                                @if let Some(detail) = &operation.detail { br; span.muted { (detail) } }
                            }
                            td { (at(operation.created_at)) }
                        }
                    } }
                } }
            }
        }
    })
}
