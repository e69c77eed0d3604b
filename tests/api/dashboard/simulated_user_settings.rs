//! A simulated user's page sets its wallet's balance and changes its name and state with
//! the API's use cases: the API then answers what the page did, a refusal comes back
//! beside its field with nothing written, a member without `simulator:write` neither sees
//! nor posts the forms, and production has none of it.

use reqwest::header::LOCATION;
use serde_json::Value;

use super::support::{member, page, post, refused_beside, sign_in, token_of};
use crate::helpers::{TestApp, json_with_status, spawn_app, spawn_production_app};
use crate::simulator_support::simulated_user;

/// The simulated wallet of `external_user_id` as the API answers it.
async fn wallet(app: &TestApp, external_user_id: &str) -> Value {
    let path = format!("/api/operator/simulator/wallets/{external_user_id}");
    json_with_status(app.get(&path, &app.operator.key).await, 200).await
}

/// The simulated user `id` as the API answers it.
async fn simulated(app: &TestApp, id: &str) -> Value {
    let path = format!("/api/operator/simulator/users/{id}");
    json_with_status(app.get(&path, &app.operator.key).await, 200).await
}

#[tokio::test]
async fn the_balance_form_sets_the_wallet_as_the_api_does_and_a_refusal_writes_nothing() {
    let app = spawn_app().await;
    member(&app, "admin@example.com", &["*"]).await;
    member(&app, "reader@example.com", &["simulator:read"]).await;
    let user = simulated_user(&app, &app.operator.key, "sim-1", 5_000).await;
    let id = user["id"].as_str().expect("id").to_owned();
    let path = format!("/dashboard/simulator/users/{id}");
    let cookie = sign_in(&app, "admin@example.com").await;
    let (status, form) = page(&app, &path, &cookie).await;
    assert_eq!(status, 200);
    assert!(form.contains(&format!("action=\"{path}/balance\"")), "{form}");
    assert!(
        form.contains("name=\"balance\" type=\"text\" value=\"5000\""),
        "the balance now"
    );
    let token = token_of(&form);

    let set = post(
        &app,
        &format!("{path}/balance"),
        &cookie,
        &[("balance", "12345"), ("_token", &token)],
    )
    .await;
    assert_eq!(set.status(), 303);
    assert_eq!(set.headers()[LOCATION], path.as_str());
    let answered = wallet(&app, "sim-1").await;
    assert_eq!(answered["balance"], "12345", "{answered}");
    assert_eq!(simulated(&app, &id).await["balance"], "12345");
    let (_, shown) = page(&app, &path, &cookie).await;
    assert!(shown.contains("name=\"balance\" type=\"text\" value=\"12345\""));

    for (typed, says) in [
        ("-5", "must be an integer string of minor units"),
        ("1000000000000001", "must be between 0 and 10^15 minor units"),
    ] {
        let refused = post(
            &app,
            &format!("{path}/balance"),
            &cookie,
            &[("balance", typed), ("_token", &token)],
        )
        .await;
        assert_eq!(refused.status(), 400, "{typed}");
        let body = refused.text().await.expect("body");
        assert!(refused_beside(&body, "balance"), "{typed}: {body}");
        assert!(body.contains(says), "{typed}: {body}");
        assert!(body.contains(&format!("value=\"{typed}\"")), "kept as typed");
        assert_eq!(wallet(&app, "sim-1").await["balance"], "12345", "nothing written");
    }

    let reader = sign_in(&app, "reader@example.com").await;
    let (status, read_only) = page(&app, &path, &reader).await;
    assert_eq!(status, 200);
    assert!(
        !read_only.contains("name=\"balance\""),
        "no form without simulator:write"
    );
    let denied = post(
        &app,
        &format!("{path}/balance"),
        &reader,
        &[("balance", "1"), ("_token", &token_of(&read_only))],
    )
    .await;
    assert_eq!(denied.status(), 403);
    assert!(denied.text().await.expect("body").contains("simulator:write"));
    assert_eq!(wallet(&app, "sim-1").await["balance"], "12345", "nothing written");
}

