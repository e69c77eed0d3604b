//! The dashboard over plain HTTP: who gets in, what a post must carry, what a member
//! without a scope meets, and what a refused form looks like.

use reqwest::Method;
use reqwest::header::{CONTENT_SECURITY_POLICY, CONTENT_TYPE, LOCATION, SET_COOKIE};
use serde_json::json;

use super::support::{PASSWORD, member, page, post, sign_in, token_of, with_cookie};
use crate::helpers::{json_with_status, spawn_app};

#[tokio::test]
async fn pages_need_a_session_and_sign_in_starts_one_in_a_strict_cookie() {
    let app = spawn_app().await;
    member(&app, "admin@example.com", &["*"]).await;

    let away = app
        .request(Method::GET, "/dashboard", None)
        .send()
        .await
        .expect("answers");
    assert_eq!(away.status(), 303);
    assert_eq!(away.headers()[LOCATION], "/dashboard/sign-in");

    let wrong = app
        .request(Method::POST, "/dashboard/sign-in", None)
        .form(&[("email", "admin@example.com"), ("password", "not the password at all")])
        .send()
        .await
        .expect("answers");
    assert_eq!(wrong.status(), 401);
    assert!(wrong.headers().get(SET_COOKIE).is_none());
    let body = wrong.text().await.expect("a body");
    assert!(body.contains("The e-mail address or the password is wrong."), "{body}");
    assert!(body.contains("value=\"admin@example.com\""), "the e-mail typed is kept");

    let response = app
        .request(Method::POST, "/dashboard/sign-in", None)
        .form(&[("email", "admin@example.com"), ("password", PASSWORD)])
        .send()
        .await
        .expect("answers");
    assert_eq!(response.status(), 303);
    let cookie = response.headers()[SET_COOKIE].to_str().expect("ascii");
    for attribute in ["opinion_session=", "HttpOnly", "SameSite=Strict", "Path=/dashboard"] {
        assert!(cookie.contains(attribute), "{cookie} has {attribute}");
    }

    let cookie = sign_in(&app, "admin@example.com").await;
    let overview = with_cookie(&app, Method::GET, "/dashboard", &cookie)
        .send()
        .await
        .expect("answers");
    assert_eq!(overview.status(), 200);
    let policy = overview.headers()[CONTENT_SECURITY_POLICY]
        .to_str()
        .expect("ascii")
        .to_owned();
    assert!(policy.starts_with("default-src 'self'"), "{policy}");
    assert!(
        policy.contains("form-action 'self'") && !policy.contains("unsafe"),
        "{policy}"
    );
    assert_eq!(overview.headers()["cache-control"], "no-store");
    let body = overview.text().await.expect("a body");
    assert!(!body.contains("<script>") && !body.contains("<style"), "nothing inline");

    let forged = app
        .request(Method::POST, "/dashboard/sign-in", None)
        .header("origin", "https://evil.example")
        .form(&[("email", "admin@example.com"), ("password", PASSWORD)])
        .send()
        .await
        .expect("answers");
    assert_eq!(forged.status(), 403, "a sign-in posted from another site");
}

#[tokio::test]
async fn a_post_without_its_sessions_form_token_changes_nothing() {
    let app = spawn_app().await;
    member(&app, "admin@example.com", &["*"]).await;
    member(&app, "other@example.com", &["*"]).await;
    let cookie = sign_in(&app, "admin@example.com").await;
    let other = sign_in(&app, "other@example.com").await;
    let (_, other_page) = page(&app, "/dashboard/api-keys", &other).await;
    let foreign_token = token_of(&other_page);

    for fields in [
        vec![("name", "no token"), ("scopes", "users:read")],
        vec![
            ("name", "foreign token"),
            ("scopes", "users:read"),
            ("_token", foreign_token.as_str()),
        ],
        vec![("name", "garbage"), ("scopes", "users:read"), ("_token", "00ff")],
    ] {
        let refused = post(&app, "/dashboard/api-keys", &cookie, &fields).await;
        assert_eq!(refused.status(), 403);
        assert!(
            refused.headers()[CONTENT_TYPE]
                .to_str()
                .expect("ascii")
                .starts_with("text/html")
        );
        assert!(refused.text().await.expect("body").contains("This form has expired"));
    }
    let keys = json_with_status(app.get("/api/operator/api-keys", &app.operator.key).await, 200).await;
    assert_eq!(
        keys["data"].as_array().expect("data").len(),
        1,
        "only the operator's first key"
    );

    let (_, own_page) = page(&app, "/dashboard/api-keys", &cookie).await;
    let token = token_of(&own_page);
    let created = post(
        &app,
        "/dashboard/api-keys",
        &cookie,
        &[("name", "reporting"), ("scopes", "users:read"), ("_token", &token)],
    )
    .await;
    assert_eq!(created.status(), 201);
    let body = created.text().await.expect("body");
    let secret = body
        .split("id=\"new-secret\">")
        .nth(1)
        .and_then(|rest| rest.split('<').next())
        .expect("the secret is shown");
    json_with_status(app.get("/api/operator/users", secret).await, 200).await;
}

