//! A player's page creates a portfolio link with the API's use case and shows it once: the
//! link opens the same page as a link the API hands out, a refused lifetime comes back
//! beside its field with no link, and a member without the scope neither sees nor posts
//! the form.

use serde_json::json;

use super::support::{member, page, post, refused_beside, sign_in, token_of};
use crate::helpers::{TestApp, json_with_status, spawn_app};
use crate::trading_support::player;

const PLAYER: &str = "/dashboard/users/player?externalUserId=ana";
const FORM: &str = "action=\"/dashboard/users/portfolio-link\"";

/// The link shown once in a page, if any.
fn link_in(html: &str) -> Option<String> {
    html.split("id=\"new-secret\">")
        .nth(1)
        .and_then(|rest| rest.split('<').next())
        .map(str::to_owned)
}

/// The page a portfolio link opens, without any credential.
async fn opened(app: &TestApp, url: &str) -> (u16, String) {
    let response = app.client.get(url).send().await.expect("sent");
    (response.status().as_u16(), response.text().await.expect("body"))
}

#[tokio::test]
async fn a_players_page_creates_a_link_like_the_apis_and_a_refusal_creates_none() {
    let app = spawn_app().await;
    member(&app, "admin@example.com", &["*"]).await;
    member(&app, "trader@example.com", &["trades:read"]).await;
    player(&app, "ana").await;
    let cookie = sign_in(&app, "admin@example.com").await;
    let (status, shown) = page(&app, PLAYER, &cookie).await;
    assert_eq!(status, 200);
    assert!(shown.contains(FORM), "{shown}");
    assert!(shown.contains("name=\"externalUserId\" value=\"ana\""));
    assert_eq!(link_in(&shown), None, "no link before one is asked for");
    let token = token_of(&shown);

    let created = post(
        &app,
        "/dashboard/users/portfolio-link",
        &cookie,
        &[
            ("externalUserId", "ana"),
            ("expiresInSeconds", "600"),
            ("_token", &token),
        ],
    )
    .await;
    assert_eq!(created.status(), 201);
    let body = created.text().await.expect("body");
    let url = link_in(&body).expect("the link, shown once");
    assert!(body.contains("data-copy=\"new-secret\""), "a copy button");
    let api = json_with_status(
        app.post(
            "/api/operator/users/portfolio-view",
            &app.operator.key,
            &json!({"externalUserId": "ana", "expiresInSeconds": 600}),
        )
        .await,
        201,
    )
    .await;
    let api_url = api["url"].as_str().expect("url");
    let prefix = format!("{}/views/portfolio?token=", app.address);
    assert!(
        url.starts_with(&prefix) && api_url.starts_with(&prefix),
        "{url} and {api_url}"
    );
    let (status, from_dashboard) = opened(&app, &url).await;
    assert_eq!(status, 200, "{from_dashboard}");
    assert!(from_dashboard.contains("Portfolio of ana"), "{from_dashboard}");
    let (_, from_api) = opened(&app, api_url).await;
    assert_eq!(
        from_dashboard.replace(char::is_numeric, ""),
        from_api.replace(char::is_numeric, ""),
        "the same page as the API's link opens (times aside)"
    );
    let (_, again) = page(&app, PLAYER, &cookie).await;
    assert_eq!(link_in(&again), None, "shown only once");

    for typed in ["59", "a week"] {
        let refused = post(
            &app,
            "/dashboard/users/portfolio-link",
            &cookie,
            &[
                ("externalUserId", "ana"),
                ("expiresInSeconds", typed),
                ("_token", &token),
            ],
        )
        .await;
        assert_eq!(refused.status(), 400, "{typed}");
        let body = refused.text().await.expect("body");
        assert!(refused_beside(&body, "expiresInSeconds"), "{typed}: {body}");
        assert!(body.contains(&format!("value=\"{typed}\"")), "kept as typed");
        assert_eq!(link_in(&body), None, "no link");
    }

    let trader = sign_in(&app, "trader@example.com").await;
    let (status, refused) = page(&app, PLAYER, &trader).await;
    assert_eq!(status, 403, "no player's page without users:read");
    assert!(!refused.contains(FORM));
    let (_, overview) = page(&app, "/dashboard", &trader).await;
    let denied = post(
        &app,
        "/dashboard/users/portfolio-link",
        &trader,
        &[("externalUserId", "ana"), ("_token", &token_of(&overview))],
    )
    .await;
    assert_eq!(denied.status(), 403);
    let body = denied.text().await.expect("body");
    assert!(body.contains("users:read"), "{body}");
    assert_eq!(link_in(&body), None, "no link");
}
