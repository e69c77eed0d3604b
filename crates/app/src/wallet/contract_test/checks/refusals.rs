//! The checks that a wallet refuses what it must and answers in time: insufficient funds,
//! an unknown player, bad signatures, each missing required metadata field, and timing
//! (the pass rules are in the table of the parent module).

use std::time::Duration;

use opinion_wallet::{RefusalCode, WalletFlow, required_metadata};
use opinion_webhook::SigningSecret;

use super::{Running, STALE_SECS, TestRun};
use crate::wallet::contract_test::probes::{balance_probe, expect_balance_refusal, expect_refusal};
use crate::wallet::ports::ProbeSigning;

impl TestRun<'_> {
    pub(super) async fn insufficient_check(&mut self) {
        let mut running = Running::new();
        match self.last_known {
            Some(balance) => {
                let debit = self.mutation(WalletFlow::Buy, &self.user.clone(), balance.saturating_add(1).max(1));
                let observed = self
                    .send(
                        &mut running,
                        "POST /v1/mutations (a debit above the balance)",
                        debit.probe(ProbeSigning::Configured, 0),
                    )
                    .await;
                running.check(expect_refusal(&observed, RefusalCode::InsufficientFunds));
            }
            None => running
                .problems
                .push("no balance was told, so no debit above it could be sent".into()),
        }
        self.finish(
            "insufficient_funds",
            "402 insufficient_funds: a definite refusal",
            "refuse a debit above the player's balance with a 4xx naming insufficient_funds; never answer it 200 or 5xx",
            running,
        );
    }

    pub(super) async fn unknown_user_check(&mut self) {
        let mut running = Running::new();
        let stranger = format!(
            "opinion-wallet-test-unknown-{}",
            self.ports.random.ulid().to_string().to_ascii_lowercase()
        );
        let probe = balance_probe(self.ports.random.as_ref(), &stranger, ProbeSigning::Configured);
        let observed = self
            .send(&mut running, "POST /v1/balance (an unknown player)", probe)
            .await;
        running.check(expect_balance_refusal(&observed, &stranger, RefusalCode::UserNotFound));
        let debit = self.mutation(WalletFlow::Buy, &stranger, self.amount);
        let observed = self
            .send(
                &mut running,
                "POST /v1/mutations (an unknown player)",
                debit.probe(ProbeSigning::Configured, 0),
            )
            .await;
        running.check(expect_refusal(&observed, RefusalCode::UserNotFound));
        self.finish(
            "unknown_user",
            "404 user_not_found to the balance read and to the debit",
            "refuse balance reads and mutations of players you do not know with user_not_found",
            running,
        );
    }

    pub(super) async fn signature_checks(&mut self) {
        let fix = "verify the Standard Webhooks signature over the raw body with your signing secret, and the timestamp within five minutes, before anything else; answer 401 invalid_signature";
        let mut running = Running::new();
        let stranger = SigningSecret::from_random_bytes(&self.ports.random.secret_bytes());
        match stranger {
            Ok(secret) => {
                let credit = self.mutation(WalletFlow::Sell, &self.user.clone(), self.amount);
                let observed = self
                    .send(
                        &mut running,
                        "POST /v1/mutations (signed with another secret)",
                        credit.probe(ProbeSigning::With(secret.clone()), 0),
                    )
                    .await;
                running.check(expect_refusal(&observed, RefusalCode::InvalidSignature));
                let probe = balance_probe(self.ports.random.as_ref(), &self.user, ProbeSigning::With(secret));
                let observed = self
                    .send(&mut running, "POST /v1/balance (signed with another secret)", probe)
                    .await;
                running.check(expect_balance_refusal(
                    &observed,
                    &self.user,
                    RefusalCode::InvalidSignature,
                ));
            }
            Err(error) => running.problems.push(error.to_string()),
        }
        self.finish("signature_wrong_secret", "401 invalid_signature to both", fix, running);
        let mut running = Running::new();
        let credit = self.mutation(WalletFlow::Sell, &self.user.clone(), self.amount);
        let observed = self
            .send(
                &mut running,
                "POST /v1/mutations (timestamp ten minutes old)",
                credit.probe(ProbeSigning::Configured, -STALE_SECS),
            )
            .await;
        running.check(expect_refusal(&observed, RefusalCode::InvalidSignature));
        self.finish("signature_stale_timestamp", "401 invalid_signature", fix, running);
    }

    /// For each of `flows` and each of its required keys, a mutation without that key.
    pub(super) async fn metadata_checks(&mut self, flows: &[WalletFlow]) {
        for &flow in flows {
            for key in required_metadata(flow) {
                let mut running = Running::new();
                let mutation = self
                    .mutation(flow, &self.user.clone(), 1)
                    .without_metadata(key.as_str());
                let observed = self
                    .send(
                        &mut running,
                        &format!("POST /v1/mutations ({flow} without {})", key.as_str()),
                        mutation.probe(ProbeSigning::Configured, 0),
                    )
                    .await;
                running.check(expect_refusal(&observed, RefusalCode::InvalidRequest));
                self.finish(
                    &format!("metadata_{flow}_{}", snake(key.as_str())),
                    "400 invalid_request, nothing applied",
                    &format!(
                        "refuse a {flow} mutation lacking `{}` with 400 invalid_request and apply nothing",
                        key.as_str()
                    ),
                    running,
                );
            }
        }
    }

    /// Every answer of the section's checks so far came within half the timeout.
    pub(super) fn timing_check(&mut self, name: &str) {
        let limit = self.target.timeout / 2;
        let slowest = self
            .checks
            .iter()
            .flat_map(|check| check.exchanges.iter())
            .max_by_key(|exchange| exchange.elapsed)
            .cloned();
        let mut running = Running::new();
        if let Some(slowest) = slowest {
            if slowest.elapsed > limit {
                running.problems.push(format!(
                    "the slowest call took {} ms, more than half the {} ms timeout",
                    slowest.elapsed.as_millis(),
                    self.target.timeout.as_millis()
                ));
            }
            running.exchanges.push(slowest);
        }
        let expected = format!(
            "every answer within {} ms, half the configured timeout",
            limit.as_millis()
        );
        let fix = format!(
            "answer every call well within the configured timeout of {} ms: a mutation answered late is ambiguous and goes to manual review",
            self.target.timeout.as_millis()
        );
        self.finish(name, &expected, &fix, running);
        if let Some(check) = self.checks.last_mut() {
            check.elapsed = Duration::ZERO;
        }
    }
}

/// `marketId` → `market_id`.
pub(in crate::wallet::contract_test) fn snake(camel: &str) -> String {
    let mut out = String::new();
    for c in camel.chars() {
        if c.is_ascii_uppercase() {
            out.push('_');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::snake;

    #[test]
    fn metadata_keys_name_checks_in_snake_case() {
        assert_eq!(snake("compensatedOperationId"), "compensated_operation_id");
        assert_eq!(snake("shares"), "shares");
    }
}
