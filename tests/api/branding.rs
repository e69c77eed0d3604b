//! `GET` and `PUT /api/operator/branding` over HTTP: the platform's brand until replaced
//! whole, every bad value refused naming its field with nothing written, a key without
//! `launch:write` refused; the player's app reads the brand in the launch's language; the
//! logo shows on the operator's launch host, whose page policy allows its origin alone.

use serde_json::{Value, json};

use crate::helpers::{TestApp, assert_problem, json_with_status, spawn_app};
use crate::trading_support::{player, player_of};

const PATH: &str = "/api/operator/branding";

async fn put(app: &TestApp, key: &str, body: &Value) -> reqwest::Response {
    app.request(reqwest::Method::PUT, PATH, Some(key))
        .json(body)
        .send()
        .await
        .expect("request")
}

fn brand() -> Value {
    json!({
        "name": "Casino Merah",
        "logoUrl": "https://cdn.casino.example/brand/logo.svg?v=2",
        "primaryColor": "#B91C1C",
        "accentColor": "#111827",
        "defaultLanguage": "id",
    })
}

#[tokio::test]
async fn the_brand_is_the_platforms_until_replaced_whole() {
    let app = spawn_app().await;
    let key = app.key_with(&["launch:write"]).await;
    let unset = json_with_status(app.get(PATH, &key).await, 200).await;
    assert_eq!(
        unset,
        json!({"name": "Opinion", "logoUrl": null, "primaryColor": "#2563eb", "accentColor": "#111827",
               "defaultLanguage": "en", "updatedAt": null})
    );

    let saved = json_with_status(put(&app, &key, &brand()).await, 200).await;
    assert_eq!(saved["primaryColor"], "#b91c1c", "colours are kept in lower case");
    assert_eq!(saved["logoUrl"], brand()["logoUrl"]);
    assert!(saved["updatedAt"].is_string(), "{saved}");
    assert_eq!(json_with_status(app.get(PATH, &key).await, 200).await, saved);

    let mut without_logo = brand();
    without_logo.as_object_mut().expect("object").remove("logoUrl");
    let replaced = json_with_status(put(&app, &key, &without_logo).await, 200).await;
    assert_eq!(replaced["logoUrl"], Value::Null, "replaced whole: {replaced}");
}

#[tokio::test]
async fn bad_values_are_refused_by_field_and_nothing_is_written() {
    let app = spawn_app().await;
    let key = &app.operator.key;
    let saved = json_with_status(put(&app, key, &brand()).await, 200).await;
    let with = |field: &str, value: Value| {
        let mut body = brand();
        body[field] = value;
        body
    };
    let cases = [
        (with("name", json!("")), "name"),
        (with("name", json!("x".repeat(61))), "name"),
        (with("name", json!(" Casino")), "name"),
        (with("logoUrl", json!("http://cdn.casino.example/logo.svg")), "logoUrl"),
        (
            with("logoUrl", json!("https://cdn.casino.example/a\"onerror=\"x")),
            "logoUrl",
        ),
        (
            with(
                "logoUrl",
                json!(format!("https://cdn.casino.example/{}", "x".repeat(500))),
            ),
            "logoUrl",
        ),
        (with("primaryColor", json!("red")), "primaryColor"),
        (with("accentColor", json!("#12345g")), "accentColor"),
        (with("accentColor", json!("#111827; background: url(x)")), "accentColor"),
        (with("defaultLanguage", json!("fr")), "defaultLanguage"),
    ];
    for (body, field) in cases {
        let problem = assert_problem(put(&app, key, &body).await, 400, "validation_failed").await;
        assert_eq!(problem["field"], field, "{problem}");
    }
    assert_problem(put(&app, key, &with("extra", json!(1))).await, 400, "invalid_body").await;
    assert_eq!(
        json_with_status(app.get(PATH, key).await, 200).await,
        saved,
        "nothing was written"
    );
}

#[tokio::test]
async fn a_key_without_launch_write_is_refused() {
    let app = spawn_app().await;
    let reader = app.key_with(&["users:read", "markets:write"]).await;
    assert_problem(app.get(PATH, &reader).await, 403, "insufficient_scope").await;
    assert_problem(put(&app, &reader, &brand()).await, 403, "insufficient_scope").await;
}

#[tokio::test]
async fn the_players_app_reads_the_brand_in_the_launchs_language_or_the_default() {
    let app = spawn_app().await;
    json_with_status(put(&app, &app.operator.key, &brand()).await, 200).await;
    let session = player(&app, "p").await;
    let read = |locale: &'static str| {
        let (app, session) = (&app, &session);
        async move { app.get(&format!("/api/player/branding{locale}"), session).await }
    };
    let english = json_with_status(read("?locale=en-GB").await, 200).await;
    assert_eq!(english["language"], "en");
    assert_eq!(english["name"], "Casino Merah");
    assert_eq!(english["primaryColor"], "#b91c1c");
    assert_eq!(english["primaryText"], "#ffffff", "white is readable on dark red");
    assert_eq!(english["currency"], "USD");
    assert_eq!(english["currencyDigits"], 2, "cents");
    let default = json_with_status(read("?locale=pt-BR").await, 200).await;
    assert_eq!(
        default["language"], "id",
        "a language the app does not speak: the operator's"
    );
    let none = json_with_status(read("").await, 200).await;
    assert_eq!(none["language"], "id");
    let bad = assert_problem(read("?locale=not%20a%20tag").await, 400, "validation_failed").await;
    assert_eq!(bad["field"], "locale");
}

#[tokio::test]
async fn the_players_app_counts_rupiah_whole() {
    let app = spawn_app().await;
    let operator = app.new_operator_in("Kasino", "IDR").await;
    let session = player_of(&app, &operator.key, "p").await;
    let brand = json_with_status(app.get("/api/player/branding", &session).await, 200).await;
    assert_eq!(
        (brand["currency"].clone(), brand["currencyDigits"].clone()),
        (json!("IDR"), json!(0))
    );
}

#[tokio::test]
async fn the_logo_shows_on_the_operators_launch_host_and_its_origin_alone_is_allowed() {
    let app = spawn_app().await;
    json_with_status(put(&app, &app.operator.key, &brand()).await, 200).await;
    let settings = json!({"hosts": ["play.casino.example"], "frameOrigins": ["https://casino.example"]});
    let configured = app
        .request(
            reqwest::Method::PUT,
            "/api/operator/launch-settings",
            Some(&app.operator.key),
        )
        .json(&settings)
        .send()
        .await
        .expect("request");
    json_with_status(configured, 200).await;
    let page = |host: Option<&'static str>| {
        let app = &app;
        async move {
            let mut request = app.request(reqwest::Method::GET, "/play", None);
            if let Some(host) = host {
                request = request.header("host", host);
            }
            let response = request.send().await.expect("request");
            let policy = response.headers()["content-security-policy"]
                .to_str()
                .expect("policy")
                .to_owned();
            (policy, response.text().await.expect("body"))
        }
    };

    let (policy, body) = page(Some("play.casino.example")).await;
    assert!(
        policy.contains("; img-src 'self' https://cdn.casino.example; "),
        "{policy}"
    );
    assert!(policy.ends_with("; frame-ancestors https://casino.example"), "{policy}");
    assert!(
        body.contains(r#"<img class="logo" src="https://cdn.casino.example/brand/logo.svg?v=2" alt="">"#),
        "{body}"
    );

    let (policy, body) = page(None).await;
    assert!(
        policy.contains("; img-src 'self'; "),
        "the public host allows no operator's images: {policy}"
    );
    assert!(!body.contains("<img"), "{body}");
}
