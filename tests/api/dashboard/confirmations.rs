//! Destructive actions ask first: the button on the page leads to a confirmation page
//! (reading it changes nothing) whose form performs the action, and a member without the
//! write scope reaches neither.

use reqwest::Method;
use reqwest::header::LOCATION;
use serde_json::{Value, json};

use super::support::{PASSWORD, member, page, post, sign_in, token_of, with_cookie};
use crate::helpers::{TestApp, json_with_status, spawn_app};
use crate::webhooks_support::{DISABLED, register};

/// The first operator's endpoint `id` as the API lists it.
async fn endpoint(app: &TestApp, id: &str) -> Option<Value> {
    let listed = json_with_status(
        app.get("/api/operator/webhooks/endpoints", &app.operator.key).await,
        200,
    )
    .await;
    listed["data"]
        .as_array()
        .expect("data")
        .iter()
        .find(|endpoint| endpoint["id"] == id)
        .cloned()
}

#[tokio::test]
async fn revoking_a_key_asks_first_and_only_the_confirming_form_revokes_it() {
    let app = spawn_app().await;
    member(&app, "admin@example.com", &["*"]).await;
    member(&app, "reader@example.com", &["api_keys:read"]).await;
    let created = json_with_status(
        app.post(
            "/api/operator/api-keys",
            &app.operator.key,
            &json!({"name": "reporting", "scopes": ["users:read"]}),
        )
        .await,
        201,
    )
    .await;
    let (id, secret) = (
        created["id"].as_str().expect("id"),
        created["secret"].as_str().expect("secret"),
    );
    let confirm_path = format!("/dashboard/api-keys/{id}/revoke");
    let cookie = sign_in(&app, "admin@example.com").await;

    let (_, list) = page(&app, "/dashboard/api-keys", &cookie).await;
    assert!(list.contains(&format!("href=\"{confirm_path}\"")), "{list}");
    assert!(
        !list.contains(&format!("action=\"{confirm_path}\"")),
        "the list holds no form that revokes at once"
    );

    let (status, confirmation) = page(&app, &confirm_path, &cookie).await;
    assert_eq!(status, 200);
    assert!(confirmation.contains("Revoke the key “reporting”"), "{confirmation}");
    assert!(confirmation.contains(&format!("<form method=\"post\" action=\"{confirm_path}\">")));
    assert!(confirmation.contains("href=\"/dashboard/api-keys\">Cancel</a>"));
    json_with_status(app.get("/api/operator/users", secret).await, 200).await;

    let reader = sign_in(&app, "reader@example.com").await;
    let (_, reader_list) = page(&app, "/dashboard/api-keys", &reader).await;
    assert!(!reader_list.contains(&confirm_path), "no revoke without api_keys:write");
    let (status, refused) = page(&app, &confirm_path, &reader).await;
    assert_eq!(status, 403);
    assert!(refused.contains("api_keys:write"), "{refused}");
    let refused = post(&app, &confirm_path, &reader, &[("_token", &token_of(&reader_list))]).await;
    assert_eq!(refused.status(), 403);
    json_with_status(app.get("/api/operator/users", secret).await, 200).await;

    let unknown = format!("/dashboard/api-keys/{}/revoke", opinion_core::ApiKeyId::from_u128(7));
    assert_eq!(page(&app, &unknown, &cookie).await.0, 404, "no such key");

    let revoked = post(&app, &confirm_path, &cookie, &[("_token", &token_of(&confirmation))]).await;
    assert_eq!(revoked.status(), 303);
    assert_eq!(revoked.headers()[LOCATION], "/dashboard/api-keys");
    assert_eq!(app.get("/api/operator/users", secret).await.status(), 401);
}

