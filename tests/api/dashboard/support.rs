//! Signing staff in to the dashboard over HTTP and reading its pages.

use opinion_app::access::NewStaff;
use opinion_core::StaffId;
use reqwest::Method;
use reqwest::header::{COOKIE, LOCATION, SET_COOKIE};

use crate::helpers::TestApp;

/// The password of every member these tests make.
pub const PASSWORD: &str = "a perfectly long test password";

/// Makes a member of the first operator holding `scopes`.
pub async fn member(app: &TestApp, email: &str, scopes: &[&str]) -> StaffId {
    app.access
        .create_first_staff(
            app.operator.id,
            NewStaff {
                email: email.into(),
                name: "Dashboard member".into(),
                scopes: scopes.iter().map(|s| s.to_string()).collect(),
                password: Some(PASSWORD.into()),
            },
        )
        .await
        .expect("member")
        .member
        .id
}

/// Signs `email` in through the sign-in form and returns the `Cookie` header value.
pub async fn sign_in(app: &TestApp, email: &str) -> String {
    let response = app
        .request(Method::POST, "/dashboard/sign-in", None)
        .form(&[("email", email), ("password", PASSWORD)])
        .send()
        .await
        .expect("sign-in answers");
    assert_eq!(response.status(), 303, "signed in");
    assert_eq!(response.headers()[LOCATION], "/dashboard");
    let cookie = response.headers()[SET_COOKIE].to_str().expect("ascii").to_owned();
    cookie.split(';').next().expect("name=value").to_owned()
}

/// A request to a dashboard path with the session cookie.
pub fn with_cookie(app: &TestApp, method: Method, path: &str, cookie: &str) -> reqwest::RequestBuilder {
    app.request(method, path, None).header(COOKIE, cookie)
}

/// The page at `path`: its status and HTML.
pub async fn page(app: &TestApp, path: &str, cookie: &str) -> (u16, String) {
    let response = with_cookie(app, Method::GET, path, cookie)
        .send()
        .await
        .expect("page answers");
    (response.status().as_u16(), response.text().await.expect("a body"))
}

/// Posts `fields` to `path` with the cookie; returns the answer.
pub async fn post(app: &TestApp, path: &str, cookie: &str, fields: &[(&str, &str)]) -> reqwest::Response {
    with_cookie(app, Method::POST, path, cookie)
        .form(fields)
        .send()
        .await
        .expect("post answers")
}

/// The form token in a page.
pub fn token_of(html: &str) -> String {
    html.split("name=\"_token\" value=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .expect("a form token in the page")
        .to_owned()
}

/// Whether `html` shows a refusal beside the input `field`.
pub fn refused_beside(html: &str, field: &str) -> bool {
    html.split(&format!("id=\"{field}-note\">"))
        .nth(1)
        .is_some_and(|note| note.starts_with("<span class=\"error\">"))
}
