//! The flight product's pages: its overview, flights, tickets, terms, settlement
//! statements (each verified as its operator would verify it), payments and corrections.
//! Each mirrors its `/api/operator/flight/…` route: shown and served only to a member
//! passing that route's requirement, through the same use case. They are shown only for
//! an operator that has the product (platform staff enabled it once); a member of one
//! that does not is told so on a page (the API's reads answer such an operator with
//! empty data, not a refusal). Flight money is IDR, whole rupiah, whatever the operator's
//! Opinion currency.

pub mod corrections;
pub mod flights;
pub mod overview;
pub mod payments;
pub mod statements;
pub mod terms;
pub mod tickets;

use actix_web::HttpResponse;
use actix_web::http::StatusCode;
use maud::{Markup, html};
use opinion_access::RouteId;
use opinion_wallet::Currency;

use crate::dashboard::error::DashboardError;
use crate::dashboard::format::amount;
use crate::dashboard::layout::document;
use crate::dashboard::page::html as respond;
use crate::dashboard::session::SignedIn;

/// Whole rupiah as the dashboard writes money: `1,500,000 IDR`.
pub fn rupiah(value: i64) -> String {
    amount(value, Currency::IDR)
}

/// A share in basis points as a percentage: `15.00% (1500 bps)`.
pub fn share(bps: u16) -> String {
    format!("{}.{:02}% ({bps} bps)", bps / 100, bps % 100)
}

/// A direction of money between the operator and the platform, in words.
pub fn direction(wire: &str) -> &'static str {
    match wire {
        "operator_to_platform" => "you pay the platform",
        "platform_to_operator" => "the platform pays you",
        _ => "nothing due",
    }
}

/// The page of a member allowed to see `route` on an operator without flight, or `None`
/// to go on with the page: refused with the 403 page first when the member may not.
pub fn gate(member: &SignedIn, route: RouteId, current: &str) -> Result<Option<HttpResponse>, DashboardError> {
    member.require(route)?;
    if member.flight {
        return Ok(None);
    }
    let content = html! {
        section.card {
            p { "Flight is not enabled for your operator, so there is nothing to show here yet." }
            p.muted {
                "Platform staff enable it once your wallet adapter has passed the flight section of the wallet test (IDR) and your flight terms are set. "
                "Until then players cannot be launched into flight."
            }
            p { a href="/dashboard" { "Back to the overview" } }
        }
    };
    Ok(Some(respond(
        StatusCode::OK,
        document(member, current, "Flight is not enabled", content),
    )))
}

/// A phase or status as a coloured badge: `good`, `warn` or `bad` by what it means.
pub fn badge(text: &str) -> Markup {
    let tone = match text {
        "cashed_out" | "crashed" | "finalized" | "refunded" | "verified" => "good",
        "pending" | "active" | "boarding" | "in_flight" | "open" | "refunding" | "review" => "warn",
        _ => "bad",
    };
    html! { span class=(format!("badge {tone}")) { (text) } }
}
