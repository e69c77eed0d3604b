//! The markets page shows the operator's visibility mode and changes it with the API's use
//! case: the API then answers the mode set and the same count of markets a change shows or
//! hides, a refused mode comes back beside its field with nothing changed, and a member
//! without `markets:write` sees the mode but neither sees nor posts the form.

use serde_json::{Value, json};

use super::support::{member, page, post, sign_in, token_of};
use crate::helpers::{TestApp, json_with_status, spawn_app};
use crate::trading_support::open_market;

const FORM: &str = "action=\"/dashboard/markets/visibility-mode\"";

/// The visibility mode as the API answers it.
async fn mode(app: &TestApp) -> Value {
    json_with_status(
        app.get("/api/operator/markets/visibility-mode", &app.operator.key)
            .await,
        200,
    )
    .await
}

#[tokio::test]
async fn the_markets_page_sets_the_mode_as_the_api_does_and_a_refusal_changes_nothing() {
    let app = spawn_app().await;
    member(&app, "admin@example.com", &["*"]).await;
    member(&app, "reader@example.com", &["markets:read"]).await;
    open_market(&app).await;
    open_market(&app).await;
    let cookie = sign_in(&app, "admin@example.com").await;
    let (status, markets) = page(&app, "/dashboard/markets", &cookie).await;
    assert_eq!(status, 200);
    assert!(markets.contains("Visibility mode: <code>blocklist</code>"), "{markets}");
    assert!(markets.contains(FORM));
    assert!(
        markets.contains("<option value=\"blocklist\" selected>"),
        "the mode now"
    );
    let token = token_of(&markets);

    let set = post(
        &app,
        "/dashboard/markets/visibility-mode",
        &cookie,
        &[("mode", "allowlist"), ("_token", &token)],
    )
    .await;
    assert_eq!(set.status(), 200);
    let body = set.text().await.expect("body");
    assert!(body.contains("Visibility mode: <code>allowlist</code>"), "{body}");
    assert!(
        body.contains("Markets not yet resolved it showed or hid: 2."),
        "both unset markets are hidden by an allowlist: {body}"
    );
    assert_eq!(mode(&app).await["mode"], "allowlist");
    let back = json_with_status(
        app.request(
            reqwest::Method::PUT,
            "/api/operator/markets/visibility-mode",
            Some(&app.operator.key),
        )
        .json(&json!({"mode": "blocklist"}))
        .send()
        .await
        .expect("sent"),
        200,
    )
    .await;
    assert_eq!(
        back["changedMarkets"], 2,
        "the API counts the way back the same: {back}"
    );

    let refused = post(
        &app,
        "/dashboard/markets/visibility-mode",
        &cookie,
        &[("mode", "everything"), ("_token", &token)],
    )
    .await;
    assert_eq!(refused.status(), 400);
    let body = refused.text().await.expect("body");
    let field = body.split("<select id=\"mode\"").nth(1).expect("the mode's field");
    assert!(field.starts_with(" name=\"mode\" aria-invalid=\"true\">"), "{field}");
    let note = field.split("</select>").nth(1).expect("after the field");
    assert!(
        note.starts_with("<p class=\"note\"><span class=\"error\">must be one of `all`, `allowlist`, `blocklist`"),
        "the error beside the field: {note}"
    );
    assert_eq!(mode(&app).await["mode"], "blocklist", "nothing changed");

    let reader = sign_in(&app, "reader@example.com").await;
    let (status, read_only) = page(&app, "/dashboard/markets", &reader).await;
    assert_eq!(status, 200);
    assert!(read_only.contains("Visibility mode: <code>blocklist</code>"));
    assert!(!read_only.contains(FORM), "no form without markets:write");
    let denied = post(
        &app,
        "/dashboard/markets/visibility-mode",
        &reader,
        &[("mode", "all"), ("_token", &token_of(&read_only))],
    )
    .await;
    assert_eq!(denied.status(), 403);
    assert!(denied.text().await.expect("body").contains("markets:write"));
    assert_eq!(mode(&app).await["mode"], "blocklist", "nothing changed");
}
