//! A member changes its own password on the dashboard: the current one is required, a
//! refusal comes back beside its field with nothing changed, and, as on the API, every
//! other session of the member ends while this one stays.

use reqwest::Method;
use reqwest::header::{LOCATION, SET_COOKIE};

use super::support::{PASSWORD, member, page, post, sign_in, token_of, with_cookie};
use crate::helpers::{TestApp, spawn_app};

const NEW_PASSWORD: &str = "a brand new and long password";

/// Whether `email` signs in with `password`.
async fn signs_in(app: &TestApp, email: &str, password: &str) -> bool {
    let answer = app
        .request(Method::POST, "/dashboard/sign-in", None)
        .form(&[("email", email), ("password", password)])
        .send()
        .await
        .expect("answers");
    answer.status() == 303 && answer.headers().contains_key(SET_COOKIE)
}

/// The note beside `field` in `html`.
fn note_of<'a>(html: &'a str, field: &str) -> &'a str {
    html.split(&format!("id=\"{field}-note\">"))
        .nth(1)
        .expect("the field's note")
}

#[tokio::test]
async fn a_member_changes_its_password_and_its_other_sessions_end() {
    let app = spawn_app().await;
    member(&app, "ops@example.com", &["users:read"]).await;
    let cookie = sign_in(&app, "ops@example.com").await;
    let other = sign_in(&app, "ops@example.com").await;

    let (status, form) = page(&app, "/dashboard/password", &cookie).await;
    assert_eq!(status, 200);
    assert!(
        form.contains("href=\"/dashboard/password\""),
        "the navigation offers it whatever the scopes"
    );
    let token = token_of(&form);

    let wrong = post(
        &app,
        "/dashboard/password",
        &cookie,
        &[
            ("currentPassword", "not the current password"),
            ("newPassword", NEW_PASSWORD),
            ("_token", &token),
        ],
    )
    .await;
    assert_eq!(wrong.status(), 403);
    let body = wrong.text().await.expect("body");
    assert!(
        note_of(&body, "currentPassword").starts_with("<span class=\"error\">the current password is wrong"),
        "{body}"
    );
    assert!(
        !body.contains("not the current password") && !body.contains(NEW_PASSWORD),
        "passwords are not written back into the page"
    );

    let short = post(
        &app,
        "/dashboard/password",
        &cookie,
        &[
            ("currentPassword", PASSWORD),
            ("newPassword", "short"),
            ("_token", &token),
        ],
    )
    .await;
    assert_eq!(short.status(), 400);
    let body = short.text().await.expect("body");
    assert!(
        note_of(&body, "newPassword").starts_with("<span class=\"error\">"),
        "{body}"
    );
    assert!(signs_in(&app, "ops@example.com", PASSWORD).await, "nothing was changed");
    assert_eq!(page(&app, "/dashboard", &other).await.0, 200, "no session ended");

    let changed = post(
        &app,
        "/dashboard/password",
        &cookie,
        &[
            ("currentPassword", PASSWORD),
            ("newPassword", NEW_PASSWORD),
            ("_token", &token),
        ],
    )
    .await;
    assert_eq!(changed.status(), 303);
    assert_eq!(changed.headers()[LOCATION], "/dashboard/password?changed=1");
    let (status, after) = page(&app, "/dashboard/password?changed=1", &cookie).await;
    assert_eq!(status, 200, "this session stays");
    assert!(after.contains("Your password is changed"));
    let ended = with_cookie(&app, Method::GET, "/dashboard", &other)
        .send()
        .await
        .expect("answers");
    assert_eq!(
        ended.headers()[LOCATION],
        "/dashboard/sign-in?ended=1",
        "the other one ended"
    );
    assert!(!signs_in(&app, "ops@example.com", PASSWORD).await);
    assert!(signs_in(&app, "ops@example.com", NEW_PASSWORD).await);
}

#[tokio::test]
async fn a_password_change_needs_this_sessions_form_token() {
    let app = spawn_app().await;
    member(&app, "ops@example.com", &["users:read"]).await;
    let cookie = sign_in(&app, "ops@example.com").await;
    let refused = post(
        &app,
        "/dashboard/password",
        &cookie,
        &[("currentPassword", PASSWORD), ("newPassword", NEW_PASSWORD)],
    )
    .await;
    assert_eq!(refused.status(), 403);
    assert!(refused.text().await.expect("body").contains("This form has expired"));
    assert!(signs_in(&app, "ops@example.com", PASSWORD).await, "nothing was changed");
}
