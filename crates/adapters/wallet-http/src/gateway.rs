//! `HttpWalletGateway`: the app's `WalletGateway` over HTTP. Each call is made once,
//! signed with every active secret of the target (Standard Webhooks), inside a tracing
//! span naming the operator, the idempotency key (or the read's id), the flow, the
//! status and the time taken; secrets are never logged.

use std::sync::Arc;
use std::time::{Duration, Instant};

use async_trait::async_trait;
use opinion_app::ports::{Clock, Random};
use opinion_app::wallet::ports::{
    BalanceOutcome, MutationOutcome, ProbeOutcome, WalletAdapterTarget, WalletGateway, WalletProbe,
};
use opinion_wallet::{
    BALANCE_PATH, BalanceReading, BalanceRequest, Classification, MUTATIONS_PATH, MutationRequest, balance_read_id,
    classify, read_balance,
};
use opinion_webhook::sign;
use tracing::Instrument;
use tracing::field::Empty;

use crate::address_policy::AddressPolicy;
use crate::clients::Clients;
use crate::exchange::{Observed, SignedPost, post};
use crate::timestamp::requested_at;

/// Calls operators' wallet adapters per `docs/operator/wallet-adapter.md`.
pub struct HttpWalletGateway {
    clients: Clients,
    policy: AddressPolicy,
    clock: Arc<dyn Clock>,
    random: Arc<dyn Random>,
}

/// One call, before signing.
struct Call<'a> {
    target: &'a WalletAdapterTarget,
    path: &'static str,
    message_id: &'a str,
    idempotency_key: Option<&'a str>,
    body: Vec<u8>,
    unix_seconds: i64,
}

impl HttpWalletGateway {
    /// A gateway reading the time of each call from `clock` and the ids of balance reads
    /// from `random`; `policy` is `PublicOnly` in production.
    pub fn new(clock: Arc<dyn Clock>, random: Arc<dyn Random>, policy: AddressPolicy) -> Self {
        Self {
            clients: Clients::new(policy),
            policy,
            clock,
            random,
        }
    }

    /// The clock calls are timed by.
    pub(crate) fn clock(&self) -> &dyn Clock {
        self.clock.as_ref()
    }

    /// Posts a signed call after the address checks, through the client for its timeout.
    pub(crate) async fn post_checked(&self, target: &WalletAdapterTarget, signed: SignedPost<'_>) -> Observed {
        if let Err(problem) = self.policy.check_url(signed.url) {
            tracing::warn!(%problem, "refused to call the wallet adapter URL");
            return Observed::NotSent;
        }
        let client = match self.clients.for_timeout(target.timeout) {
            Ok(client) => client,
            Err(error) => {
                tracing::error!(%error, "cannot build an HTTP client");
                return Observed::NotSent;
            }
        };
        post(&client, signed).await
    }

    async fn send(&self, call: Call<'_>) -> Observed {
        let url = format!("{}{}", call.target.base_url, call.path);
        let signature = match sign(
            &call.target.signing_secrets,
            call.message_id,
            call.unix_seconds,
            &call.body,
        ) {
            Ok(signature) => signature,
            Err(error) => {
                tracing::error!(%error, "cannot sign the wallet call");
                return Observed::NotSent;
            }
        };
        let signed = SignedPost {
            url: &url,
            signature,
            idempotency_key: call.idempotency_key,
            body: call.body,
            timeout: call.target.timeout,
        };
        self.post_checked(call.target, signed).await
    }
}

#[async_trait]
impl WalletGateway for HttpWalletGateway {
    async fn mutate(&self, target: &WalletAdapterTarget, mutation: &opinion_wallet::WalletMutation) -> MutationOutcome {
        let key = mutation.idempotency_key();
        let span = tracing::info_span!(
            "wallet_mutation",
            operator_id = %target.operator_id,
            idempotency_key = %key,
            flow = %mutation.flow(),
            status = Empty,
            elapsed_ms = Empty,
        );
        async {
            let started = Instant::now();
            let now = self.clock.now();
            let body = requested_at(now)
                .map_err(|error| error.to_string())
                .and_then(|at| MutationRequest::of(mutation, at).to_bytes().map_err(|e| e.to_string()));
            let observed = match body {
                Ok(body) => {
                    let call = Call {
                        target,
                        path: MUTATIONS_PATH,
                        message_id: key.as_str(),
                        idempotency_key: Some(key.as_str()),
                        body,
                        unix_seconds: now.unix_timestamp(),
                    };
                    self.send(call).await
                }
                Err(error) => {
                    tracing::error!(%error, "cannot write the mutation body");
                    Observed::NotSent
                }
            };
            let classification = classify(observed.transport());
            let elapsed = started.elapsed();
            record(&observed, elapsed);
            log_mutation(&classification);
            MutationOutcome {
                classification,
                http_status: observed.status(),
                elapsed,
            }
        }
        .instrument(span)
        .await
    }

    async fn balance(&self, target: &WalletAdapterTarget, external_user_id: &str) -> BalanceOutcome {
        let read_id = balance_read_id(&self.random.ulid().to_string().to_ascii_lowercase());
        let span = tracing::info_span!(
            "wallet_balance",
            operator_id = %target.operator_id,
            read_id = %read_id,
            status = Empty,
            elapsed_ms = Empty,
        );
        async {
            let started = Instant::now();
            let now = self.clock.now();
            let body = requested_at(now).map_err(|error| error.to_string()).and_then(|at| {
                let request = BalanceRequest {
                    external_user_id: external_user_id.to_owned(),
                    requested_at: at,
                };
                serde_json::to_vec(&request).map_err(|error| error.to_string())
            });
            let observed = match body {
                Ok(body) => {
                    let call = Call {
                        target,
                        path: BALANCE_PATH,
                        message_id: &read_id,
                        idempotency_key: None,
                        body,
                        unix_seconds: now.unix_timestamp(),
                    };
                    self.send(call).await
                }
                Err(error) => {
                    tracing::error!(%error, "cannot write the balance request");
                    Observed::NotSent
                }
            };
            let reading = read_balance(observed.transport(), external_user_id);
            let elapsed = started.elapsed();
            record(&observed, elapsed);
            match &reading {
                BalanceReading::Balance { .. } => tracing::info!("balance read"),
                BalanceReading::Refused { code } => tracing::info!(%code, "balance read refused"),
                BalanceReading::Failed { why } => tracing::warn!(%why, "balance read failed"),
            }
            BalanceOutcome {
                reading,
                http_status: observed.status(),
                elapsed,
            }
        }
        .instrument(span)
        .await
    }

    async fn probe(&self, target: &WalletAdapterTarget, probe: &WalletProbe) -> ProbeOutcome {
        self.send_probe(target, probe).await
    }
}

fn record(observed: &Observed, elapsed: Duration) {
    let span = tracing::Span::current();
    if let Some(status) = observed.status() {
        span.record("status", status);
    }
    span.record("elapsed_ms", u64::try_from(elapsed.as_millis()).unwrap_or(u64::MAX));
}

fn log_mutation(classification: &Classification) {
    match classification {
        Classification::Applied { remote_reference, .. } => {
            tracing::info!(%remote_reference, "wallet mutation applied");
        }
        Classification::Rejected { code } => {
            tracing::info!(%code, blame = ?code.blame(), "wallet mutation rejected");
        }
        Classification::Ambiguous { why } => tracing::warn!(%why, "wallet mutation ambiguous"),
        Classification::NotSent => tracing::warn!("wallet mutation not sent"),
    }
}
