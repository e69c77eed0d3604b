//! One operator can never see or change another's objects: the answer is 404, as if
//! the object did not exist.

use reqwest::Method;
use serde_json::json;

use crate::helpers::{assert_problem, json_with_status, spawn_app};

#[tokio::test]
async fn api_keys_of_another_operator_are_invisible_and_untouchable() {
    let app = spawn_app().await;
    let other = app.new_operator("Other operator").await;
    let theirs = json_with_status(
        app.post(
            "/api/operator/api-keys",
            &other.key,
            &json!({"name": "theirs", "scopes": ["users:read"]}),
        )
        .await,
        201,
    )
    .await;
    let path = format!("/api/operator/api-keys/{}/revoke", theirs["id"].as_str().expect("id"));
    assert_problem(app.post_empty(&path, &app.operator.key).await, 404, "not_found").await;
    let mine = json_with_status(app.get("/api/operator/api-keys", &app.operator.key).await, 200).await;
    assert!(!mine.to_string().contains(theirs["id"].as_str().expect("id")));
    let their_users = json_with_status(
        app.get("/api/operator/users", theirs["secret"].as_str().expect("secret"))
            .await,
        200,
    )
    .await;
    assert_eq!(their_users["data"], json!([]));
}

#[tokio::test]
async fn staff_of_another_operator_are_invisible_and_untouchable() {
    let app = spawn_app().await;
    let other = app.new_operator("Other operator").await;
    let mine = app.staff_session(&app.operator, "mine@example.com", &["*"]).await;
    let theirs = app.staff_session(&other, "theirs@example.com", &["*"]).await;
    let their_list = json_with_status(app.get("/api/operator/staff", &theirs).await, 200).await;
    let their_id = their_list["data"][0]["id"].as_str().expect("id").to_owned();

    let my_list = json_with_status(app.get("/api/operator/staff", &mine).await, 200).await;
    assert!(!my_list.to_string().contains(&their_id));
    let patch = app
        .request(Method::PATCH, &format!("/api/operator/staff/{their_id}"), Some(&mine))
        .json(&json!({"disabled": true}))
        .send()
        .await
        .expect("sent");
    assert_problem(patch, 404, "not_found").await;
    let reset = app
        .post_empty(&format!("/api/operator/staff/{their_id}/reset-password"), &mine)
        .await;
    assert_problem(reset, 404, "not_found").await;
    json_with_status(app.get("/api/operator/staff", &theirs).await, 200).await;
}
