//! `GET` and `PUT /api/operator/launch-settings` over HTTP: empty before the first change,
//! replaced whole, every bad entry refused by field with nothing written, a host one
//! operator's only and never the service's own.

use serde_json::{Value, json};

use crate::helpers::{TestApp, assert_problem, json_with_status, spawn_app, spawn_configured_app};

const PATH: &str = "/api/operator/launch-settings";

async fn put(app: &TestApp, key: &str, body: Value) -> reqwest::Response {
    app.request(reqwest::Method::PUT, PATH, Some(key))
        .json(&body)
        .send()
        .await
        .expect("request")
}

#[tokio::test]
async fn settings_are_empty_until_replaced_whole() {
    let app = spawn_app().await;
    let key = app.key_with(&["launch:write"]).await;
    let unset = json_with_status(app.get(PATH, &key).await, 200).await;
    assert_eq!(unset, json!({"hosts": [], "frameOrigins": [], "updatedAt": null}));

    let body = json!({
        "hosts": ["play.casino.example", "jogar.casino.example"],
        "frameOrigins": ["https://casino.example", "https://m.casino.example:8443"],
    });
    let saved = json_with_status(put(&app, &key, body.clone()).await, 200).await;
    assert_eq!(
        (&saved["hosts"], &saved["frameOrigins"]),
        (&body["hosts"], &body["frameOrigins"])
    );
    assert!(saved["updatedAt"].is_string(), "{saved}");
    assert_eq!(json_with_status(app.get(PATH, &key).await, 200).await, saved);

    let emptied = json_with_status(put(&app, &key, json!({"hosts": [], "frameOrigins": []})).await, 200).await;
    assert_eq!((&emptied["hosts"], &emptied["frameOrigins"]), (&json!([]), &json!([])));
}

#[tokio::test]
async fn bad_entries_are_refused_by_field_and_nothing_is_written() {
    let app = spawn_app().await;
    let key = &app.operator.key;
    let saved = json!({"hosts": ["play.casino.example"], "frameOrigins": ["https://casino.example"]});
    json_with_status(put(&app, key, saved.clone()).await, 200).await;
    let eleven: Vec<String> = (0..11).map(|n| format!("p{n}.casino.example")).collect();
    let cases = [
        (json!({"hosts": ["Play.Casino.example"], "frameOrigins": []}), "hosts"),
        (
            json!({"hosts": ["https://play.casino.example"], "frameOrigins": []}),
            "hosts",
        ),
        (
            json!({"hosts": ["play.casino.example:8443"], "frameOrigins": []}),
            "hosts",
        ),
        (
            json!({"hosts": ["play.casino.example/app"], "frameOrigins": []}),
            "hosts",
        ),
        (json!({"hosts": ["10.0.0.1"], "frameOrigins": []}), "hosts"),
        (
            json!({"hosts": ["a.example", "a.example"], "frameOrigins": []}),
            "hosts",
        ),
        (json!({"hosts": eleven, "frameOrigins": []}), "hosts"),
        (
            json!({"hosts": [], "frameOrigins": ["http://casino.example"]}),
            "frameOrigins",
        ),
        (
            json!({"hosts": [], "frameOrigins": ["https://casino.example/lobby"]}),
            "frameOrigins",
        ),
        (
            json!({"hosts": [], "frameOrigins": ["https://casino.example; script-src *"]}),
            "frameOrigins",
        ),
    ];
    for (body, field) in cases {
        let problem = assert_problem(put(&app, key, body.clone()).await, 400, "validation_failed").await;
        assert_eq!(problem["field"], field, "{body}");
    }
    for body in [
        json!({"hosts": []}),
        json!({"hosts": [], "frameOrigins": [], "extra": 1}),
    ] {
        assert_problem(put(&app, key, body).await, 400, "invalid_body").await;
    }
    let kept = json_with_status(app.get(PATH, key).await, 200).await;
    assert_eq!(
        (&kept["hosts"], &kept["frameOrigins"]),
        (&saved["hosts"], &saved["frameOrigins"])
    );
}

#[tokio::test]
async fn a_host_is_one_operators_only_and_never_the_services_own() {
    let app = spawn_configured_app(|config| opinion::config::Config {
        public_url: Some("https://opinion.example".into()),
        ..config
    })
    .await;
    let own = put(
        &app,
        &app.operator.key,
        json!({"hosts": ["opinion.example"], "frameOrigins": []}),
    )
    .await;
    let problem = assert_problem(own, 400, "validation_failed").await;
    assert_eq!(problem["field"], "hosts");

    json_with_status(
        put(
            &app,
            &app.operator.key,
            json!({"hosts": ["play.casino.example"], "frameOrigins": []}),
        )
        .await,
        200,
    )
    .await;
    let other = app.new_operator("Other operator").await;
    let grab = put(
        &app,
        &other.key,
        json!({"hosts": ["play.other.example", "play.casino.example"], "frameOrigins": []}),
    )
    .await;
    let problem = assert_problem(grab, 409, "launch_host_taken").await;
    assert!(
        problem["detail"]
            .as_str()
            .is_some_and(|d| d.contains("play.casino.example"))
    );
    let theirs = json_with_status(app.get(PATH, &other.key).await, 200).await;
    assert_eq!(theirs["hosts"], json!([]), "nothing of the refused change was written");
}
