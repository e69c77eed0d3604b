//! The hosted flight page as a browser receives it: a flight launch URL opens
//! `/play/flight` with the hosted pages' posture (its own script and style by hash,
//! nothing cached, sniffed or referred from, framed only by the launch host's sites), its
//! script calls only routes that exist, each product's page sends a session of the
//! other product to that product's page, and a settled ticket's proof button reads the
//! player's proof route: "not yet available" (`proof_not_available`) until its month is
//! finalized, then the proof, which the standard-library checker accepts.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use reqwest::{Method, Response};
use serde_json::json;
use sha2::{Digest, Sha256};

use crate::flight_office_reports::{finalize_october, given_two_periods};
use crate::flight_support::{enable_flight, flight_player};
use crate::helpers::{TestApp, assert_problem, json_with_status, spawn_app};
use crate::inclusion_script::accepted;

/// Launches `external_user_id` (into `product`, or Opinion) and answers the launch.
async fn launch(app: &TestApp, external_user_id: &str, product: Option<&str>) -> serde_json::Value {
    let mut body = json!({"externalUserId": external_user_id});
    if let Some(product) = product {
        body["product"] = json!(product);
    }
    json_with_status(app.post("/api/operator/launch", &app.operator.key, &body).await, 201).await
}

/// The path a launch URL opens, and its fragment.
fn opened_path(launched: &serde_json::Value) -> (String, String) {
    let url = launched["launchUrl"].as_str().expect("launchUrl");
    let path = url.split_once("://").map_or(url, |(_, rest)| rest);
    let path = &path[path.find('/').expect("a path")..];
    let (path, fragment) = path.split_once('#').expect("a fragment");
    (path.to_owned(), fragment.to_owned())
}

/// `GET path`, naming `host` as the request's host when given.
async fn page(app: &TestApp, path: &str, host: Option<&str>) -> Response {
    let mut request = app.request(Method::GET, path, None);
    if let Some(host) = host {
        request = request.header("host", host);
    }
    request.send().await.expect("request")
}

/// A served page: its headers and its body.
struct Served {
    policy: String,
    headers: reqwest::header::HeaderMap,
    body: String,
}

async fn served(response: Response) -> Served {
    assert_eq!(response.status().as_u16(), 200);
    let headers = response.headers().clone();
    let policy = headers["content-security-policy"].to_str().expect("policy").to_owned();
    let body = response.text().await.expect("body");
    Served { policy, headers, body }
}

impl Served {
    /// The text between `<tag>` and `</tag>`.
    fn inline(&self, tag: &str) -> &str {
        let open = format!("<{tag}>");
        let start = self.body.find(&open).expect("an inline element") + open.len();
        let end = self.body[start..].find(&format!("</{tag}>")).expect("closed") + start;
        &self.body[start..end]
    }

    fn script(&self) -> &str {
        self.inline("script")
    }

    fn header(&self, name: &str) -> &str {
        self.headers[name].to_str().expect("header")
    }
}

