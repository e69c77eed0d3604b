//! What the run trades in: one operator and its markets (seeded with bulk SQL), its
//! players' accounts in the faulty wallet, the wallet adapter pointed at that wallet,
//! and one webhook endpoint per receiver, subscribed to every Opinion event type.

use std::sync::Arc;
use std::time::Duration;

use opinion_bench::api::{Api, text_field};
use opinion_bench::database;
use opinion_bench::seed;
use opinion_testkit::FakeWallet;
use opinion_webhook::EventType;
use reqwest::Method;
use serde_json::json;

use crate::deployment::Deployment;
use crate::receivers::{ENDPOINT_TIMEOUT_SECONDS, Phases, Receiver};
use crate::settings::Settings;
use crate::wallet;

/// The currency of the seeded operator.
const CURRENCY: &str = "USD";

/// Every event type of the Opinion product's trading and sessions, from the catalog: not
/// the flight product's (this load produces none) nor an endpoint's own disabling.
fn event_types() -> Vec<&'static str> {
    EventType::ALL
        .into_iter()
        .filter(|event| !event.is_flight() && *event != EventType::WebhookEndpointDisabled)
        .map(EventType::as_str)
        .collect()
}

/// The most attempts an endpoint allows: deliveries outlast the receivers' failing phases.
const MAX_ATTEMPTS: u32 = 20;

/// Everything the load and the reconciliation need.
pub struct World {
    /// The operator's id as PostgreSQL reads a uuid.
    pub operator_uuid: String,
    /// Its full-access key.
    pub operator_key: String,
    /// The markets traded (`mkt_…`).
    pub markets: Vec<String>,
    /// The players' external ids.
    pub players: Vec<String>,
    /// The faulty wallet.
    pub wallet: Arc<FakeWallet>,
    /// The receivers, in the order of `endpoints`.
    pub receivers: Vec<Receiver>,
    /// The endpoints' ids (`whe_…`).
    pub endpoints: Vec<String>,
}

/// Seeds, starts the wallet and the receivers and configures the operator.
pub async fn prepare(settings: &Settings, deployment: &Deployment, database_url: &str) -> anyhow::Result<World> {
    let mut client = database::connect(database_url).await?;
    let seeded = seed::operators_and_markets(&mut client, 1, settings.markets).await?;
    let operator = &seeded.operators[0];
    let players: Vec<String> = (0..settings.players).map(|n| format!("soak-player-{n}")).collect();
    let wallet = wallet::start(settings, CURRENCY, &players).await;
    let api = Api::new(&deployment.up()[0])?;
    let adapter = json!({ "baseUrl": wallet.url(), "timeoutMs": settings.wallet_timeout_ms });
    let configured = api
        .call(
            Method::PUT,
            "/api/operator/wallet-adapter",
            Some(&operator.full_key),
            Some(&adapter),
        )
        .await
        .map_err(|error| anyhow::anyhow!("configuring the wallet adapter: {error}"))?;
    wallet.set_secret(&text_field(&configured, "signingSecret")?);

    let mut receivers = Vec::with_capacity(settings.receivers);
    let mut endpoints = Vec::with_capacity(settings.receivers);
    for index in 0..settings.receivers {
        let offset = settings
            .receiver_period
            .mul_f64(index as f64 / settings.receivers as f64);
        let receiver = Receiver::start(Phases {
            period: settings.receiver_period,
            failing: settings.receiver_failing,
            offset,
        })
        .await?;
        let body = json!({
            "url": receiver.url(),
            "eventTypes": event_types(),
            "description": format!("soak receiver {index}"),
            "maxAttempts": MAX_ATTEMPTS,
            "timeoutSeconds": ENDPOINT_TIMEOUT_SECONDS,
        });
        let endpoint = api
            .call(
                Method::POST,
                "/api/operator/webhooks/endpoints",
                Some(&operator.full_key),
                Some(&body),
            )
            .await
            .map_err(|error| anyhow::anyhow!("registering a webhook endpoint: {error}"))?;
        receiver.set_secret(&text_field(&endpoint, "secret")?)?;
        endpoints.push(text_field(&endpoint, "id")?);
        receivers.push(receiver);
    }
    // The endpoints' creation instants are the reconciliation's starting line.
    tokio::time::sleep(Duration::from_millis(10)).await;
    Ok(World {
        operator_uuid: operator.uuid.clone(),
        operator_key: operator.full_key.clone(),
        markets: seeded.markets,
        players,
        wallet: Arc::new(wallet),
        receivers,
        endpoints,
    })
}
