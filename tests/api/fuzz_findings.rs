//! What the property-based fuzzing of the operator API (`scripts/fuzz.sh`) found, each
//! kept as a regression: a body that is not a JSON object, integers spelled as decimals,
//! a `null` for a field that cannot be cleared, an optional body documented as required,
//! closed sets the document did not list, and a simulator field of another operation.

use reqwest::Method;
use serde_json::{Value, json};

use crate::helpers::{TestApp, assert_problem, json_with_status, spawn_app};
use crate::simulator_support::{market, simulated_user};

const ENDPOINTS: &str = "/api/operator/webhooks/endpoints";

async fn document(app: &TestApp) -> Value {
    json_with_status(app.get("/api/operator/openapi.json", &app.operator.key).await, 200).await
}

async fn new_endpoint(app: &TestApp) -> Value {
    let body = json!({"url": "https://hooks.example.invalid/", "eventTypes": ["mini_app.trade.failed"]});
    json_with_status(app.post(ENDPOINTS, &app.operator.key, &body).await, 201).await
}

#[tokio::test]
async fn a_json_array_is_no_body_of_a_change_and_changes_nothing() {
    let app = spawn_app().await;
    let endpoint = new_endpoint(&app).await;
    let path = format!("{ENDPOINTS}/{}", endpoint["id"].as_str().expect("id"));
    for body in [
        json!([null, null]),
        json!([]),
        json!(["https://other.example.invalid/"]),
    ] {
        let refused = assert_problem(app.patch(&path, &app.operator.key, &body).await, 400, "invalid_body").await;
        assert!(
            refused["detail"].as_str().is_some_and(|d| d.contains("JSON object")),
            "{refused}"
        );
    }
    let after = json_with_status(app.get(ENDPOINTS, &app.operator.key).await, 200).await;
    assert_eq!(after["data"][0]["url"], endpoint["url"]);
    assert_eq!(after["data"][0]["updatedAt"], endpoint["updatedAt"]);

    let settings = app
        .request(Method::PUT, "/api/operator/launch-settings", Some(&app.operator.key))
        .json(&json!([[], []]))
        .send()
        .await
        .expect("request");
    assert_problem(settings, 400, "invalid_body").await;
    let test = app
        .post("/api/operator/wallet-adapter/test", &app.operator.key, &json!([]))
        .await;
    assert_problem(test, 400, "invalid_body").await;
}

#[tokio::test]
async fn an_integer_written_with_a_decimal_point_is_refused() {
    let app = spawn_app().await;
    let body = json!({"baseUrl": "https://wallet.example.invalid", "timeoutMs": 6315.0});
    let refused = app
        .request(Method::PUT, "/api/operator/wallet-adapter", Some(&app.operator.key))
        .json(&body)
        .send()
        .await
        .expect("request");
    assert_problem(refused, 400, "invalid_body").await;
}

#[tokio::test]
async fn null_for_a_setting_that_cannot_be_cleared_is_refused_and_documented_so() {
    let app = spawn_app().await;
    let endpoint = new_endpoint(&app).await;
    let path = format!("{ENDPOINTS}/{}", endpoint["id"].as_str().expect("id"));
    for field in ["maxAttempts", "timeoutSeconds"] {
        let refused = app.patch(&path, &app.operator.key, &json!({ field: null })).await;
        let problem = assert_problem(refused, 400, "validation_failed").await;
        assert_eq!(problem["field"], field);
        let schema = &document(&app).await["components"]["schemas"]["UpdateWebhookEndpointBody"]["properties"][field];
        assert_eq!(schema["type"], "integer", "{field}: {schema}");
    }
}

#[tokio::test]
async fn the_wallet_test_takes_no_body_as_its_document_says() {
    let app = spawn_app().await;
    let document = document(&app).await;
    let body = &document["paths"]["/api/operator/wallet-adapter/test"]["post"]["requestBody"];
    assert_eq!(body["required"], false, "{body}");
    // Without a body the test runs as with `{}` (here: refused alike, no wallet being
    // configured), never as a bad body.
    let empty = app
        .post_empty("/api/operator/wallet-adapter/test", &app.operator.key)
        .await;
    let defaults = app
        .post("/api/operator/wallet-adapter/test", &app.operator.key, &json!({}))
        .await;
    assert_eq!(empty.status(), defaults.status());
    let (empty, defaults): (Value, Value) = (empty.json().await.expect("JSON"), defaults.json().await.expect("JSON"));
    assert_eq!(empty["code"], defaults["code"], "{empty} {defaults}");
    assert!(
        empty["code"] != "invalid_body" && empty["code"] != "malformed_json",
        "{empty}"
    );
}

