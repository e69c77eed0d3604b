//! What a key read tells about the key: its environment, and when, from which address
//! and with which user agent it was last used. A use is written at most once a minute
//! per key, and a key of one environment is refused by every other.

use opinion_access::{ApiKeyEnvironment, ApiKeySecret};
use reqwest::Method;
use serde_json::{Value, json};

use crate::helpers::{
    TestApp, assert_problem, json_with_status, spawn_app, spawn_configured_app, spawn_production_app,
};

/// A new `api_keys:read` key of the first operator: its id and secret.
async fn new_key(app: &TestApp) -> (String, String) {
    let created = json_with_status(
        app.post(
            "/api/operator/api-keys",
            &app.operator.key,
            &json!({"name": "reporting", "scopes": ["api_keys:read"]}),
        )
        .await,
        201,
    )
    .await;
    assert_eq!(created["environment"], "dev", "{created}");
    assert!(
        created["lastUsedAt"].is_null() && created["lastUsedIp"].is_null(),
        "{created}"
    );
    assert!(created["lastUsedUserAgent"].is_null(), "{created}");
    let id = created["id"].as_str().expect("id").to_owned();
    (id, created["secret"].as_str().expect("secret").to_owned())
}

/// One use of `secret` with `agent`, and what a forwarding client claims its address is.
async fn use_key(app: &TestApp, secret: &str, agent: &str, forwarded_for: &str) {
    let response = app
        .request(Method::GET, "/api/operator/api-keys?limit=1", Some(secret))
        .header("user-agent", agent)
        .header("x-forwarded-for", forwarded_for)
        .send()
        .await
        .expect("request");
    json_with_status(response, 200).await;
}

/// Key `id` as the operator's own key reads it.
async fn read_key(app: &TestApp, id: &str) -> Value {
    let listed = json_with_status(app.get("/api/operator/api-keys", &app.operator.key).await, 200).await;
    listed["data"]
        .as_array()
        .expect("data")
        .iter()
        .find(|key| key["id"] == id)
        .cloned()
        .expect("the key is listed")
}

#[tokio::test]
async fn a_key_read_shows_its_last_use_and_a_second_use_within_the_minute_writes_nothing() {
    let app = spawn_app().await;
    let (id, secret) = new_key(&app).await;

    use_key(&app, &secret, "reporting-job/1.0", "203.0.113.9").await;
    let used = read_key(&app, &id).await;
    assert_eq!(used["environment"], "dev");
    assert!(used["lastUsedAt"].is_string(), "{used}");
    assert_eq!(
        used["lastUsedIp"], "127.0.0.1",
        "the peer, not what an untrusted client forwarded"
    );
    assert_eq!(used["lastUsedUserAgent"], "reporting-job/1.0");

    use_key(&app, &secret, "another-job/2.0", "198.51.100.1").await;
    let again = read_key(&app, &id).await;
    assert_eq!(
        (&again["lastUsedAt"], &again["lastUsedIp"], &again["lastUsedUserAgent"]),
        (&used["lastUsedAt"], &used["lastUsedIp"], &used["lastUsedUserAgent"]),
        "a use within a minute of the recorded one is not written"
    );
}

#[tokio::test]
async fn a_long_user_agent_is_recorded_cut_to_256_characters() {
    let app = spawn_app().await;
    let (id, secret) = new_key(&app).await;
    let long = "a".repeat(1_000);
    use_key(&app, &secret, &long, "").await;
    let used = read_key(&app, &id).await;
    assert_eq!(used["lastUsedUserAgent"].as_str(), Some(&long[..256]));
}

#[tokio::test]
async fn behind_a_trusted_proxy_the_forwarded_client_address_is_recorded() {
    let app = spawn_configured_app(|config| opinion::config::Config {
        trusted_proxies: "127.0.0.1".into(),
        ..config
    })
    .await;
    let (id, secret) = new_key(&app).await;
    use_key(&app, &secret, "behind-proxy/1.0", "6.6.6.6, 203.0.113.9").await;
    let used = read_key(&app, &id).await;
    assert_eq!(
        used["lastUsedIp"], "203.0.113.9",
        "the hop the trusted proxy saw, not what the client wrote before it"
    );
}

#[tokio::test]
async fn a_key_of_one_environment_is_refused_by_another_with_a_problem_saying_so() {
    let development = spawn_app().await;
    let production = spawn_production_app().await;
    assert!(production.operator.key.starts_with("opk_live_"));
    assert!(development.operator.key.starts_with("opk_dev_"));
    let staging = ApiKeySecret::generate(ApiKeyEnvironment::Staging, [1; 32]);
    assert!(staging.expose().starts_with("opk_test_"));

    let cases = [
        (&production, development.operator.key.as_str(), "`dev`", "`live`"),
        (&production, staging.expose(), "`test`", "`live`"),
        (&development, production.operator.key.as_str(), "`live`", "`dev`"),
        (&development, staging.expose(), "`test`", "`dev`"),
    ];
    for (app, key, presented, accepted) in cases {
        let problem = assert_problem(
            app.get("/api/operator/api-keys", key).await,
            401,
            "api_key_wrong_environment",
        )
        .await;
        let detail = problem["detail"].as_str().expect("detail");
        assert!(detail.contains(presented) && detail.contains(accepted), "{detail}");
    }
    let own = json_with_status(
        production.get("/api/operator/api-keys", &production.operator.key).await,
        200,
    )
    .await;
    assert_eq!(own["data"][0]["environment"], "live");
}