#[tokio::test]
async fn disabling_rotating_and_deleting_an_endpoint_ask_first() {
    let app = spawn_app().await;
    member(&app, "admin@example.com", &["*"]).await;
    member(&app, "viewer@example.com", &["webhooks:read"]).await;
    let registered = register(&app, &app.operator, "https://receiver.example/hooks", &[DISABLED]).await;
    let path = format!("/dashboard/webhooks/{}", registered.id);
    let cookie = sign_in(&app, "admin@example.com").await;

    let (_, edit) = page(&app, &path, &cookie).await;
    for action in ["disable", "rotate", "delete"] {
        assert!(edit.contains(&format!("href=\"{path}/{action}\"")), "{action}: {edit}");
        assert!(
            !edit.contains(&format!("action=\"{path}/{action}\"")),
            "{action} is not a form on the endpoint's page"
        );
        let (status, confirmation) = page(&app, &format!("{path}/{action}"), &cookie).await;
        assert_eq!(status, 200, "{action}");
        assert!(
            confirmation.contains("https://receiver.example/hooks?"),
            "{confirmation}"
        );
        assert!(confirmation.contains(&format!("action=\"{path}/{action}\"")));
        assert!(confirmation.contains(&format!("href=\"{path}\">Cancel</a>")));
    }
    assert_eq!(
        endpoint(&app, &registered.id).await.expect("kept")["enabled"],
        true,
        "reading the confirmations changed nothing"
    );

    let viewer = sign_in(&app, "viewer@example.com").await;
    let (_, viewed) = page(&app, &path, &viewer).await;
    assert!(
        !viewed.contains(&format!("{path}/disable")),
        "no actions without webhooks:write"
    );
    for action in ["disable", "rotate", "delete"] {
        let (status, refused) = page(&app, &format!("{path}/{action}"), &viewer).await;
        assert_eq!(status, 403, "{action}");
        assert!(refused.contains("webhooks:write"));
    }

    let token = token_of(&edit);
    let disabled = post(&app, &format!("{path}/disable"), &cookie, &[("_token", &token)]).await;
    assert_eq!(disabled.status(), 303);
    assert_eq!(disabled.headers()[LOCATION], path.as_str());
    assert_eq!(endpoint(&app, &registered.id).await.expect("kept")["enabled"], false);
    let (_, edit) = page(&app, &path, &cookie).await;
    assert!(
        edit.contains(&format!("action=\"{path}/enable\"")),
        "enabling needs no confirmation"
    );
    let enabled = post(&app, &format!("{path}/enable"), &cookie, &[("_token", &token)]).await;
    assert_eq!(enabled.status(), 303);
    assert_eq!(endpoint(&app, &registered.id).await.expect("kept")["enabled"], true);

    let refused = post(
        &app,
        &format!("{path}/rotate"),
        &cookie,
        &[("secret", "not a whsec secret"), ("_token", &token)],
    )
    .await;
    assert_eq!(refused.status(), 400);
    let body = refused.text().await.expect("body");
    let note = body.split("id=\"secret-note\">").nth(1).expect("the field's note");
    assert!(note.starts_with("<span class=\"error\">"), "{note}");
    assert!(
        !body.contains("not a whsec secret"),
        "a typed secret is not written back"
    );
    assert_eq!(
        endpoint(&app, &registered.id).await.expect("kept")["previousSecretExpiresAt"],
        Value::Null,
        "nothing was rotated"
    );

    let own = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    let rotated = post(
        &app,
        &format!("{path}/rotate"),
        &cookie,
        &[("secret", own), ("_token", &token)],
    )
    .await;
    assert_eq!(rotated.status(), 200);
    let body = rotated.text().await.expect("body");
    assert!(!body.contains("new-secret"), "an own secret is not shown back");
    assert!(!body.contains(own));
    assert_ne!(
        endpoint(&app, &registered.id).await.expect("kept")["previousSecretExpiresAt"],
        Value::Null,
        "rotated to the own secret, the old one still signing"
    );
    let generated = post(&app, &format!("{path}/rotate"), &cookie, &[("_token", &token)]).await;
    assert_eq!(generated.status(), 200);
    assert!(
        generated
            .text()
            .await
            .expect("body")
            .contains("id=\"new-secret\">whsec_"),
        "a generated secret is shown once"
    );

    let deleted = post(&app, &format!("{path}/delete"), &cookie, &[("_token", &token)]).await;
    assert_eq!(deleted.status(), 303);
    assert_eq!(deleted.headers()[LOCATION], "/dashboard/webhooks");
    assert!(endpoint(&app, &registered.id).await.is_none());
}

#[tokio::test]
async fn disabling_a_member_and_resetting_its_password_ask_first() {
    let app = spawn_app().await;
    member(&app, "admin@example.com", &["*"]).await;
    member(&app, "reader@example.com", &["staffs:read"]).await;
    let ops = member(&app, "ops@example.com", &["users:read"]).await;
    let path = format!("/dashboard/staff/{ops}");
    let cookie = sign_in(&app, "admin@example.com").await;
    let ops_cookie = sign_in(&app, "ops@example.com").await;

    let (_, edit) = page(&app, &path, &cookie).await;
    assert!(
        !edit.contains("name=\"disabled\""),
        "disabling is not a box of the form"
    );
    for action in ["disable", "reset-password"] {
        assert!(edit.contains(&format!("href=\"{path}/{action}\"")), "{action}");
        let (status, confirmation) = page(&app, &format!("{path}/{action}"), &cookie).await;
        assert_eq!(status, 200);
        assert!(confirmation.contains("ops@example.com"), "{confirmation}");
        assert!(confirmation.contains(&format!("action=\"{path}/{action}\"")));
        assert!(confirmation.contains(&format!("href=\"{path}\">Cancel</a>")));
    }
    assert_eq!(
        page(&app, "/dashboard", &ops_cookie).await.0,
        200,
        "nothing ended by asking"
    );

    let reader = sign_in(&app, "reader@example.com").await;
    for action in ["disable", "reset-password"] {
        let (status, refused) = page(&app, &format!("{path}/{action}"), &reader).await;
        assert_eq!(status, 403);
        assert!(refused.contains("staffs:write"));
    }

    let token = token_of(&edit);
    let reset = post(&app, &format!("{path}/reset-password"), &cookie, &[("_token", &token)]).await;
    assert_eq!(reset.status(), 200);
    assert!(reset.text().await.expect("body").contains("id=\"new-secret\""));
    let after = with_cookie(&app, Method::GET, "/dashboard", &ops_cookie)
        .send()
        .await
        .expect("answers");
    assert_eq!(
        after.headers()[LOCATION],
        "/dashboard/sign-in?ended=1",
        "its session ended"
    );
    let refused = app
        .request(Method::POST, "/dashboard/sign-in", None)
        .form(&[("email", "ops@example.com"), ("password", PASSWORD)])
        .send()
        .await
        .expect("answers");
    assert_eq!(refused.status(), 401, "the old password stopped working");

    let disabled = post(&app, &format!("{path}/disable"), &cookie, &[("_token", &token)]).await;
    assert_eq!(disabled.status(), 303);
    let (_, edit) = page(&app, &path, &cookie).await;
    assert!(edit.contains("badge bad\">disabled"), "{edit}");
    assert!(edit.contains(&format!("action=\"{path}/enable\"")));
    let enabled = post(&app, &format!("{path}/enable"), &cookie, &[("_token", &token)]).await;
    assert_eq!(enabled.status(), 303);
    let (_, edit) = page(&app, &path, &cookie).await;
    assert!(edit.contains("badge good\">active"), "{edit}");
}
