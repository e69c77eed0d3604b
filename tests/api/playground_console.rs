//! The documentation's playground console (its requests carry `opinion-playground`): in
//! production its writes are refused until the operator turns it on, while its reads and
//! the same key's other calls never are; elsewhere it sends everything. And the setting's
//! own routes: their scopes and their answers to bad input.

use reqwest::{Method, Response};
use serde_json::{Value, json};

use crate::helpers::{TestApp, assert_problem, json_with_status, spawn_app, spawn_production_app};

const KEYS: &str = "/api/operator/api-keys";
const SETTING: &str = "/api/operator/playground";

/// A request as the console sends it.
async fn from_console(app: &TestApp, method: Method, path: &str, key: &str, body: Option<&Value>) -> Response {
    let request = app
        .request(method, path, Some(key))
        .header("opinion-playground", "console");
    match body {
        Some(body) => request.json(body),
        None => request,
    }
    .send()
    .await
    .expect("request")
}

async fn put_setting(app: &TestApp, key: &str, body: &Value) -> Response {
    app.request(Method::PUT, SETTING, Some(key))
        .json(body)
        .send()
        .await
        .expect("put")
}

async fn key_count(app: &TestApp) -> usize {
    let listed = json_with_status(app.get(KEYS, &app.operator.key).await, 200).await;
    listed["data"].as_array().expect("data").len()
}

fn new_key(scopes: &[&str]) -> Value {
    json!({"name": "from the docs", "scopes": scopes})
}

#[tokio::test]
async fn in_production_the_console_writes_only_once_the_operator_turns_it_on() {
    let app = spawn_production_app().await;
    let key = app.operator.key.clone();
    let body = new_key(&["markets:read"]);

    let refused = from_console(&app, Method::POST, KEYS, &key, Some(&body)).await;
    let problem = assert_problem(refused, 403, "playground_read_only").await;
    assert!(
        problem["detail"]
            .as_str()
            .is_some_and(|detail| detail.contains(SETTING))
    );
    assert_eq!(key_count(&app).await, 1, "nothing was written");
    json_with_status(from_console(&app, Method::GET, KEYS, &key, None).await, 200).await;
    json_with_status(app.post(KEYS, &key, &body).await, 201).await;
    assert_eq!(key_count(&app).await, 2, "the key's own calls are not the console's");

    let setting = json_with_status(put_setting(&app, &key, &json!({"console": "read_write"})).await, 200).await;
    assert_eq!(setting["console"], "read_write");
    assert!(setting["updatedAt"].is_string());
    json_with_status(from_console(&app, Method::POST, KEYS, &key, Some(&body)).await, 201).await;

    json_with_status(put_setting(&app, &key, &json!({"console": "read_only"})).await, 200).await;
    let refused = from_console(&app, Method::POST, KEYS, &key, Some(&body)).await;
    assert_problem(refused, 403, "playground_read_only").await;
}

#[tokio::test]
async fn outside_production_the_console_sends_everything() {
    let app = spawn_app().await;
    let key = app.operator.key.clone();
    let setting = json_with_status(app.get(SETTING, &key).await, 200).await;
    assert_eq!(setting, json!({"console": "read_only", "updatedAt": null}));
    let body = new_key(&["markets:read"]);
    json_with_status(from_console(&app, Method::POST, KEYS, &key, Some(&body)).await, 201).await;
}

#[tokio::test]
async fn the_setting_takes_its_scopes_and_refuses_what_is_no_choice() {
    let app = spawn_app().await;
    let key = app.operator.key.clone();
    let problem = assert_problem(
        put_setting(&app, &key, &json!({"console": "on"})).await,
        400,
        "validation_failed",
    )
    .await;
    assert_eq!(problem["field"], "console");
    let extra = json!({"console": "read_write", "extra": true});
    assert_problem(put_setting(&app, &key, &extra).await, 400, "invalid_body").await;
    let setting = json_with_status(app.get(SETTING, &key).await, 200).await;
    assert_eq!(setting["updatedAt"], Value::Null, "nothing was written");

    let created = json_with_status(app.post(KEYS, &key, &new_key(&["api_keys:read"])).await, 201).await;
    let reader = created["secret"].as_str().expect("secret");
    json_with_status(app.get(SETTING, reader).await, 200).await;
    let denied = put_setting(&app, reader, &json!({"console": "read_write"})).await;
    assert_problem(denied, 403, "insufficient_scope").await;
}
