//! The simulated wallet: the operator's wallet adapter as the contract
//! (`docs/operator/wallet-adapter.md`) defines it, served by this service and reached by the same
//! client that calls real wallets. Signatures are verified with the operator's own wallet
//! adapter secrets; deduplication, refusals and balances follow the wallet domain's rules
//! (`opinion_wallet::wallet_rules`) over state kept in PostgreSQL, so every instance
//! answers alike. Each user's queued faults are taken by its next mutations.

use std::collections::BTreeMap;
use std::time::Duration;

use opinion_core::{OperatorId, SimulatorLogId};
use opinion_wallet::{
    KeyRecord, MutationRequest, RefusalCode, RemoteReference, WalletAnswer, answer_balance_read, answer_for_key,
    apply_mutation, read_balance_request, read_mutation,
};
use opinion_webhook::{DEFAULT_TOLERANCE_SECS, verify};

use crate::error::{AppError, ProblemCode};
use crate::model::{LogDelivery, SimulatedFault, WalletLogEntry};
use crate::simulator::Simulator;
use crate::simulator::ports::{BalanceMove, SettledKey};

/// How often settling is tried again when the balance changed under it.
const SETTLE_ATTEMPTS: usize = 16;

/// How much longer than the operator's timeout a `timeout` fault holds a request.
const TIMEOUT_MARGIN: Duration = Duration::from_secs(1);

/// One call received by the simulated wallet, as it arrived.
#[derive(Debug, Clone)]
pub struct SimulatedWalletCall {
    /// The operator named in the path.
    pub operator_id: OperatorId,
    /// `webhook-id`.
    pub webhook_id: String,
    /// `webhook-timestamp`.
    pub webhook_timestamp: String,
    /// `webhook-signature`.
    pub webhook_signature: String,
    /// `Idempotency-Key`, if sent.
    pub idempotency_key: Option<String>,
    /// The raw body.
    pub body: Vec<u8>,
}

/// What the simulated wallet does with a call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SimulatedWalletReply {
    /// Answer this.
    Answer(WalletAnswer),
    /// Break the connection without a whole answer.
    Drop,
}

impl Simulator {
    /// Handles `POST {wallet}/v1/mutations`.
    pub async fn wallet_mutation(&self, call: SimulatedWalletCall) -> Result<SimulatedWalletReply, AppError> {
        let operator = call.operator_id;
        let now = self.ports.clock.now();
        let mut entry = logged_request(
            operator,
            SimulatorLogId::from_ulid(self.ports.random.ulid()),
            &call.body,
            now,
        );
        let timeout = match self.verify(&call).await? {
            Ok(timeout) => timeout,
            Err(answer) => return self.answer_now(entry, answer).await,
        };
        if call.idempotency_key.as_deref() != Some(call.webhook_id.as_str()) {
            let answer = WalletAnswer::refused(
                RefusalCode::InvalidRequest,
                "webhook-id and Idempotency-Key must both be the idempotency key",
            );
            return self.answer_now(entry, answer).await;
        }
        let request = match read_mutation(&call.body, call.idempotency_key.as_deref()) {
            Ok(request) => request,
            Err(answer) => return self.answer_now(entry, answer).await,
        };
        if let Some(answer) = self.admit(operator, &request).await? {
            return self.answer_now(entry, answer).await;
        }
        entry.fault = self.ports.store.take_fault(operator, &request.external_user_id).await?;
        self.ports.store.append_wallet_log(&entry).await?;
        let (reply, applied) = self.commit(&entry, &request, timeout).await?;
        let delivery = match &reply {
            SimulatedWalletReply::Answer(answer) => answered(answer),
            SimulatedWalletReply::Drop => LogDelivery::Dropped,
        };
        let at = self.ports.clock.now();
        self.ports
            .store
            .finish_wallet_log(operator, entry.id, applied, &delivery, at)
            .await?;
        tracing::info!(operator_id = %operator, idempotency_key = %request.idempotency_key, applied, fault = ?entry.fault, "simulated wallet mutation");
        Ok(reply)
    }

