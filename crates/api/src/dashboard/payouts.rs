//! Resolutions and redemptions: what the operator's players were paid when markets
//! resolved, with the API's filters and keyset pages. Mirrors
//! `GET /api/operator/resolutions` and `GET /api/operator/redemptions` and calls the same
//! use cases.

use actix_web::{HttpResponse, web};
use maud::html;
use opinion_access::RouteId;
use opinion_app::opinion::reads::{RESOLUTIONS, RedemptionQuery, ResolutionQuery};
use opinion_market::RedemptionStatus;

use crate::dashboard::error::DashboardError;
use crate::dashboard::format::{amount, at, maybe_at};
use crate::dashboard::listing::{Filter, ListQuery, Listing};
use crate::dashboard::session::SignedIn;
use crate::dashboard::users::player_link;
use crate::state::ApiState;

const RESOLUTIONS_PATH: &str = "/dashboard/resolutions";
const REDEMPTIONS_PATH: &str = "/dashboard/redemptions";

/// `GET /dashboard/resolutions`.
pub async fn resolutions(
    state: web::Data<ApiState>,
    member: SignedIn,
    query: web::Query<Vec<(String, String)>>,
) -> Result<HttpResponse, DashboardError> {
    member.require(RouteId::ResolutionsList)?;
    let query = ListQuery::of(query);
    let cursor = query.cursor();
    let filters = vec![
        Filter::Text("marketId", "Market (mkt_…)"),
        Filter::Choice(
            "resolution",
            "Resolution",
            RESOLUTIONS.iter().map(|r| r.as_str()).collect(),
        ),
        Filter::Day("from", "From (UTC day)"),
        Filter::Day("to", "Before (UTC day)"),
    ];
    let asked = ResolutionQuery {
        market_id: query.value("marketId"),
        resolution: query.value("resolution"),
        from: query.instant("from"),
        to: query.instant("to"),
    };
    let result = async {
        Ok::<_, DashboardError>(
            state
                .reads
                .list_resolutions(member.principal.operator_id, &asked, cursor.page()?)
                .await?,
        )
    };
    let listing = Listing::new(RESOLUTIONS_PATH, &filters, &query);
    listing.page(&member, "Resolutions", result.await, |items| {
        html! {
            @if items.is_empty() { p.empty { "No resolution matches." } } @else {
                div.scroll { table {
                    thead { tr { th { "Market" } th { "Resolution" } th.num { "Redemptions" } th.num { "Paid out" } th { "Resolved" } } }
                    tbody { @for item in items { tr {
                        td { a href=(format!("{REDEMPTIONS_PATH}?marketId={}", item.market_id)) { code { (item.market_id) } } }
                        td { (item.resolution.as_str()) }
                        td.num { (item.redemption_count) }
                        td.num { (amount(item.payout_total, item.currency)) }
                        td { (at(item.resolved_at)) }
                    } } }
                } }
            }
        }
    })
}

/// `GET /dashboard/redemptions`.
pub async fn redemptions(
    state: web::Data<ApiState>,
    member: SignedIn,
    query: web::Query<Vec<(String, String)>>,
) -> Result<HttpResponse, DashboardError> {
    member.require(RouteId::RedemptionsList)?;
    let query = ListQuery::of(query);
    let cursor = query.cursor();
    let filters = vec![
        Filter::Text("externalUserId", "Player"),
        Filter::Text("marketId", "Market (mkt_…)"),
        Filter::Choice(
            "status",
            "Status",
            RedemptionStatus::ALL.iter().map(|s| s.as_str()).collect(),
        ),
        Filter::Day("from", "From (UTC day)"),
        Filter::Day("to", "Before (UTC day)"),
    ];
    let asked = RedemptionQuery {
        external_user_id: query.value("externalUserId"),
        market_id: query.value("marketId"),
        status: query.value("status"),
        from: query.instant("from"),
        to: query.instant("to"),
    };
    let result = async {
        Ok::<_, DashboardError>(
            state
                .reads
                .list_redemptions(member.principal.operator_id, &asked, cursor.page()?)
                .await?,
        )
    };
    let listing = Listing::new(REDEMPTIONS_PATH, &filters, &query);
    listing.page(&member, "Redemptions", result.await, |items| {
        html! {
            @if items.is_empty() { p.empty { "No redemption matches." } } @else {
                div.scroll { table {
                    thead { tr { th { "Redemption" } th { "Player" } th { "Market" } th { "Resolution" } th.num { "Amount" } th { "Status" } th { "Created" } th { "Paid" } } }
                    tbody { @for item in items { tr {
                        td { code { (item.id) } }
                        td { a href=(player_link(&item.external_user_id)) { (item.external_user_id) } }
                        td { code { (item.market_id) } }
                        td { (item.resolution.as_str()) }
                        td.num { (amount(item.amount, item.currency)) }
                        td { (item.status.as_str()) }
                        td { (at(item.created_at)) }
                        td { (maybe_at(item.paid_at)) }
                    } } }
                } }
            }
        }
    })
}
