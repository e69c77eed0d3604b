//! Health, readiness, request ids and the OpenAPI document.

use opinion_access::ROUTES;
use reqwest::Method;

use crate::helpers::{json_with_status, spawn_app};

#[tokio::test]
async fn health_and_readiness() {
    let app = spawn_app().await;
    let health = app.request(Method::GET, "/healthz", None).send().await.expect("sent");
    assert_eq!(json_with_status(health, 200).await["status"], "ok");
    let ready = app.request(Method::GET, "/readyz", None).send().await.expect("sent");
    assert_eq!(json_with_status(ready, 200).await["status"], "ready");
}

#[tokio::test]
async fn every_response_carries_a_request_id_and_a_sane_incoming_one_is_kept() {
    let app = spawn_app().await;
    let generated = app.request(Method::GET, "/healthz", None).send().await.expect("sent");
    let id = generated
        .headers()
        .get("x-request-id")
        .and_then(|v| v.to_str().ok())
        .expect("id");
    assert!(id.starts_with("req_"), "{id}");
    let kept = app
        .request(Method::GET, "/healthz", None)
        .header("x-request-id", "trace-42")
        .send()
        .await
        .expect("sent");
    assert_eq!(
        kept.headers().get("x-request-id").and_then(|v| v.to_str().ok()),
        Some("trace-42")
    );
    let replaced = app
        .request(Method::GET, "/healthz", None)
        .header("x-request-id", "bad id\t!")
        .send()
        .await
        .expect("sent");
    assert_ne!(
        replaced.headers().get("x-request-id").and_then(|v| v.to_str().ok()),
        Some("bad id\t!")
    );
}

#[tokio::test]
async fn the_openapi_document_lists_every_route_publicly() {
    let app = spawn_app().await;
    let response = app
        .request(Method::GET, "/api/operator/openapi.json", None)
        .send()
        .await
        .expect("sent");
    let document = json_with_status(response, 200).await;
    assert_eq!(document["openapi"], "3.1.0");
    for spec in ROUTES {
        let operation = &document["paths"][spec.path][spec.method.as_str().to_ascii_lowercase()];
        assert!(operation.is_object(), "{} {}", spec.method.as_str(), spec.path);
    }
}
