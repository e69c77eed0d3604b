//! Walks the whole endpoint table: for every route, no credential gets a 401, a
//! credential without the required scopes gets a 403 naming them, and a credential
//! holding exactly the required scopes gets past authorisation.

use opinion_access::{CredentialRule, ROUTES, Requirement, RouteId, RouteSpec, Scope, ScopeRule};
use reqwest::{Method, Response};
use serde_json::json;

use crate::helpers::{TestApp, assert_problem, spawn_app};

fn concrete_path(spec: &RouteSpec) -> String {
    spec.path
        .replace("/api-keys/{id}", "/api-keys/key_01jdz3qv6mz8x5c0a2t5d4e7f9")
        .replace("/staff/{id}", "/staff/stf_01jdz3qv6mz8x5c0a2t5d4e7f9")
        .replace("{tradeId}", "trd_01jdz3qv6mz8x5c0a2t5d4e7f9")
        .replace("{marketId}", "mkt_01jdz3qv6mz8x5c0a2t5d4e7f9")
        .replace("{externalUserId}", "player-1")
        .replace("{id}", "x_01jdz3qv6mz8x5c0a2t5d4e7f9")
}

async fn call(app: &TestApp, spec: &RouteSpec, credential: Option<&str>) -> Response {
    let method = Method::from_bytes(spec.method.as_str().as_bytes()).expect("method");
    let mut request = app.request(method, &concrete_path(spec), credential);
    if matches!(spec.method.as_str(), "POST" | "PUT" | "PATCH") {
        request = request.json(&body_of(spec));
    }
    request.send().await.expect("request")
}

/// The body a route is called with: empty, but for the one route that needs no scope
/// and takes a body (a staff session made by `TestApp::staff_session` knows its password).
fn body_of(spec: &RouteSpec) -> serde_json::Value {
    match spec.id {
        RouteId::StaffOwnPasswordChange => json!({
            "currentPassword": "a perfectly long test password",
            "newPassword": "another perfectly long password",
        }),
        _ => json!({}),
    }
}

/// A scope that does not satisfy the requirement, so the key is valid but insufficient.
fn unrelated_scope(requirement: &Requirement) -> Scope {
    let needed = requirement.scopes();
    *Scope::ALL
        .iter()
        .find(|s| !s.is_staff_only() && !needed.contains(s))
        .expect("some scope is unrelated")
}

/// The grants that hold exactly what the route needs: all scopes of an all-of rule,
/// or each scope alone of an any-of rule.
fn exact_grants(requirement: &Requirement) -> Vec<Vec<&'static str>> {
    match requirement {
        Requirement::Authenticated {
            scopes: ScopeRule::AnyOf(options),
            ..
        } => options.iter().map(|s| vec![s.as_str()]).collect(),
        other => vec![other.scopes().iter().map(|s| s.as_str()).collect()],
    }
}

fn staff_only(requirement: &Requirement) -> bool {
    matches!(
        requirement,
        Requirement::Authenticated {
            credential: CredentialRule::StaffSessionOnly,
            ..
        }
    )
}

#[tokio::test]
async fn every_route_refuses_a_missing_credential() {
    let app = spawn_app().await;
    for spec in ROUTES.iter().filter(|s| !s.requirement.is_public()) {
        let response = call(&app, spec, None).await;
        assert!(response.headers().contains_key("www-authenticate"), "{}", spec.path);
        assert_problem(response, 401, "credential_missing").await;
    }
}

#[tokio::test]
async fn every_route_refuses_a_credential_lacking_its_scopes_and_names_them() {
    let app = spawn_app().await;
    for (index, spec) in ROUTES.iter().enumerate().filter(|(_, s)| !s.requirement.is_public()) {
        let lacking = [unrelated_scope(&spec.requirement).as_str()];
        let credential = if staff_only(&spec.requirement) {
            app.staff_session(&app.operator, &format!("lacking{index}@example.com"), &lacking)
                .await
        } else {
            app.key_with(&lacking).await
        };
        let needed: Vec<&str> = spec.requirement.scopes().iter().map(|s| s.as_str()).collect();
        let response = call(&app, spec, Some(&credential)).await;
        if needed.is_empty() {
            assert!(
                response.status().as_u16() < 400,
                "{} {}: {}",
                spec.method.as_str(),
                spec.path,
                response.status()
            );
            continue;
        }
        let body = assert_problem(response, 403, "insufficient_scope").await;
        assert_eq!(
            body["missingScopes"],
            json!(needed),
            "{} {}",
            spec.method.as_str(),
            spec.path
        );
    }
}

#[tokio::test]
async fn staff_routes_refuse_api_keys_even_with_every_scope() {
    let app = spawn_app().await;
    for spec in ROUTES.iter().filter(|s| staff_only(&s.requirement)) {
        let response = call(&app, spec, Some(&app.operator.key)).await;
        assert_problem(response, 403, "staff_session_required").await;
    }
}

#[tokio::test]
async fn a_credential_with_exactly_the_required_scopes_gets_past_authorisation() {
    let app = spawn_app().await;
    for (index, spec) in ROUTES.iter().enumerate().filter(|(_, s)| !s.requirement.is_public()) {
        for (variant, grant) in exact_grants(&spec.requirement).into_iter().enumerate() {
            let credential = if staff_only(&spec.requirement) {
                let grant = if grant.is_empty() {
                    vec!["users:read"]
                } else {
                    grant.clone()
                };
                app.staff_session(&app.operator, &format!("exact{index}.{variant}@example.com"), &grant)
                    .await
            } else {
                app.key_with(&grant).await
            };
            let response = call(&app, spec, Some(&credential)).await;
            let status = response.status().as_u16();
            assert!(
                status != 401 && status != 403,
                "{} {} with {grant:?} was refused: {status} {}",
                spec.method.as_str(),
                spec.path,
                response.text().await.unwrap_or_default()
            );
        }
    }
}

#[tokio::test]
async fn every_route_is_built_and_none_answers_501() {
    let app = spawn_app().await;
    let document: serde_json::Value = app
        .request(Method::GET, "/api/operator/openapi.json", None)
        .send()
        .await
        .expect("document")
        .json()
        .await
        .expect("JSON");
    for spec in ROUTES
        .iter()
        .filter(|s| !staff_only(&s.requirement) && !s.requirement.is_public())
    {
        let operation = &document["paths"][spec.path][spec.method.as_str().to_ascii_lowercase()];
        assert!(
            operation["responses"]["501"].is_null(),
            "{} {}",
            spec.method.as_str(),
            spec.path
        );
        let response = call(&app, spec, Some(&app.operator.key)).await;
        assert_ne!(
            response.status().as_u16(),
            501,
            "{} {}",
            spec.method.as_str(),
            spec.path
        );
    }
}
