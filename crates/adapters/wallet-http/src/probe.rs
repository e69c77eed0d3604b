//! The wallet test's probes: one exact call, signed as asked, reported as observed. The
//! production calls (`gateway.rs`) never go through here.

use std::time::Instant;

use opinion_app::wallet::ports::{
    ProbeObserved, ProbeOutcome, ProbePath, ProbeSigning, WalletAdapterTarget, WalletProbe,
};
use opinion_wallet::{BALANCE_PATH, MUTATIONS_PATH};
use opinion_webhook::sign;
use tracing::Instrument;

use crate::exchange::{Observed, SignedPost};
use crate::gateway::HttpWalletGateway;
use crate::timestamp::requested_at;

impl HttpWalletGateway {
    /// Sends `probe` once and reports what came back.
    pub(crate) async fn send_probe(&self, target: &WalletAdapterTarget, probe: &WalletProbe) -> ProbeOutcome {
        let span = tracing::info_span!(
            "wallet_probe",
            operator_id = %target.operator_id,
            message_id = %probe.message_id,
        );
        async {
            let started = Instant::now();
            let now = self.clock().now();
            let mut fields = probe.fields.clone();
            if let Ok(at) = requested_at(now) {
                fields.insert("requestedAt".into(), at.to_string().into());
            }
            let body = serde_json::to_vec(&fields).unwrap_or_default();
            let sent_body = String::from_utf8_lossy(&body).into_owned();
            let secrets = match &probe.signing {
                ProbeSigning::Configured => target.signing_secrets.clone(),
                ProbeSigning::With(secret) => vec![secret.clone()],
            };
            let timestamp = now.unix_timestamp() + probe.timestamp_shift_secs;
            let path = match probe.path {
                ProbePath::Mutations => MUTATIONS_PATH,
                ProbePath::Balance => BALANCE_PATH,
            };
            let observed = match sign(&secrets, &probe.message_id, timestamp, &body) {
                Ok(signature) => {
                    let url = format!("{}{path}", target.base_url);
                    self.post_checked(
                        target,
                        SignedPost {
                            url: &url,
                            signature,
                            idempotency_key: probe.idempotency_key.as_deref(),
                            body,
                            timeout: target.timeout,
                        },
                    )
                    .await
                }
                Err(error) => {
                    tracing::error!(%error, "cannot sign the probe");
                    Observed::NotSent
                }
            };
            let observed = match observed {
                Observed::NotSent => ProbeObserved::NotSent,
                Observed::TimedOut => ProbeObserved::TimedOut,
                Observed::LostAfterSend => ProbeObserved::LostAfterSend,
                Observed::Answered { status, body } => ProbeObserved::Answered { status, body },
            };
            tracing::info!(?observed, "wallet probe");
            ProbeOutcome {
                sent_body,
                observed,
                elapsed: started.elapsed(),
            }
        }
        .instrument(span)
        .await
    }
}