    /// Handles `POST {wallet}/v1/balance`.
    pub async fn wallet_balance(&self, call: SimulatedWalletCall) -> Result<WalletAnswer, AppError> {
        if let Err(answer) = self.verify(&call).await? {
            return Ok(answer);
        }
        let request = match read_balance_request(&call.body) {
            Ok(request) => request,
            Err(answer) => return Ok(answer),
        };
        let user = self
            .ports
            .store
            .find_simulated_user_by_external(call.operator_id, &request.external_user_id)
            .await?;
        Ok(answer_balance_read(
            user.map(|user| user.account()).as_ref(),
            &request.external_user_id,
        ))
    }

    /// Checks the signature against every secret of the operator's wallet adapter that
    /// signs now; the adapter's timeout when it verifies, the 401 answer otherwise.
    async fn verify(&self, call: &SimulatedWalletCall) -> Result<Result<Duration, WalletAnswer>, AppError> {
        let refused = || {
            WalletAnswer::refused(
                RefusalCode::InvalidSignature,
                "no signing secret of the operator's wallet adapter verifies the signature",
            )
        };
        let Some(config) = self.ports.adapters.find_wallet_adapter(call.operator_id).await? else {
            return Ok(Err(refused()));
        };
        let now = self.ports.clock.now().unix_timestamp();
        let valid = config.secrets.signing(now).iter().any(|secret| {
            verify(
                secret,
                &call.webhook_id,
                &call.webhook_timestamp,
                &call.webhook_signature,
                &call.body,
                now,
                DEFAULT_TOLERANCE_SECS,
            )
            .is_ok()
        });
        Ok(if valid {
            Ok(config.timeout.as_duration())
        } else {
            Err(refused())
        })
    }

    /// Checks the key: `Some` answer for a key already seen, `None` once the key is
    /// claimed as in progress by this request.
    async fn admit(&self, operator: OperatorId, request: &MutationRequest) -> Result<Option<WalletAnswer>, AppError> {
        let key = &request.idempotency_key;
        loop {
            let recorded: Option<KeyRecord> = self.ports.store.find_wallet_key(operator, key).await?;
            if let Some(answer) = answer_for_key(request, recorded.as_ref()) {
                return Ok(Some(answer));
            }
            let now = self.ports.clock.now();
            if self
                .ports
                .store
                .claim_wallet_key(operator, key, &request.fingerprint(), now)
                .await?
            {
                return Ok(None);
            }
        }
    }

    /// Carries out an admitted request under its fault: the reply and whether money moved.
    async fn commit(
        &self,
        entry: &WalletLogEntry,
        request: &MutationRequest,
        timeout: Duration,
    ) -> Result<(SimulatedWalletReply, bool), AppError> {
        let operator = entry.operator_id;
        let answer = |answer: WalletAnswer| {
            let applied = answer.is_applied();
            (SimulatedWalletReply::Answer(answer), applied)
        };
        Ok(match entry.fault {
            None => answer(self.settle(entry, request, None).await?),
            Some(SimulatedFault::SlowAnswer { delay_ms }) => {
                tokio::time::sleep(Duration::from_millis(u64::from(delay_ms))).await;
                answer(self.settle(entry, request, None).await?)
            }
            Some(SimulatedFault::Timeout) => {
                tokio::time::sleep(timeout + TIMEOUT_MARGIN).await;
                answer(self.settle(entry, request, None).await?)
            }
            Some(SimulatedFault::ServerError) => {
                self.ports
                    .store
                    .release_wallet_key(operator, &request.idempotency_key)
                    .await?;
                let failure = WalletAnswer::error(500, "injected_fault", "a fault injected by the simulator");
                (SimulatedWalletReply::Answer(failure), false)
            }
            Some(SimulatedFault::DroppedConnection) => {
                let applied = self.settle(entry, request, None).await?.is_applied();
                (SimulatedWalletReply::Drop, applied)
            }
            Some(SimulatedFault::InsufficientFunds) => answer(
                self.settle(entry, request, Some(RefusalCode::InsufficientFunds))
                    .await?,
            ),
        })
    }

