//! The flight section of the wallet test: the flight product's native-IDR reasons, with
//! their own test player, whose wallet account is in IDR. It runs after Opinion's
//! section and apart from it, so an operator whose wallet cannot take IDR yet still sees
//! its Opinion verdict.
//!
//! | check | sends | passes when |
//! |---|---|---|
//! | `flight_balance_read` | a balance read of the flight test player | 200 with a balance in IDR |
//! | `flight_ticket_purchase` | three ticket purchases of one amount each (ticket A with an auto cash-out of 2.00, B and C with `none`) | each applied, with the balance down by the amount |
//! | `flight_repeat_same_key` | ticket A's purchase again (same key and payload), then a balance read | the first answer again and no second effect |
//! | `flight_ticket_payout` | ticket A's payout of 2 × amount at 2.00 | applied, with the balance up by 2 × amount |
//! | `flight_ticket_refund` | ticket C's refund of its stake, naming C's purchase | applied, with the balance up by the amount |
//! | `metadata_<flight flow>_<key>` | for each flight flow and each required key, a mutation of 1 without that key | 400 `invalid_request` |
//! | `flight_timing` | nothing: the section's calls | each complete answer came within half the configured timeout |
//!
//! The section nets to zero like a real round: three stakes in, a winning ticket paid
//! at 2.00, a cancelled one refunded and one lost.

use opinion_wallet::WalletFlow;

use super::{Running, TestRun, accept_flow};
use crate::wallet::contract_test::probes::{TEST_MULTIPLIER, TestMutation, TestTicket};
use crate::wallet::contract_test::report::SectionReport;

impl TestRun<'_> {
    /// Runs every flight check and the section's cleanup.
    pub(in crate::wallet::contract_test) async fn run_flight(mut self) -> SectionReport {
        let start = self
            .balance_check(
                "flight_balance_read",
                "200 {externalUserId, balance, currency} in IDR",
                "answer POST {baseUrl}/v1/balance for the flight test player with its IDR balance; create the flight test player in your wallet in IDR with a balance of at least three flight test amounts",
            )
            .await;
        let factory = self.factory();
        let won = factory.ticket(Some(TEST_MULTIPLIER));
        let lost = factory.ticket(None);
        let refunded = factory.ticket(None);
        let purchases: Vec<TestMutation> = [won, lost, refunded]
            .into_iter()
            .map(|ticket| self.on_ticket(WalletFlow::FlightTicketPurchase, self.amount, ticket))
            .collect();
        let first = self.purchase_check(&purchases).await;
        if let Some(purchase) = purchases.first() {
            self.repeat_check("flight_repeat_same_key", purchase, first.as_ref())
                .await;
        }
        let payout = i64::try_from(TEST_MULTIPLIER.hundredths())
            .map_or(i64::MAX, |hundredths| self.amount.saturating_mul(hundredths) / 100);
        self.flight_credit_check(WalletFlow::FlightTicketPayout, won, payout)
            .await;
        self.flight_credit_check(WalletFlow::FlightTicketRefund, refunded, self.amount)
            .await;
        self.metadata_checks(&WalletFlow::FLIGHT).await;
        self.timing_check("flight_timing");
        let (cleanup, net_change) = self
            .cleanup(start, WalletFlow::FlightTicketRefund, WalletFlow::FlightTicketPurchase)
            .await;
        self.report(cleanup, net_change)
    }

    fn on_ticket(&self, flow: WalletFlow, amount: i64, ticket: TestTicket) -> TestMutation {
        self.factory()
            .on_ticket(flow, &self.user, amount, ticket)
            .unwrap_or_else(|| TestMutation {
                key: String::new(),
                fields: serde_json::Map::new(),
            })
    }

    /// Sends the purchases; the first one's answer, for the repeat.
    async fn purchase_check(&mut self, purchases: &[TestMutation]) -> Option<(String, i64)> {
        let mut running = Running::new();
        let mut first = None;
        for (index, purchase) in purchases.iter().enumerate() {
            let call = format!(
                "POST /v1/mutations (flight_ticket_purchase debit, ticket {})",
                index + 1
            );
            let answer = self.applied(&mut running, &call, purchase, -self.amount).await;
            if index == 0 {
                first = answer;
            }
        }
        self.finish(
            "flight_ticket_purchase",
            "each purchase 200 {status: applied, remoteReference, balance} in IDR, with the balance right after it",
            &accept_flow(WalletFlow::FlightTicketPurchase, self.currency),
            running,
        );
        first
    }

    async fn flight_credit_check(&mut self, flow: WalletFlow, ticket: TestTicket, amount: i64) {
        let mut running = Running::new();
        let credit = self.on_ticket(flow, amount, ticket);
        self.applied(
            &mut running,
            &format!("POST /v1/mutations ({flow} credit)"),
            &credit,
            amount,
        )
        .await;
        self.finish(
            flow.as_str(),
            "applied in IDR, with the balance before it plus the amount",
            &accept_flow(flow, self.currency),
            running,
        );
    }
}