#[tokio::test]
async fn a_member_neither_sees_nor_reaches_what_its_scopes_do_not_allow() {
    let app = spawn_app().await;
    member(&app, "viewer@example.com", &["webhooks:read"]).await;
    let cookie = sign_in(&app, "viewer@example.com").await;

    let (status, overview) = page(&app, "/dashboard", &cookie).await;
    assert_eq!(status, 200);
    assert!(overview.contains("href=\"/dashboard/webhooks\""));
    for hidden in ["/dashboard/api-keys", "/dashboard/wallet", "/dashboard/simulator"] {
        assert!(
            !overview.contains(&format!("href=\"{hidden}\"")),
            "{hidden} is not offered"
        );
    }

    let direct = with_cookie(&app, Method::GET, "/dashboard/api-keys", &cookie)
        .send()
        .await
        .expect("answers");
    assert_eq!(direct.status(), 403);
    assert!(
        direct.headers()[CONTENT_TYPE]
            .to_str()
            .expect("ascii")
            .starts_with("text/html")
    );
    let body = direct.text().await.expect("body");
    assert!(body.contains("Not allowed") && body.contains("api_keys:read"), "{body}");

    let (_, webhooks) = page(&app, "/dashboard/webhooks", &cookie).await;
    assert!(
        !webhooks.contains("Register endpoint"),
        "no form the member cannot send"
    );
    let token = token_of(&webhooks);
    let write = post(
        &app,
        "/dashboard/webhooks",
        &cookie,
        &[
            ("url", "https://receiver.example/hooks"),
            ("eventTypes", "mini_app.trade.processed"),
            ("_token", &token),
        ],
    )
    .await;
    assert_eq!(write.status(), 403);
    assert!(write.text().await.expect("body").contains("webhooks:write"));
}

#[tokio::test]
async fn signing_out_disabling_or_resetting_a_member_ends_its_dashboard_session() {
    let app = spawn_app().await;
    let admin = app.staff_session(&app.operator, "admin@example.com", &["*"]).await;
    let ops = member(&app, "ops@example.com", &["webhooks:read"]).await;

    let cookie = sign_in(&app, "ops@example.com").await;
    let (_, overview) = page(&app, "/dashboard", &cookie).await;
    let signed_out = post(
        &app,
        "/dashboard/sign-out",
        &cookie,
        &[("_token", &token_of(&overview))],
    )
    .await;
    assert_eq!(signed_out.status(), 303);
    assert_eq!(signed_out.headers()[LOCATION], "/dashboard/sign-in?signed_out=1");
    let after = with_cookie(&app, Method::GET, "/dashboard", &cookie)
        .send()
        .await
        .expect("answers");
    assert_eq!(after.status(), 303);
    assert_eq!(after.headers()[LOCATION], "/dashboard/sign-in?ended=1");

    let cookie = sign_in(&app, "ops@example.com").await;
    let reset = app
        .post_empty(&format!("/api/operator/staff/{ops}/reset-password"), &admin)
        .await;
    let password = json_with_status(reset, 200).await["temporaryPassword"]
        .as_str()
        .expect("a generated password")
        .to_owned();
    let after = with_cookie(&app, Method::GET, "/dashboard", &cookie)
        .send()
        .await
        .expect("answers");
    assert_eq!(after.headers()[LOCATION], "/dashboard/sign-in?ended=1");

    let signed_in = app
        .request(Method::POST, "/dashboard/sign-in", None)
        .form(&[("email", "ops@example.com"), ("password", password.as_str())])
        .send()
        .await
        .expect("answers");
    let cookie = signed_in.headers()[SET_COOKIE].to_str().expect("ascii");
    let cookie = cookie.split(';').next().expect("name=value").to_owned();
    assert_eq!(page(&app, "/dashboard", &cookie).await.0, 200);
    json_with_status(
        app.patch(
            &format!("/api/operator/staff/{ops}"),
            &admin,
            &json!({"disabled": true}),
        )
        .await,
        200,
    )
    .await;
    let after = with_cookie(&app, Method::GET, "/dashboard", &cookie)
        .send()
        .await
        .expect("answers");
    assert_eq!(after.headers()[LOCATION], "/dashboard/sign-in?ended=1");
    let disabled = app
        .request(Method::POST, "/dashboard/sign-in", None)
        .form(&[("email", "ops@example.com"), ("password", password.as_str())])
        .send()
        .await
        .expect("answers");
    assert_eq!(disabled.status(), 401);
    assert!(disabled.text().await.expect("body").contains("Membership disabled"));
}

