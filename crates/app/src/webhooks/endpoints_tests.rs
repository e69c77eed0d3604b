//! Registering and changing endpoints.

use opinion_access::Grant;
use opinion_webhook::{DisableReason, EventType, ROTATION_OVERLAP_SECS};
use time::Duration;

use super::test_fixtures::*;
use crate::error::{AppError, ProblemCode};
use crate::test_support::api_key_caller;
use crate::webhooks::transport::DestinationRefused;
use crate::webhooks::{NewWebhookEndpoint, WebhookEndpointChange};

fn request(url: &str, types: &[&str]) -> NewWebhookEndpoint {
    NewWebhookEndpoint {
        url: url.into(),
        event_types: types.iter().map(|t| t.to_string()).collect(),
        ..NewWebhookEndpoint::default()
    }
}

#[tokio::test]
async fn creation_stores_the_endpoint_and_shows_its_secret() {
    let mut mocks = WebhookMocks::default();
    mocks
        .transport
        .expect_check_destination()
        .times(1)
        .returning(|_| Ok(()));
    mocks.store.expect_insert_endpoint().times(1).returning(|e| {
        assert_eq!(e.operator_id, OPERATOR);
        assert!(e.enabled);
        assert_eq!(e.secrets, EndpointSecrets::new(generated_secret()));
        assert_eq!(
            e.subscription.types().collect::<Vec<_>>(),
            [EventType::TradeProcessed, EventType::MarketResolved]
        );
        Ok(())
    });
    let created = mocks
        .build(true)
        .create_endpoint(
            &api_key_caller(Grant::All),
            request(
                "https://hooks.example.com/x",
                &["mini_app.market.resolved", "mini_app.trade.processed"],
            ),
        )
        .await
        .expect("created");
    assert_eq!(created.secret.map(|s| s.reveal()), Some(generated_secret().reveal()));
    assert_eq!(created.endpoint.max_attempts, MaxAttempts::default());
    assert_eq!(created.endpoint.timeout, AttemptTimeout::default());
}

/// A valid operator-supplied secret, other than the endpoints' fixtures.
const OWN_SECRET: &str = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

#[tokio::test]
async fn creation_takes_the_delivery_settings_and_the_operators_own_secret_without_echoing_it() {
    let mut mocks = WebhookMocks::default();
    mocks.transport.expect_check_destination().returning(|_| Ok(()));
    mocks.store.expect_insert_endpoint().times(1).returning(|e| {
        assert_eq!(e.max_attempts.get(), 6);
        assert_eq!(e.timeout.secs(), 5);
        assert_eq!(e.secrets.current.reveal(), OWN_SECRET);
        assert!(e.secrets.previous.is_none());
        Ok(())
    });
    let created = mocks
        .build(true)
        .create_endpoint(
            &api_key_caller(Grant::All),
            NewWebhookEndpoint {
                max_attempts: Some(6),
                timeout_seconds: Some(5),
                secret: Some(OWN_SECRET.into()),
                ..request("https://hooks.example.com/x", &["mini_app.trade.failed"])
            },
        )
        .await
        .expect("created");
    assert!(created.secret.is_none(), "an operator's own secret is never sent back");
}