#[tokio::test]
async fn the_change_form_renames_and_disables_as_the_api_does_and_a_refusal_writes_nothing() {
    let app = spawn_app().await;
    member(&app, "admin@example.com", &["*"]).await;
    member(&app, "reader@example.com", &["simulator:read"]).await;
    let user = simulated_user(&app, &app.operator.key, "sim-1", 5_000).await;
    let id = user["id"].as_str().expect("id").to_owned();
    let path = format!("/dashboard/simulator/users/{id}");
    let cookie = sign_in(&app, "admin@example.com").await;
    let (_, form) = page(&app, &path, &cookie).await;
    assert!(form.contains(&format!("action=\"{path}/change\"")), "{form}");
    let token = token_of(&form);

    let changed = post(
        &app,
        &format!("{path}/change"),
        &cookie,
        &[("displayName", "Ana Test"), ("disabled", "true"), ("_token", &token)],
    )
    .await;
    assert_eq!(changed.status(), 303);
    assert_eq!(changed.headers()[LOCATION], path.as_str());
    let answered = simulated(&app, &id).await;
    assert_eq!(answered["displayName"], "Ana Test", "{answered}");
    assert_eq!(answered["disabled"], true);
    assert_eq!(wallet(&app, "sim-1").await["disabled"], true, "its wallet refuses it");
    let (_, shown) = page(&app, &path, &cookie).await;
    assert!(shown.contains("value=\"Ana Test\""), "{shown}");
    assert!(
        shown.contains("name=\"disabled\" value=\"true\" checked"),
        "the state now: {shown}"
    );

    let enabled = post(
        &app,
        &format!("{path}/change"),
        &cookie,
        &[("displayName", " "), ("_token", &token)],
    )
    .await;
    assert_eq!(enabled.status(), 303);
    let answered = simulated(&app, &id).await;
    assert_eq!(answered["disabled"], false, "unticked: enabled again");
    assert_eq!(answered["displayName"], "Ana Test", "a blank name keeps it");

    let long = "n".repeat(201);
    let refused = post(
        &app,
        &format!("{path}/change"),
        &cookie,
        &[("displayName", &long), ("disabled", "true"), ("_token", &token)],
    )
    .await;
    assert_eq!(refused.status(), 400);
    let body = refused.text().await.expect("body");
    assert!(refused_beside(&body, "displayName"), "{body}");
    assert!(body.contains(&format!("value=\"{long}\"")), "kept as typed");
    assert!(
        body.contains("name=\"disabled\" value=\"true\" checked"),
        "the box stays ticked as posted"
    );
    let answered = simulated(&app, &id).await;
    assert_eq!(
        (&answered["displayName"], &answered["disabled"]),
        (&Value::from("Ana Test"), &Value::from(false)),
        "nothing written"
    );

    let reader = sign_in(&app, "reader@example.com").await;
    let (_, read_only) = page(&app, &path, &reader).await;
    assert!(
        !read_only.contains(&format!("{path}/change")),
        "no form without simulator:write"
    );
    let denied = post(
        &app,
        &format!("{path}/change"),
        &reader,
        &[("disabled", "true"), ("_token", &token_of(&read_only))],
    )
    .await;
    assert_eq!(denied.status(), 403);
    assert!(denied.text().await.expect("body").contains("simulator:write"));
    assert_eq!(simulated(&app, &id).await["disabled"], false, "nothing written");
}

#[tokio::test]
async fn production_has_no_simulated_user_forms() {
    let mut app = spawn_production_app().await;
    app.client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("client");
    member(&app, "admin@example.com", &["*"]).await;
    let cookie = sign_in(&app, "admin@example.com").await;
    let (_, overview) = page(&app, "/dashboard", &cookie).await;
    assert!(!overview.contains("/dashboard/simulator"), "not in the navigation");
    let token = token_of(&overview);
    let path = "/dashboard/simulator/users/smu_01jdz3qv6mz8x5c0a2t5d4e7f9";
    assert_eq!(page(&app, path, &cookie).await.0, 404);
    for (action, fields) in [
        ("balance", [("balance", "100"), ("_token", token.as_str())]),
        ("change", [("disabled", "true"), ("_token", token.as_str())]),
    ] {
        let refused = post(&app, &format!("{path}/{action}"), &cookie, &fields).await;
        assert_eq!(refused.status(), 404, "{action}");
    }
}
