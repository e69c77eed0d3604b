//! The checks of the wallet test, in the order they run, each with its pass rule. The
//! Opinion section runs first, with the test player in the operator's currency:
//!
//! | check | sends | passes when |
//! |---|---|---|
//! | `balance_read` | a balance read of the test player | 200 with a balance in the operator's currency |
//! | `debit` | a buy debit of 3 × amount | applied, and the balance answered is the one read minus 3 × amount |
//! | `repeat_same_key` | the same debit again (same key and payload, new `requestedAt`), then a balance read | the first answer again (same `remoteReference` and balance) and no second effect on the balance |
//! | `same_key_other_payload` | the same key with amount + 1, then a balance read | 422 `idempotency_key_reused` and the balance unchanged |
//! | `flow_sell`, `flow_buy_compensation`, `flow_redemption` | a credit of amount of each flow with its full metadata | applied, with the balance before it plus amount |
//! | `insufficient_funds` | a debit of the balance plus one | 402 `insufficient_funds` (any 4xx but 429 with that code) |
//! | `unknown_user` | a balance read and a debit of a player nobody has | `user_not_found` to both |
//! | `signature_wrong_secret` | a credit and a balance read signed with a secret nobody knows | `invalid_signature` to both |
//! | `signature_stale_timestamp` | a credit signed ten minutes in the past | `invalid_signature` |
//! | `metadata_<flow>_<key>` | for each Opinion flow and each required key, a mutation of 1 without that key | 400 `invalid_request` |
//! | `timing` | nothing: the calls above | each complete answer came within half the configured timeout |
//!
//! The flight section follows, with its own test player in IDR; its checks are in
//! `flight.rs`. In each section a balance read after the checks compares the end with
//! the start; a difference (money a wallet applied although it should have refused) is
//! undone by one more mutation of the section's currency.

mod flight;
mod refusals;

#[cfg(test)]
pub(in crate::wallet::contract_test) use refusals::snake;

use opinion_core::{FlightId, MarketId};
use opinion_wallet::{Currency, ReasonKey, RefusalCode, WalletFlow, required_metadata};

use crate::wallet::WalletTestPorts;
use crate::wallet::contract_test::probes::{
    MutationFactory, TestMutation, balance_probe, expect_applied, expect_balance, expect_refusal, received,
};
use crate::wallet::contract_test::report::{CheckResult, Exchange, SectionReport, Verdict};
use crate::wallet::ports::{ProbeObserved, ProbeSigning, WalletAdapterTarget, WalletProbe};

/// How far in the past the stale signature's timestamp is.
const STALE_SECS: i64 = 600;

/// Who and what one section of the test runs with.
pub(super) struct Section {
    /// The section's test player.
    pub(super) user: String,
    /// The test amount.
    pub(super) amount: i64,
    /// The currency of every mutation of the section.
    pub(super) currency: Currency,
}

/// One section of a run of the test.
pub(super) struct TestRun<'a> {
    ports: &'a WalletTestPorts,
    target: WalletAdapterTarget,
    user: String,
    amount: i64,
    currency: Currency,
    market: MarketId,
    flight: FlightId,
    checks: Vec<CheckResult>,
    /// The test player's balance as last told by the wallet.
    last_known: Option<i64>,
}

/// The calls of one check and what they proved.
struct Running {
    exchanges: Vec<Exchange>,
    problems: Vec<String>,
}

impl Running {
    fn new() -> Self {
        Self {
            exchanges: Vec::new(),
            problems: Vec::new(),
        }
    }

    fn check(&mut self, result: Result<(), String>) {
        if let Err(problem) = result {
            self.problems.push(problem);
        }
    }
}

impl<'a> TestRun<'a> {
    pub(super) fn new(ports: &'a WalletTestPorts, target: WalletAdapterTarget, section: Section) -> Self {
        Self {
            market: MarketId::from_ulid(ports.random.ulid()),
            flight: FlightId::from_ulid(ports.random.ulid()),
            ports,
            target,
            user: section.user,
            amount: section.amount,
            currency: section.currency,
            checks: Vec::new(),
            last_known: None,
        }
    }