#[tokio::test]
async fn bad_input_is_refused_by_field_without_writing() {
    let cases: Vec<(NewWebhookEndpoint, &str)> = vec![
        (
            request("http://hooks.example.com/x", &["mini_app.trade.processed"]),
            "url",
        ),
        (request("https://10.0.0.1/x", &["mini_app.trade.processed"]), "url"),
        (request("not a url", &["mini_app.trade.processed"]), "url"),
        (request("https://hooks.example.com/x", &[]), "eventTypes"),
        (
            request("https://hooks.example.com/x", &["mini_app.trade.*"]),
            "eventTypes",
        ),
        (
            request("https://hooks.example.com/x", &["trade.executed"]),
            "eventTypes",
        ),
        (
            request(
                "https://hooks.example.com/x",
                &["mini_app.trade.failed", "mini_app.trade.failed"],
            ),
            "eventTypes",
        ),
        (
            NewWebhookEndpoint {
                description: Some("x".repeat(501)),
                ..request("https://hooks.example.com/x", &["mini_app.trade.failed"])
            },
            "description",
        ),
        (
            NewWebhookEndpoint {
                rate_limit_per_minute: Some(0),
                ..request("https://hooks.example.com/x", &["mini_app.trade.failed"])
            },
            "rateLimitPerMinute",
        ),
    ];
    let good = || request("https://hooks.example.com/x", &["mini_app.trade.failed"]);
    let mut cases = cases;
    for attempts in [0, 21, -1, i64::from(u32::MAX) + 1] {
        let bad = NewWebhookEndpoint {
            max_attempts: Some(attempts),
            ..good()
        };
        cases.push((bad, "maxAttempts"));
    }
    for secs in [0, 31, -5, i64::MAX] {
        let bad = NewWebhookEndpoint {
            timeout_seconds: Some(secs),
            ..good()
        };
        cases.push((bad, "timeoutSeconds"));
    }
    for secret in [
        "",
        "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
        "whsec_",
        "whsec_not base64!",
        "whsec_AAAA",
        "whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
    ] {
        let bad = NewWebhookEndpoint {
            secret: Some(secret.into()),
            ..good()
        };
        cases.push((bad, "secret"));
    }
    for (request, field) in cases {
        let mut mocks = WebhookMocks::default();
        mocks.transport.expect_check_destination().returning(|_| Ok(()));
        mocks.store.expect_insert_endpoint().never();
        let error = mocks
            .build(true)
            .create_endpoint(&api_key_caller(Grant::All), request.clone())
            .await
            .expect_err("refused");
        assert!(
            matches!(error, AppError::Invalid { field: f, .. } if f == field),
            "{request:?}: {error:?}"
        );
    }
}

#[tokio::test]
async fn a_name_resolving_to_a_refused_address_is_refused() {
    let mut mocks = WebhookMocks::default();
    mocks
        .transport
        .expect_check_destination()
        .returning(|_| Err(DestinationRefused("resolves to a private address".into())));
    mocks.store.expect_insert_endpoint().never();
    let error = mocks
        .build(true)
        .create_endpoint(
            &api_key_caller(Grant::All),
            request("https://internal.example.com/x", &["mini_app.trade.failed"]),
        )
        .await
        .expect_err("refused");
    assert!(matches!(error, AppError::Invalid { field: "url", .. }), "{error:?}");
}

#[tokio::test]
async fn rotation_keeps_the_old_secret_signing_for_the_overlap() {
    let mut mocks = WebhookMocks::default();
    mocks
        .store
        .expect_find_endpoint()
        .returning(|_, _| Ok(Some(endpoint(3))));
    mocks.store.expect_update_endpoint().times(1).returning(|u| {
        assert_eq!(u.endpoint.secrets.current, generated_secret());
        assert_eq!(u.endpoint.secrets.previous, Some(secret(1)));
        assert_eq!(
            u.endpoint.secrets.previous_expires_at,
            Some(NOW + Duration::seconds(ROTATION_OVERLAP_SECS))
        );
        assert_eq!(u.expected_updated_at, NOW - Duration::days(1));
        assert!(!u.cancel_pending);
        assert!(u.events.is_empty());
        Ok(true)
    });
    let change = WebhookEndpointChange {
        rotate_secret: true,
        ..WebhookEndpointChange::default()
    };
    let rotated = mocks
        .build(true)
        .update_endpoint(&api_key_caller(Grant::All), WebhookEndpointId::from_u128(3), change)
        .await
        .expect("rotated");
    assert_eq!(rotated.secret, Some(generated_secret()));
    assert_eq!(
        rotated.previous_secret_expires_at,
        Some(NOW + Duration::seconds(ROTATION_OVERLAP_SECS))
    );
}

