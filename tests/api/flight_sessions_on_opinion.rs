//! A session launched into flight on every Opinion player route, with every kind of
//! input (a valid order, a malformed, empty or unknown body, bad pages): always 409
//! `wrong_product`, before any body or query is read, and nothing is written. The
//! logout takes a session of either product, and an Opinion session still trades.

use reqwest::Method;
use serde_json::{Value, json};

use crate::flight_support::{enable_flight, flight_player, simulated_idr_user, spawn_flight_app};
use crate::helpers::{TestApp, assert_problem, json_with_status};
use crate::trading_support::{open_market, order, player};

/// Every Opinion player route that takes a session: method and path.
const ROUTES: [(&str, &str); 7] = [
    ("GET", "/api/player/markets"),
    ("GET", "/api/player/board"),
    ("GET", "/api/player/balance"),
    ("POST", "/api/player/quotes"),
    ("POST", "/api/player/orders"),
    ("GET", "/api/player/positions"),
    ("GET", "/api/player/trades"),
];

/// Query strings tried on every route.
const QUERIES: [&str; 4] = ["", "?limit=0", "?cursor=%00not-a-cursor", "?limit=abc&limit=2"];

/// Bodies tried on every route (`None`: no body at all).
fn bodies(valid: &Value) -> Vec<Option<String>> {
    vec![
        Some(valid.to_string()),
        None,
        Some(String::new()),
        Some("{\"clientOrderId\": ".into()),
        Some("[]".into()),
        Some(json!({"unknown": true}).to_string()),
        Some(json!({"marketId": 7, "side": "sideways", "value": -1}).to_string()),
        Some("<script>alert(1)</script>".into()),
    ]
}

async fn call(app: &TestApp, verb: &str, path: &str, session: &str, body: Option<&str>) -> reqwest::Response {
    let method = Method::from_bytes(verb.as_bytes()).expect("method");
    let mut request = app.request(method, path, Some(session));
    if let Some(body) = body {
        request = request.header("content-type", "application/json").body(body.to_owned());
    }
    request.send().await.expect("request")
}

#[tokio::test]
async fn a_flight_session_is_refused_on_every_opinion_player_route_whatever_it_sends() {
    let app = spawn_flight_app().await;
    enable_flight(&app, &app.operator).await;
    let market = open_market(&app).await;
    simulated_idr_user(&app, &app.operator.key, "flyer", 100_000).await;
    let flyer = flight_player(&app, &app.operator, "flyer").await;
    let valid = order("flyer-order", market, "buy", "amount", 1_000);

    for (verb, route) in ROUTES {
        for query in QUERIES {
            let path = format!("{route}{query}");
            for body in bodies(&valid) {
                let response = call(&app, verb, &path, &flyer, body.as_deref()).await;
                let problem = assert_problem(response, 409, "wrong_product").await;
                let text = problem.to_string();
                assert!(
                    text.contains("opinion") && text.contains("flight"),
                    "{verb} {path}: the detail names both products: {problem}"
                );
                assert!(
                    !text.contains("usr_") && !text.contains("ses_"),
                    "{verb} {path}: {problem}"
                );
            }
        }
    }

    let trades = json_with_status(app.get("/api/operator/trades", &app.operator.key).await, 200).await;
    assert_eq!(trades["data"], json!([]), "nothing was traded: {trades}");
    let operations = json_with_status(
        app.get("/api/operator/balance-operations", &app.operator.key).await,
        200,
    )
    .await;
    assert!(
        !operations.to_string().contains("flyer"),
        "no wallet call was made for the flight player: {operations}"
    );

    // The same operator's Opinion session still prices on the same routes.
    let trader = player(&app, "trader").await;
    let quote = json!({"marketId": market, "side": "buy", "outcome": "yes", "kind": "amount", "value": "1000"});
    json_with_status(app.post("/api/player/quotes", &trader, &quote).await, 200).await;
    json_with_status(app.get("/api/player/positions", &trader).await, 200).await;

    // The logout takes the flight session; afterwards it is ended on every route.
    let out = app
        .request(Method::DELETE, "/api/player/sessions/current", Some(&flyer))
        .send()
        .await
        .expect("log out");
    assert_eq!(out.status(), 204);
    for (verb, route) in ROUTES {
        let response = call(&app, verb, route, &flyer, Some(&valid.to_string())).await;
        assert_problem(response, 401, "session_ended").await;
    }
}