/// Every value of a closed set the document lists for a list's query parameter is
/// accepted, and a value outside it is refused: the sets come from the domain's own lists.
#[tokio::test]
async fn every_listed_value_of_a_query_parameter_is_accepted() {
    let app = spawn_app().await;
    let document = document(&app).await;
    let mut checked = 0;
    for (path, item) in document["paths"].as_object().expect("paths") {
        let Some(parameters) = item["get"]["parameters"].as_array() else {
            continue;
        };
        if path.contains('{') || !path.starts_with("/api/operator/") {
            continue;
        }
        for parameter in parameters.iter().filter(|p| p["in"] == "query") {
            let Some(values) = parameter["schema"]["enum"].as_array() else {
                continue;
            };
            let name = parameter["name"].as_str().expect("name");
            for value in values.iter().filter_map(Value::as_str) {
                let answer = app.get(&format!("{path}?{name}={value}"), &app.operator.key).await;
                assert_eq!(answer.status().as_u16(), 200, "{path}?{name}={value}");
                checked += 1;
            }
            let unlisted = app.get(&format!("{path}?{name}=unlisted"), &app.operator.key).await;
            assert_problem(unlisted, 400, "validation_failed").await;
        }
    }
    assert!(checked > 40, "only {checked} listed values");
}

#[tokio::test]
async fn a_field_of_another_operation_or_scenario_is_refused_and_nothing_runs() {
    let app = spawn_app().await;
    let key = app.operator.key.clone();
    let user = simulated_user(&app, &key, "player-1", 5_000).await;
    let id = user["id"].as_str().expect("id");

    let refused = app
        .post(
            "/api/operator/simulator/operations",
            &key,
            &json!({"scenario": "create_market", "question": "Rain tomorrow?", "resolution": ""}),
        )
        .await;
    let problem = assert_problem(refused, 400, "validation_failed").await;
    assert_eq!(problem["field"], "resolution");
    assert!(
        problem["detail"].as_str().unwrap_or_default().contains("create_market"),
        "{problem}"
    );
    let markets = json_with_status(app.get("/api/operator/markets", &key).await, 200).await;
    assert_eq!(markets["data"], json!([]), "no market was created");

    let refused = app
        .post(
            &format!("/api/operator/simulator/users/{id}/operations"),
            &key,
            &json!({"operation": "launch", "ticketId": "not-a-ticket"}),
        )
        .await;
    assert_eq!(
        assert_problem(refused, 400, "validation_failed").await["field"],
        "ticketId"
    );
    let refused = app
        .post(
            &format!("/api/operator/simulator/users/{id}/operations"),
            &key,
            &json!({"operation": "sell", "marketId": market(&app, &key).await, "outcome": "yes", "shares": "1", "amount": "5"}),
        )
        .await;
    assert_eq!(
        assert_problem(refused, 400, "validation_failed").await["field"],
        "amount"
    );
}

#[tokio::test]
async fn a_list_the_document_says_is_unique_refuses_an_entry_given_twice() {
    let app = spawn_app().await;
    let key = app.operator.key.clone();
    let refused = app
        .post(
            "/api/operator/api-keys",
            &key,
            &json!({"name": "twice", "scopes": ["users:read", "simulator:write", "users:read"]}),
        )
        .await;
    let problem = assert_problem(refused, 400, "validation_failed").await;
    assert_eq!(problem["field"], "scopes");
    assert!(
        problem["detail"]
            .as_str()
            .unwrap_or_default()
            .contains("`users:read` twice"),
        "{problem}"
    );
    let keys = json_with_status(app.get("/api/operator/api-keys", &key).await, 200).await;
    assert!(
        keys["data"]
            .as_array()
            .expect("keys")
            .iter()
            .all(|k| k["name"] != "twice"),
        "no key was created"
    );

    let user = simulated_user(&app, &key, "player-1", 5_000).await;
    let id = user["id"].as_str().expect("id");
    let body = json!({"scenario": "trade_batch", "marketId": market(&app, &key).await, "outcome": "yes", "shares": "1", "users": [id, id]});
    let refused = app.post("/api/operator/simulator/operations", &key, &body).await;
    assert_eq!(
        assert_problem(refused, 400, "validation_failed").await["field"],
        "users"
    );
    let trades = json_with_status(app.get("/api/operator/trades", &key).await, 200).await;
    assert_eq!(trades["data"], json!([]), "nobody traded");
}