#[tokio::test]
async fn rotating_to_the_operators_own_secret_keeps_the_old_one_signing_and_shows_no_secret() {
    let mut mocks = WebhookMocks::default();
    mocks
        .store
        .expect_find_endpoint()
        .returning(|_, _| Ok(Some(endpoint(3))));
    mocks.store.expect_update_endpoint().times(1).returning(|u| {
        assert_eq!(u.endpoint.secrets.current.reveal(), OWN_SECRET);
        assert_eq!(u.endpoint.secrets.previous, Some(secret(1)));
        assert_eq!(
            u.endpoint.secrets.previous_expires_at,
            Some(NOW + Duration::seconds(ROTATION_OVERLAP_SECS))
        );
        Ok(true)
    });
    let change = WebhookEndpointChange {
        secret: Some(OWN_SECRET.into()),
        ..WebhookEndpointChange::default()
    };
    let rotated = mocks
        .build(true)
        .update_endpoint(&api_key_caller(Grant::All), WebhookEndpointId::from_u128(3), change)
        .await
        .expect("rotated");
    assert_eq!(rotated.secret, None);
    assert_eq!(
        rotated.previous_secret_expires_at,
        Some(NOW + Duration::seconds(ROTATION_OVERLAP_SECS))
    );
}

#[tokio::test]
async fn a_change_sets_the_delivery_settings_and_refuses_bad_ones_or_the_same_secret() {
    let mut mocks = WebhookMocks::default();
    mocks
        .store
        .expect_find_endpoint()
        .returning(|_, _| Ok(Some(endpoint(3))));
    mocks.store.expect_update_endpoint().times(1).returning(|u| {
        assert_eq!(u.endpoint.max_attempts.get(), 20);
        assert_eq!(u.endpoint.timeout.secs(), 1);
        Ok(true)
    });
    let webhooks = mocks.build(true);
    let caller = api_key_caller(Grant::All);
    let id = WebhookEndpointId::from_u128(3);
    let change = WebhookEndpointChange {
        max_attempts: Some(20),
        timeout_seconds: Some(1),
        ..WebhookEndpointChange::default()
    };
    let changed = webhooks.update_endpoint(&caller, id, change).await.expect("changed");
    assert_eq!(changed.secret, None);
    assert_eq!(changed.previous_secret_expires_at, None);
    let refusals = [
        (
            WebhookEndpointChange {
                max_attempts: Some(0),
                ..WebhookEndpointChange::default()
            },
            "maxAttempts",
        ),
        (
            WebhookEndpointChange {
                timeout_seconds: Some(60),
                ..WebhookEndpointChange::default()
            },
            "timeoutSeconds",
        ),
        (
            WebhookEndpointChange {
                secret: Some("whsec_short".into()),
                ..WebhookEndpointChange::default()
            },
            "secret",
        ),
        (
            WebhookEndpointChange {
                secret: Some(secret(1).reveal()),
                ..WebhookEndpointChange::default()
            },
            "secret",
        ),
    ];
    for (change, field) in refusals {
        let error = webhooks
            .update_endpoint(&caller, id, change)
            .await
            .expect_err("refused");
        assert!(
            matches!(error, AppError::Invalid { field: f, .. } if f == field),
            "{error:?}"
        );
    }
}