    fn factory(&self) -> MutationFactory<'_> {
        MutationFactory {
            random: self.ports.random.as_ref(),
            currency: self.currency,
            market: self.market,
            flight: self.flight,
        }
    }

    fn mutation(&self, flow: WalletFlow, user: &str, amount: i64) -> TestMutation {
        self.factory().of(flow, user, amount).unwrap_or_else(|| TestMutation {
            key: String::new(),
            fields: serde_json::Map::new(),
        })
    }

    async fn send(&self, running: &mut Running, call: &str, probe: WalletProbe) -> ProbeObserved {
        let outcome = self.ports.wallet.probe(&self.target, &probe).await;
        running.exchanges.push(Exchange {
            call: call.to_owned(),
            idempotency_key: probe.idempotency_key.clone(),
            sent: outcome.sent_body,
            received: received(&outcome.observed),
            elapsed: outcome.elapsed,
        });
        outcome.observed
    }

    async fn read_balance(&mut self, running: &mut Running) -> Result<i64, String> {
        let probe = balance_probe(self.ports.random.as_ref(), &self.user, ProbeSigning::Configured);
        let observed = self.send(running, "POST /v1/balance", probe).await;
        let (balance, currency) = expect_balance(&observed, &self.user)?;
        self.last_known = Some(balance);
        if currency != self.currency {
            return Err(format!(
                "the balance is in {currency}, this part of the test moves {}",
                self.currency
            ));
        }
        Ok(balance)
    }

    fn finish(&mut self, name: &str, expected: &str, fix: &str, running: Running) {
        let passed = running.problems.is_empty();
        self.checks.push(CheckResult {
            name: name.to_owned(),
            verdict: if passed { Verdict::Passed } else { Verdict::Failed },
            expected: expected.to_owned(),
            elapsed: running.exchanges.iter().map(|e| e.elapsed).sum(),
            exchanges: running.exchanges,
            fix: (!passed).then(|| fix.to_owned()),
            problem: (!passed).then(|| running.problems.join("; ")),
        });
    }

    /// Sends an applied-expected mutation and checks the answered balance against the
    /// last known one moved by `delta`.
    async fn applied(
        &mut self,
        running: &mut Running,
        call: &str,
        mutation: &TestMutation,
        delta: i64,
    ) -> Option<(String, i64)> {
        let before = self.last_known;
        let observed = self
            .send(running, call, mutation.probe(ProbeSigning::Configured, 0))
            .await;
        match expect_applied(&observed) {
            Ok((reference, balance)) => {
                if let Some(before) = before
                    && balance != before + delta
                {
                    running.problems.push(format!(
                        "the answered balance is {balance}, expected {}",
                        before + delta
                    ));
                }
                self.last_known = Some(balance);
                Some((reference, balance))
            }
            Err(problem) => {
                running.problems.push(problem);
                None
            }
        }
    }

    /// Runs every Opinion check and the cleanup.
    pub(super) async fn run_opinion(mut self) -> SectionReport {
        let start = self
            .balance_check(
                "balance_read",
                "200 {externalUserId, balance, currency} in the operator's currency",
                "answer POST {baseUrl}/v1/balance for the test player with its balance; create the test player in your wallet with a balance of at least three test amounts",
            )
            .await;
        let debit = self.mutation(WalletFlow::Buy, &self.user.clone(), 3 * self.amount);
        let first = self.debit_check(&debit).await;
        self.repeat_check("repeat_same_key", &debit, first.as_ref()).await;
        self.reuse_check(&debit).await;
        for flow in [WalletFlow::Sell, WalletFlow::BuyCompensation, WalletFlow::Redemption] {
            self.credit_check(flow).await;
        }
        self.insufficient_check().await;
        self.unknown_user_check().await;
        self.signature_checks().await;
        self.metadata_checks(&WalletFlow::OPINION).await;
        self.timing_check("timing");
        let (cleanup, net_change) = self.cleanup(start, WalletFlow::Sell, WalletFlow::Buy).await;
        self.report(cleanup, net_change)
    }

    /// The section's report, once its checks and cleanup ran.
    fn report(self, cleanup: Vec<Exchange>, net_change: Option<i64>) -> SectionReport {
        SectionReport {
            passed: self.checks.iter().all(|check| check.verdict == Verdict::Passed),
            external_user_id: self.user,
            amount: self.amount,
            currency: self.currency,
            checks: self.checks,
            cleanup,
            net_change,
            not_run: None,
        }
    }

    async fn balance_check(&mut self, name: &str, expected: &str, fix: &str) -> Option<i64> {
        let mut running = Running::new();
        let result = self.read_balance(&mut running).await;
        let start = result.as_ref().ok().copied();
        running.check(result.map(|_| ()));
        self.finish(name, expected, fix, running);
        start
    }

    async fn debit_check(&mut self, debit: &TestMutation) -> Option<(String, i64)> {
        let mut running = Running::new();
        let answer = self
            .applied(&mut running, "POST /v1/mutations (buy debit)", debit, -3 * self.amount)
            .await;
        self.finish(
            "debit",
            "200 {status: applied, remoteReference, balance} with the balance right after the debit",
            "apply a buy debit once and answer 200 with the status `applied`, your reference and the balance right after it",
            running,
        );
        answer
    }

    /// Sends `debit` again and checks that the answer is `first` and the balance did not
    /// move from what it was just before the repeat.
    async fn repeat_check(&mut self, name: &str, debit: &TestMutation, first: Option<&(String, i64)>) {
        let mut running = Running::new();
        let before = first.and(self.last_known);
        let observed = self
            .send(
                &mut running,
                "POST /v1/mutations (the same key and payload again)",
                debit.probe(ProbeSigning::Configured, 0),
            )
            .await;
        match (expect_applied(&observed), first) {
            (Ok(again), Some(first)) if again == *first => {}
            (Ok(again), Some(first)) => running.problems.push(format!(
                "the repeat was answered {again:?}, the first answer was {first:?}"
            )),
            (Ok(_), None) => running.problems.push("the first debit was not applied".into()),
            (Err(problem), _) => running.problems.push(problem),
        }
        match self.read_balance(&mut running).await {
            Ok(now) if before.is_some_and(|before| before != now) => running.problems.push(format!(
                "the balance is {now} after the repeat, {} before it: it was applied again",
                before.unwrap_or_default()
            )),
            Ok(_) => {}
            Err(problem) => running.problems.push(problem),
        }
        self.finish(
            name,
            "exactly the first answer again (same remoteReference and balance), and no second effect",
            "deduplicate durably by idempotencyKey: answer a repeat of a key with the same payload with its first answer and apply nothing again",
            running,
        );
    }

    async fn reuse_check(&mut self, debit: &TestMutation) {
        let mut running = Running::new();
        let before = self.last_known;
        let other = debit.with_amount(3 * self.amount + 1);
        let observed = self
            .send(
                &mut running,
                "POST /v1/mutations (the same key, another amount)",
                other.probe(ProbeSigning::Configured, 0),
            )
            .await;
        running.check(expect_refusal(&observed, RefusalCode::IdempotencyKeyReused));
        match self.read_balance(&mut running).await {
            Ok(now) if before.is_some_and(|before| before != now) => {
                running.problems.push(format!(
                    "the balance moved from {} to {now}",
                    before.unwrap_or_default()
                ));
            }
            Ok(_) => {}
            Err(problem) => running.problems.push(problem),
        }
        self.finish(
            "same_key_other_payload",
            "422 idempotency_key_reused, and the balance unchanged",
            "compare the payload (every field but idempotencyKey and requestedAt) of a known key and answer 422 idempotency_key_reused when it differs, applying nothing",
            running,
        );
    }

    async fn credit_check(&mut self, flow: WalletFlow) {
        let mut running = Running::new();
        let credit = self.mutation(flow, &self.user.clone(), self.amount);
        self.applied(
            &mut running,
            &format!("POST /v1/mutations ({flow} credit)"),
            &credit,
            self.amount,
        )
        .await;
        self.finish(
            &format!("flow_{flow}"),
            "applied, with the balance before it plus the amount",
            &accept_flow(flow, self.currency),
            running,
        );
    }

    /// Brings the balance back to `start` if a wallet applied what it should have
    /// refused: `credit` gives money back, `debit` takes it.
    async fn cleanup(
        &mut self,
        start: Option<i64>,
        credit: WalletFlow,
        debit: WalletFlow,
    ) -> (Vec<Exchange>, Option<i64>) {
        let mut running = Running::new();
        let Some(start) = start else {
            return (running.exchanges, None);
        };
        let Ok(end) = self.read_balance(&mut running).await else {
            return (running.exchanges, None);
        };
        let difference = start - end;
        if difference == 0 {
            return (running.exchanges, Some(0));
        }
        let flow = if difference > 0 { credit } else { debit };
        let undo = self.mutation(flow, &self.user.clone(), difference.abs());
        self.send(
            &mut running,
            &format!("POST /v1/mutations (cleanup {flow})"),
            undo.probe(ProbeSigning::Configured, 0),
        )
        .await;
        let net = self.read_balance(&mut running).await.ok().map(|now| now - start);
        (running.exchanges, net)
    }
}

/// What to change so that the wallet accepts `flow` in `currency`.
fn accept_flow(flow: WalletFlow, currency: Currency) -> String {
    let keys: Vec<&str> = required_metadata(flow).iter().map(|key| key.as_str()).collect();
    format!(
        "accept the {flow} flow (reason {}) in {currency} with its metadata {} and apply it",
        ReasonKey::for_flow(flow),
        keys.join(", ")
    )
}
