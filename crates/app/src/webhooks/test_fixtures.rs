//! Use-case tests of the webhook service over mockall mocks with a fixed clock.

pub(super) use crate::test_support::{counting_random, fixed_clock};
pub(super) use std::sync::Arc;

pub(super) use opinion_core::{EventId, WebhookDeliveryId, WebhookEndpointId};
pub(super) use opinion_webhook::{AttemptTimeout, EventType, MaxAttempts, SigningSecret, Subscription};
pub(super) use serde_json::{Map, json};
pub(super) use time::Duration;

pub(super) use crate::model::{AttemptTarget, EndpointSecrets, StoredEvent, WebhookEndpoint};
pub(super) use crate::test_support::{NOW, OPERATOR};
pub(super) use crate::webhooks::store::MockWebhookStore;
pub(super) use crate::webhooks::transport::MockWebhookTransport;
pub(super) use crate::webhooks::{WebhookPorts, WebhookSettings, Webhooks};

/// The mocks, to be given expectations before `build`.
#[derive(Default)]
pub struct WebhookMocks {
    pub store: MockWebhookStore,
    pub transport: MockWebhookTransport,
}

impl WebhookMocks {
    pub fn build(self, production: bool) -> Webhooks {
        Webhooks::new(
            WebhookPorts {
                store: Arc::new(self.store),
                transport: Arc::new(self.transport),
                clock: fixed_clock(),
                random: counting_random(100, [42; 32]),
            },
            WebhookSettings { production },
        )
    }
}

pub fn secret(byte: u8) -> SigningSecret {
    SigningSecret::from_random_bytes(&[byte; 32]).expect("valid secret")
}

/// The secret the mocked random source makes.
pub fn generated_secret() -> SigningSecret {
    secret(42)
}

pub fn endpoint(id: u128) -> WebhookEndpoint {
    WebhookEndpoint {
        id: WebhookEndpointId::from_u128(id),
        operator_id: OPERATOR,
        url: "https://hooks.example.com/opinion".into(),
        description: None,
        subscription: Subscription::new([EventType::TradeProcessed]).expect("subscription"),
        enabled: true,
        disabled_reason: None,
        rate_limit: None,
        max_attempts: MaxAttempts::default(),
        timeout: AttemptTimeout::default(),
        secrets: EndpointSecrets::new(secret(1)),
        failing_since: None,
        created_at: NOW - Duration::days(1),
        updated_at: NOW - Duration::days(1),
    }
}

pub fn target(scheduled_attempts: u32) -> AttemptTarget {
    let mut data = Map::new();
    data.insert("tradeId".into(), json!("trd_1"));
    AttemptTarget {
        delivery_id: WebhookDeliveryId::from_u128(7),
        operator_id: OPERATOR,
        endpoint_id: WebhookEndpointId::from_u128(3),
        url: "https://hooks.example.com/opinion".into(),
        secrets: EndpointSecrets::new(secret(1)),
        failing_since: None,
        max_attempts: MaxAttempts::default(),
        timeout: AttemptTimeout::default(),
        event: StoredEvent {
            id: EventId::from_u128(9),
            event_type: EventType::TradeProcessed,
            created_at: NOW - Duration::minutes(1),
            data,
        },
        scheduled_attempts,
    }
}