/// The script a page links (the Opinion app's is a cached file of the service).
async fn linked_script(app: &TestApp, served: &Served) -> String {
    let src = served
        .body
        .split("<script src=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .expect("a linked script");
    let response = app
        .client
        .get(format!("{}{src}", app.address))
        .send()
        .await
        .expect("script");
    assert_eq!(response.status(), 200);
    response.text().await.expect("script")
}

fn hash(text: &str) -> String {
    STANDARD.encode(Sha256::digest(text.as_bytes()))
}

#[tokio::test]
async fn a_flight_launch_opens_the_flight_page_with_the_hosted_pages_posture() {
    let app = spawn_app().await;
    enable_flight(&app, &app.operator).await;
    let launched = launch(&app, "rina", Some("flight")).await;
    let (path, fragment) = opened_path(&launched);
    assert_eq!(path, "/play/flight");
    assert_eq!(
        fragment,
        format!("launch={}", launched["launchToken"].as_str().expect("token"))
    );

    let flight = served(page(&app, &path, None).await).await;
    assert_eq!(flight.header("content-type"), "text/html; charset=utf-8");
    assert_eq!(flight.header("x-content-type-options"), "nosniff");
    assert_eq!(flight.header("cache-control"), "no-store");
    assert_eq!(flight.header("referrer-policy"), "no-referrer");
    assert!(flight.policy.starts_with("default-src 'none'; "), "{}", flight.policy);
    assert!(
        flight
            .policy
            .contains(&format!("script-src 'sha256-{}'", hash(flight.script()))),
        "{}",
        flight.policy
    );
    assert!(
        flight
            .policy
            .contains(&format!("style-src 'sha256-{}'", hash(flight.inline("style"))))
    );
    assert!(flight.policy.contains("connect-src 'self'") && !flight.policy.contains("unsafe"));
    assert!(
        !flight.policy.contains("frame-ancestors"),
        "the public host serves every operator"
    );
    for element in [
        "id=\"multiplier\"",
        "id=\"buy\"",
        "id=\"tickets\"",
        "id=\"flights\"",
        "/api/public/flight/chains",
    ] {
        assert!(flight.body.contains(element), "{element} missing");
    }
    assert!(!flight.body.contains("id=\"markets\""));
    let script = flight.script();
    assert!(script.contains("crypto.randomUUID()") && script.contains("Math.exp(0.00006 * t)"));
    for markup in [
        "innerHTML",
        "outerHTML",
        "insertAdjacentHTML",
        "document.write",
        "eval(",
    ] {
        assert!(!script.contains(markup), "the script uses {markup}");
    }

    let response = app
        .request(Method::PUT, "/api/operator/launch-settings", Some(&app.operator.key))
        .json(&json!({"hosts": ["play.casino.example"], "frameOrigins": ["https://casino.example"]}))
        .send()
        .await
        .expect("request");
    json_with_status(response, 200).await;
    let framed = served(page(&app, "/play/flight", Some("play.casino.example")).await).await;
    assert!(
        framed.policy.ends_with("; frame-ancestors https://casino.example"),
        "{}",
        framed.policy
    );
}

/// Every path literal of the flight page's script, how this test calls it, and where a
/// literal is only the start of a path (`…/tickets/` + id + `/cash-out`), the rest.
fn calls() -> Vec<(&'static str, Method, String)> {
    let unknown_ticket = "tkt_01jdz3qv6mz8x5c0a2t5d4e7f9";
    vec![
        ("/api/player/sessions", Method::POST, "/api/player/sessions".into()),
        ("/api/player/flight/live", Method::GET, "/api/player/flight/live".into()),
        (
            "/api/player/flight/tickets",
            Method::GET,
            "/api/player/flight/tickets".into(),
        ),
        (
            "/api/player/flight/tickets",
            Method::POST,
            "/api/player/flight/tickets".into(),
        ),
        (
            "/api/player/flight/tickets/",
            Method::POST,
            format!("/api/player/flight/tickets/{unknown_ticket}/cash-out"),
        ),
        (
            "/api/player/flight/tickets/",
            Method::GET,
            format!("/api/player/flight/tickets/{unknown_ticket}/proof"),
        ),
        (
            "/api/player/flight/flights",
            Method::GET,
            "/api/player/flight/flights".into(),
        ),
    ]
}

/// The single-quoted literals of `script` that start with `/api/`.
fn api_literals(script: &str) -> Vec<&str> {
    script
        .split('\'')
        .skip(1)
        .step_by(2)
        .filter(|literal| literal.starts_with("/api/"))
        .collect()
}

#[tokio::test]
async fn the_flight_pages_script_calls_only_routes_that_exist() {
    let app = spawn_app().await;
    enable_flight(&app, &app.operator).await;
    let session = flight_player(&app, &app.operator, "rina").await;
    let flight = served(page(&app, "/play/flight", None).await).await;
    let literals = api_literals(flight.script());
    assert!(literals.len() >= 6, "{literals:?}");
    let calls = calls();
    for literal in &literals {
        assert!(
            calls.iter().any(|(known, _, _)| known == literal),
            "the script calls {literal}, which this test does not know"
        );
    }
    assert!(
        flight
            .script()
            .contains("'/api/player/flight/tickets/' + encodeURIComponent(t.id) + '/cash-out'"),
        "the cash-out path is the tickets path, the ticket's id and /cash-out"
    );
    assert!(
        flight
            .script()
            .contains("'/api/player/flight/tickets/' + encodeURIComponent(t.id) + '/proof'"),
        "the proof path is the tickets path, the ticket's id and /proof"
    );
    for (literal, method, path) in calls.into_iter().filter(|(known, _, _)| literals.contains(known)) {
        let mut request = app.request(method.clone(), &path, Some(&session));
        if method == Method::POST {
            request = request.json(&json!({}));
        }
        let response = request.send().await.expect("request");
        let status = response.status().as_u16();
        if path.ends_with("/live") {
            assert_eq!(status, 200, "{path}");
            assert_eq!(response.headers()["content-type"], "text/event-stream");
            continue;
        }
        let body: serde_json::Value = response.json().await.unwrap_or_default();
        assert!(
            status != 405 && body["code"] != "route_not_found",
            "{method} {path} ({literal}) is no route: {status} {body}"
        );
    }
}

#[tokio::test]
async fn an_opinion_launch_opens_the_opinion_app_and_each_page_sends_the_other_products_sessions_away() {
    let app = spawn_app().await;
    enable_flight(&app, &app.operator).await;
    let launched = launch(&app, "ana", None).await;
    assert_eq!(opened_path(&launched).0, "/play");
    let opened = app
        .request(Method::POST, "/api/player/sessions", None)
        .json(&json!({"launchToken": launched["launchToken"]}))
        .send()
        .await
        .expect("request");
    assert_eq!(json_with_status(opened, 201).await["product"], "opinion");

    let opinion = served(page(&app, "/play", None).await).await;
    assert!(opinion.body.contains("id=\"view\"") && !opinion.body.contains("id=\"multiplier\""));
    let opinion_script = linked_script(&app, &opinion).await;
    let flight = served(page(&app, "/play/flight", None).await).await;
    assert_ne!(opinion_script, flight.script());
    let pages = r#"var PAGES = { "opinion": "/play", "flight": "/play/flight" };"#;
    for (script, own) in [
        (opinion_script.as_str(), "open(OPINION)"),
        (flight.script(), "open(FLIGHT)"),
    ] {
        assert!(script.contains(pages), "{script}");
        assert!(script.contains(own), "{script}");
        assert!(script.contains("sessionStorage.setItem('opinion.product', s.product)"));
        assert!(script.contains("if (own !== product && PAGES[own]) { location.replace(PAGES[own]); return false; }"));
    }
}

#[tokio::test]
async fn the_proof_button_of_a_settled_ticket_reads_the_players_proof_once_its_month_is_final() {
    let app = spawn_app().await;
    enable_flight(&app, &app.operator).await;
    given_two_periods(&app).await;
    let session = flight_player(&app, &app.operator, "p-1").await;
    let flight = served(page(&app, "/play/flight", None).await).await;
    assert!(flight.body.contains("id=\"proofs\"") && flight.body.contains("id=\"proof\""));
    assert!(flight.script().contains("'proof_not_available'"));

    let tickets = app.request(Method::GET, "/api/player/flight/tickets", Some(&session));
    let tickets = json_with_status(tickets.send().await.expect("request"), 200).await;
    let settled: Vec<String> = tickets["data"]
        .as_array()
        .expect("tickets")
        .iter()
        .filter(|t| t["status"] == "lost")
        .map(|t| t["id"].as_str().expect("id").to_owned())
        .collect();
    assert_eq!(settled.len(), 4, "{tickets}");
    let proof_of = |id: &str| {
        app.request(
            Method::GET,
            &format!("/api/player/flight/tickets/{id}/proof"),
            Some(&session),
        )
    };
    for id in &settled {
        assert_problem(proof_of(id).send().await.expect("request"), 404, "proof_not_available").await;
    }

    finalize_october(&app).await;
    let mut proven = 0;
    for id in &settled {
        let response = proof_of(id).send().await.expect("request");
        if response.status() == 404 {
            continue;
        }
        let proof = json_with_status(response, 200).await;
        assert_eq!(proof["proofVersion"], 5);
        assert_eq!(proof["line"]["ticketId"], id.as_str());
        assert!(accepted(&[], &proof), "{proof}");
        proven += 1;
    }
    assert_eq!(proven, 3, "the current month's ticket is not in a statement yet");
}