    /// Applies (or, with `forced`, refuses) an admitted request by the wallet rules and
    /// records the answer under its key with the balance change, over the balance read.
    async fn settle(
        &self,
        entry: &WalletLogEntry,
        request: &MutationRequest,
        forced: Option<RefusalCode>,
    ) -> Result<WalletAnswer, AppError> {
        let operator = entry.operator_id;
        let reference = RemoteReference::parse(&format!("sim-{}", entry.id.ulid().to_string().to_ascii_lowercase()))
            .map_err(|e| AppError::Internal(e.to_string()))?;
        for _ in 0..SETTLE_ATTEMPTS {
            let user = self
                .ports
                .store
                .find_simulated_user_by_external(operator, &request.external_user_id)
                .await?;
            let account = user.as_ref().map(|user| user.account());
            let (answer, balance) = match forced {
                Some(code) => (WalletAnswer::refused(code, "refused by an injected fault"), None),
                None => match apply_mutation(account.as_ref(), request, reference.clone()) {
                    Ok((after, answer)) => {
                        let before = account.map_or(0, |account| account.balance);
                        let change = BalanceMove {
                            external_user_id: request.external_user_id.clone(),
                            before,
                            after,
                        };
                        (answer, Some(change))
                    }
                    Err(refusal) => (refusal, None),
                },
            };
            let settled = SettledKey {
                operator_id: operator,
                key: request.idempotency_key.clone(),
                answer: answer.clone(),
                balance,
                at: self.ports.clock.now(),
            };
            if self.ports.store.settle_wallet_key(&settled).await? {
                return Ok(answer);
            }
        }
        self.ports
            .store
            .release_wallet_key(operator, &request.idempotency_key)
            .await?;
        Err(AppError::Conflict {
            code: ProblemCode::ConcurrentChange,
            detail: "the simulated balance kept changing; the mutation was not applied".into(),
        })
    }

    /// Logs a request answered without admitting it, and answers.
    async fn answer_now(&self, entry: WalletLogEntry, answer: WalletAnswer) -> Result<SimulatedWalletReply, AppError> {
        let delivery = answered(&answer);
        let entry = WalletLogEntry {
            delivery,
            answered_at: Some(self.ports.clock.now()),
            ..entry
        };
        self.ports.store.append_wallet_log(&entry).await?;
        Ok(SimulatedWalletReply::Answer(answer))
    }
}

fn answered(answer: &WalletAnswer) -> LogDelivery {
    let body = answer
        .body_bytes()
        .ok()
        .and_then(|bytes| serde_json::from_slice(&bytes).ok())
        .unwrap_or(serde_json::Value::Null);
    LogDelivery::Answered {
        status: answer.status,
        body,
    }
}

/// A log entry with whatever can be read of the body, even a malformed one.
fn logged_request(operator: OperatorId, id: SimulatorLogId, body: &[u8], now: time::OffsetDateTime) -> WalletLogEntry {
    let value: serde_json::Value = serde_json::from_slice(body).unwrap_or_default();
    let text = |field: &str| value.get(field).and_then(|v| v.as_str()).map(str::to_owned);
    let metadata: BTreeMap<String, String> = value
        .get("metadata")
        .and_then(|m| m.as_object())
        .map(|m| {
            m.iter()
                .filter_map(|(key, value)| value.as_str().map(|v| (key.clone(), v.to_owned())))
                .collect()
        })
        .unwrap_or_default();
    WalletLogEntry {
        id,
        operator_id: operator,
        external_user_id: text("externalUserId"),
        idempotency_key: text("idempotencyKey"),
        flow: text("flow").and_then(|flow| flow.parse().ok()),
        amount: text("amount").and_then(|amount| amount.parse().ok()),
        currency: text("currency").and_then(|currency| currency.parse().ok()),
        metadata,
        fault: None,
        applied: false,
        delivery: LogDelivery::Pending,
        received_at: now,
        answered_at: None,
    }
}
