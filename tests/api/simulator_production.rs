//! In production the simulator does not exist: every simulator route answers 404
//! `not_available_in_production`, whatever the credential, while the scopes of every
//! other route still apply.

use opinion_access::ROUTES;
use reqwest::Method;
use serde_json::json;

use crate::helpers::{assert_problem, spawn_production_app};

#[tokio::test]
async fn every_simulator_route_answers_404_in_production() {
    let app = spawn_production_app().await;
    let restricted = app.key_with(&["users:read"]).await;
    for spec in ROUTES
        .iter()
        .filter(|spec| spec.path.starts_with("/api/operator/simulator/"))
    {
        let path = spec
            .path
            .replace("{id}", "smu_01jdz3qv6mz8x5c0a2t5d4e7f9")
            .replace("{externalUserId}", "player-1");
        for credential in [Some(app.operator.key.as_str()), Some(restricted.as_str()), None] {
            let method = Method::from_bytes(spec.method.as_str().as_bytes()).expect("method");
            let response = app
                .request(method, &path, credential)
                .json(&json!({}))
                .send()
                .await
                .expect("call");
            assert_problem(response, 404, "not_available_in_production").await;
        }
    }
    let wallet = format!("/simulator-wallet/{}/v1/balance", app.operator.id);
    let response = app
        .request(Method::POST, &wallet, None)
        .json(&json!({}))
        .send()
        .await
        .expect("call");
    assert_problem(response, 404, "not_available_in_production").await;

    let response = app
        .request(Method::GET, "/api/operator/users", Some(&restricted))
        .send()
        .await
        .expect("call");
    assert_eq!(response.status().as_u16(), 200, "other routes work");
    let response = app
        .request(Method::GET, "/api/operator/api-keys", Some(&restricted))
        .send()
        .await
        .expect("call");
    assert_problem(response, 403, "insufficient_scope").await;
}