#[tokio::test]
async fn a_refused_form_comes_back_as_typed_with_the_error_beside_its_field_and_nothing_written() {
    let app = spawn_app().await;
    member(&app, "admin@example.com", &["*"]).await;
    let cookie = sign_in(&app, "admin@example.com").await;
    let (_, webhooks) = page(&app, "/dashboard/webhooks", &cookie).await;
    let token = token_of(&webhooks);

    let refused = post(
        &app,
        "/dashboard/webhooks",
        &cookie,
        &[
            ("url", "https://receiver.example/hooks"),
            ("description", "kept as typed"),
            ("maxAttempts", "99"),
            ("eventTypes", "mini_app.trade.processed"),
            ("_token", &token),
        ],
    )
    .await;
    assert_eq!(refused.status(), 400);
    let body = refused.text().await.expect("body");
    assert!(
        body.contains("id=\"maxAttempts\" name=\"maxAttempts\" type=\"number\" value=\"99\" aria-invalid=\"true\""),
        "{body}"
    );
    assert!(body.contains("value=\"kept as typed\""));
    assert!(
        body.contains("value=\"mini_app.trade.processed\" checked"),
        "ticked boxes stay ticked"
    );
    let error = body.split("id=\"maxAttempts-note\">").nth(1).expect("the field's note");
    assert!(error.starts_with("<span class=\"error\">"), "{error}");
    let endpoints = json_with_status(
        app.get("/api/operator/webhooks/endpoints", &app.operator.key).await,
        200,
    )
    .await;
    assert_eq!(endpoints["data"], json!([]), "nothing was written");

    let (_, keys) = page(&app, "/dashboard/api-keys", &cookie).await;
    let refused = post(
        &app,
        "/dashboard/api-keys",
        &cookie,
        &[("name", ""), ("scopes", "users:read"), ("_token", &token_of(&keys))],
    )
    .await;
    assert_eq!(refused.status(), 400);
    let body = refused.text().await.expect("body");
    assert!(
        body.contains("id=\"name\" name=\"name\" type=\"text\" value=\"\" aria-invalid=\"true\""),
        "{body}"
    );
}

#[tokio::test]
async fn a_member_never_grants_what_it_does_not_hold() {
    let app = spawn_app().await;
    member(
        &app,
        "manager@example.com",
        &["staffs:read", "staffs:write", "users:read"],
    )
    .await;
    let cookie = sign_in(&app, "manager@example.com").await;
    let (status, staff) = page(&app, "/dashboard/staff", &cookie).await;
    assert_eq!(status, 200);
    assert!(staff.contains("value=\"users:read\""), "its own scope is offered");
    assert!(
        !staff.contains("value=\"trades:read\""),
        "a scope it lacks is not offered"
    );
    assert!(!staff.contains("value=\"*\""), "nor everything");

    let refused = post(
        &app,
        "/dashboard/staff",
        &cookie,
        &[
            ("email", "new@example.com"),
            ("name", "New member"),
            ("scopes", "trades:read"),
            ("_token", &token_of(&staff)),
        ],
    )
    .await;
    assert_eq!(refused.status(), 403);
    let body = refused.text().await.expect("body");
    assert!(
        body.contains("class=\"alert\"") && body.contains("trades:read"),
        "{body}"
    );
    assert!(
        body.contains("value=\"new@example.com\""),
        "the form keeps what was typed"
    );
    let (_, listed) = page(&app, "/dashboard/staff", &cookie).await;
    assert!(!listed.contains("new@example.com"), "nobody was added");
}

#[tokio::test]
async fn a_list_filter_the_use_case_refuses_is_shown_beside_its_field() {
    let app = spawn_app().await;
    member(&app, "admin@example.com", &["*"]).await;
    let cookie = sign_in(&app, "admin@example.com").await;
    let (status, body) = page(&app, "/dashboard/trades?status=lost&from=2026-11-01", &cookie).await;
    assert_eq!(status, 400);
    assert!(
        body.contains("<select id=\"status\" name=\"status\" aria-invalid=\"true\">"),
        "{body}"
    );
    assert!(body.contains("value=\"2026-11-01\""), "the other filters are kept");
    let (status, _) = page(&app, "/dashboard/trades?status=executed&from=2026-11-01", &cookie).await;
    assert_eq!(status, 200);
}

#[tokio::test]
async fn an_unknown_dashboard_address_is_a_page() {
    let app = spawn_app().await;
    let missing = app
        .request(Method::GET, "/dashboard/no-such-page", None)
        .send()
        .await
        .expect("answers");
    assert_eq!(missing.status(), 404);
    assert!(
        missing.headers()[CONTENT_TYPE]
            .to_str()
            .expect("ascii")
            .starts_with("text/html")
    );
}