#[tokio::test]
async fn disabling_cancels_pending_deliveries_and_emits_the_event() {
    let mut mocks = WebhookMocks::default();
    mocks
        .store
        .expect_find_endpoint()
        .returning(|_, _| Ok(Some(endpoint(3))));
    mocks.store.expect_update_endpoint().times(1).returning(|u| {
        let event = &u.events[0];
        assert!(!u.endpoint.enabled);
        assert_eq!(u.endpoint.disabled_reason, Some(DisableReason::Operator));
        assert!(u.cancel_pending);
        assert_eq!(u.events.len(), 1);
        assert_eq!(event.event_type, EventType::WebhookEndpointDisabled);
        assert_eq!(event.data["reason"], "operator");
        assert_eq!(
            event.data["webhookEndpointId"],
            WebhookEndpointId::from_u128(3).to_string()
        );
        assert!(event.data["failingSince"].is_null());
        Ok(true)
    });
    let change = WebhookEndpointChange {
        enabled: Some(false),
        ..WebhookEndpointChange::default()
    };
    let changed = mocks
        .build(true)
        .update_endpoint(&api_key_caller(Grant::All), WebhookEndpointId::from_u128(3), change)
        .await
        .expect("disabled");
    assert_eq!(changed.secret, None);
}

#[tokio::test]
async fn enabling_resets_health_and_a_concurrent_change_is_a_conflict() {
    let mut mocks = WebhookMocks::default();
    mocks.store.expect_find_endpoint().returning(|_, _| {
        let mut disabled = endpoint(3);
        disabled.enabled = false;
        disabled.disabled_reason = Some(DisableReason::Failing);
        disabled.failing_since = Some(NOW - Duration::days(6));
        Ok(Some(disabled))
    });
    mocks.store.expect_update_endpoint().times(1).returning(|u| {
        assert!(u.endpoint.enabled);
        assert!(u.endpoint.disabled_reason.is_none());
        assert!(u.endpoint.failing_since.is_none());
        assert!(u.reset_health);
        assert!(!u.cancel_pending);
        Ok(false)
    });
    let change = WebhookEndpointChange {
        enabled: Some(true),
        ..WebhookEndpointChange::default()
    };
    let error = mocks
        .build(true)
        .update_endpoint(&api_key_caller(Grant::All), WebhookEndpointId::from_u128(3), change)
        .await
        .expect_err("conflict");
    assert!(
        matches!(
            error,
            AppError::Conflict {
                code: ProblemCode::WebhookEndpointChanged,
                ..
            }
        ),
        "{error:?}"
    );
}

#[tokio::test]
async fn another_operators_endpoint_is_not_found() {
    let mut mocks = WebhookMocks::default();
    mocks
        .store
        .expect_find_endpoint()
        .withf(|op, _| *op == OPERATOR)
        .returning(|_, _| Ok(None));
    mocks.store.expect_update_endpoint().never();
    mocks.store.expect_delete_endpoint().returning(|_, _, _| Ok(false));
    let webhooks = mocks.build(true);
    let caller = api_key_caller(Grant::All);
    let id = WebhookEndpointId::from_u128(99);
    let update = webhooks
        .update_endpoint(&caller, id, WebhookEndpointChange::default())
        .await;
    assert!(matches!(update, Err(AppError::NotFound("webhook endpoint"))));
    let delete = webhooks.delete_endpoint(&caller, id).await;
    assert!(matches!(delete, Err(AppError::NotFound("webhook endpoint"))));
}

#[tokio::test]
async fn one_endpoint_is_read_within_the_callers_operator() {
    let mut mocks = WebhookMocks::default();
    mocks
        .store
        .expect_find_endpoint()
        .withf(|operator, id| *operator == OPERATOR && *id == WebhookEndpointId::from_u128(3))
        .times(1)
        .returning(|_, _| Ok(Some(endpoint(3))));
    mocks.store.expect_find_endpoint().returning(|_, _| Ok(None));
    let webhooks = mocks.build(true);
    let caller = api_key_caller(Grant::All);
    let found = webhooks
        .endpoint(&caller, WebhookEndpointId::from_u128(3))
        .await
        .expect("found");
    assert_eq!(found.id, WebhookEndpointId::from_u128(3));
    assert!(matches!(
        webhooks.endpoint(&caller, WebhookEndpointId::from_u128(4)).await,
        Err(AppError::NotFound("webhook endpoint"))
    ));
}
