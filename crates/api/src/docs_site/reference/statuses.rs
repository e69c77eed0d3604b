//! The status values page: every closed set of values the API and the webhooks carry
//! (states, reasons, flows, kinds), each listed from its domain enum's own list of
//! values, so a value added in the code is on the page.

use std::fmt::Write as _;

use opinion_flight::{FlightPhase, SettlementPeriod, TicketStatus};
use opinion_market::{MarketChoice, OrderKind, RedemptionStatus, TradeStatus, TrendingWindow, VisibilityMode};
use opinion_wallet::{OperationState, ReasonKey, RefusalCode, ReviewReason, WalletFlow};
use opinion_webhook::{AttemptTrigger, DeliveryStatus, DisableReason};

macro_rules! sets {
    ($($what:literal, $where:literal, $values:expr;)+) => {
        /// `(what, where it appears, its values)` for every set.
        fn sets() -> Vec<(&'static str, &'static str, Vec<&'static str>)> {
            vec![$(($what, $where, $values.iter().map(|value| value.as_str()).collect()),)+]
        }
    };
}

sets! {
    "Trade status", "`status` of a trade", TradeStatus::ALL;
    "Order kind", "how a player sized an order", OrderKind::ALL;
    "Redemption status", "`status` of a redemption", RedemptionStatus::ALL;
    "Visibility mode", "the operator's market visibility mode", VisibilityMode::ALL;
    "Market choice", "the per-market visibility switch", MarketChoice::ALL;
    "Trending window", "`window` of the trending list", TrendingWindow::ALL;
    "Wallet operation state", "`status` of a balance operation", OperationState::ALL;
    "Wallet flow", "`flow` of a balance operation and of review events", WalletFlow::ALL;
    "Wallet reason", "`reason` sent to the wallet adapter", ReasonKey::ALL;
    "Wallet refusal code", "`code` of a wallet adapter's refusal", RefusalCode::ALL;
    "Review reason", "`reviewReason` of an operation in manual review", ReviewReason::ALL;
    "Delivery status", "`status` of a webhook delivery", DeliveryStatus::ALL;
    "Attempt trigger", "what started a delivery attempt", AttemptTrigger::ALL;
    "Endpoint disable reason", "`reason` of `mini_app.webhook_endpoint.disabled`", DisableReason::ALL;
    "Flight phase", "`phase` of a flight", FlightPhase::ALL;
    "Ticket status", "`status` of a flight ticket", TicketStatus::ALL;
    "Settlement period", "`settlementPeriod` of flight terms", SettlementPeriod::ALL;
}

/// The page's markdown.
pub fn page() -> String {
    let mut page = String::from(
        "# Status values\n\nEvery closed set of values the API's bodies and the webhook events carry, listed from \
         the code. Values may be added to a set; treat one you do not know as \"other\" rather than failing. \
         What each value means is on the page of its resource: [balance operations and the wallet \
         adapter](/docs/wallet-adapter), [webhook deliveries](/docs/webhooks), [flight tickets](/docs/flight).\n\n\
         | set | where | values |\n|---|---|---|\n",
    );
    for (what, place, values) in sets() {
        let values: Vec<String> = values.iter().map(|value| format!("`{value}`")).collect();
        let _ = writeln!(page, "| {what} | {place} | {} |", values.join(", "));
    }
    page
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_value_of_every_set_is_on_the_page() {
        let page = page();
        for (what, _, values) in sets() {
            let row = page
                .lines()
                .find(|line| line.starts_with(&format!("| {what} |")))
                .expect("a row per set");
            for value in values {
                assert!(row.contains(&format!("`{value}`")), "{what}: {value}");
            }
        }
    }
}
