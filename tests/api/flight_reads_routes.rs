//! The flight read routes' guards and hostile input: each compound scope is needed whole,
//! and every bad cursor, id, date, range, limit, status or parameter is a 400 or 404
//! problem naming what is wrong.

use serde_json::Value;

use crate::flight_reads_seed::*;
use crate::helpers::{assert_problem, json_with_status, spawn_app};

/// Every flight read route built here (a concrete path) and the scopes it needs.
fn routes() -> Vec<(String, &'static [&'static str])> {
    vec![
        ("/api/operator/flight/overview".into(), &["flight:read"]),
        ("/api/operator/flight/flights".into(), &["flight:read"]),
        (
            format!("/api/operator/flight/flights/{}", flight_id(1)),
            &["flight:read"],
        ),
        ("/api/operator/flight/flights/export".into(), &["flight:read"]),
        (
            "/api/operator/flight/tickets".into(),
            &["flight:read", "flight_terms:read"],
        ),
        (
            "/api/operator/flight/tickets/export".into(),
            &["flight:read", "flight_terms:read"],
        ),
        (
            "/api/operator/flight/wallet-operations".into(),
            &["flight:read", "balance_operations:read"],
        ),
        (
            "/api/operator/flight/webhook-deliveries".into(),
            &["flight:read", "webhooks:read"],
        ),
        (
            "/api/operator/flight/settlement-reports".into(),
            &["flight_settlements:read"],
        ),
        (
            "/api/operator/flight/settlement-reports/2026-10".into(),
            &["flight_settlements:read"],
        ),
    ]
}

#[tokio::test]
async fn each_route_needs_every_scope_of_its_compound_requirement() {
    let app = spawn_app().await;
    given_flights(&mut crate::trading_seed::seeder(&app).await, &Chain::new(), 1).await;
    for (path, scopes) in routes() {
        let whole = app.key_with(scopes).await;
        let status = app.get(&path, &whole).await.status().as_u16();
        assert_eq!(status, 200, "{path} with {scopes:?}");
        for missing in scopes.iter() {
            let half: Vec<&str> = scopes.iter().copied().filter(|scope| scope != missing).collect();
            let partial = app
                .key_with(if half.is_empty() { &["users:read"] } else { &half })
                .await;
            let problem = assert_problem(app.get(&path, &partial).await, 403, "insufficient_scope").await;
            assert!(
                problem["missingScopes"]
                    .as_array()
                    .is_some_and(|m| m.contains(&Value::from(*missing))),
                "{path} without {missing}: {problem}"
            );
        }
    }
}

#[tokio::test]
async fn hostile_input_is_refused_with_a_problem_naming_it() {
    let app = spawn_app().await;
    given_flights(&mut crate::trading_seed::seeder(&app).await, &Chain::new(), 1).await;
    let key = &app.operator.key;
    let bad = [
        (
            "/api/operator/flight/flights?cursor=bm90LWEtY3Vyc29y",
            400,
            "invalid_cursor",
            None,
        ),
        (
            "/api/operator/flight/tickets?cursor=%00%ff",
            400,
            "invalid_cursor",
            None,
        ),
        (
            "/api/operator/flight/wallet-operations?cursor=djE6dGt0XzAx",
            400,
            "invalid_cursor",
            None,
        ),
        (
            "/api/operator/flight/webhook-deliveries?cursor=x",
            400,
            "invalid_cursor",
            None,
        ),
        ("/api/operator/flight/flights?limit=0", 400, "invalid_limit", None),
        (
            "/api/operator/flight/tickets?limit=100000000000",
            400,
            "invalid_query",
            None,
        ),
        (
            "/api/operator/flight/wallet-operations?limit=201",
            400,
            "invalid_limit",
            None,
        ),
        (
            "/api/operator/flight/webhook-deliveries?limit=-1",
            400,
            "invalid_query",
            None,
        ),
        (
            "/api/operator/flight/flights/tkt_01jdz3qv6mz8x5c0a2t5d4e7f9",
            400,
            "invalid_id",
            None,
        ),
        ("/api/operator/flight/flights/flt_not-an-id", 400, "invalid_id", None),
        (
            "/api/operator/flight/flights/flt_01jdz3qv6mz8x5c0a2t5d4e7f9",
            404,
            "not_found",
            None,
        ),
        (
            "/api/operator/flight/tickets/%27%3B%20DROP%20TABLE",
            400,
            "invalid_id",
            None,
        ),
        (
            "/api/operator/flight/tickets/tkt_01jdz3qv6mz8x5c0a2t5d4e7f9",
            404,
            "not_found",
            None,
        ),
        (
            "/api/operator/flight/overview?from=yesterday",
            400,
            "validation_failed",
            Some("from"),
        ),
        (
            "/api/operator/flight/overview?from=2026-11-22T10:00:00Z&to=2026-11-22T09:00:00Z",
            400,
            "validation_failed",
            Some("to"),
        ),
        (
            "/api/operator/flight/flights?to=2026-13-01T00:00:00Z",
            400,
            "validation_failed",
            Some("to"),
        ),
        (
            "/api/operator/flight/flights/export?from=2026-11-22T10:00:00Z&to=2026-11-22T10:00:00Z",
            400,
            "validation_failed",
            Some("to"),
        ),
        (
            "/api/operator/flight/tickets?status=won",
            400,
            "validation_failed",
            Some("status"),
        ),
        (
            "/api/operator/flight/tickets/export?status=LOST",
            400,
            "validation_failed",
            Some("status"),
        ),
        (
            "/api/operator/flight/tickets?flightId=mkt_01jdz3qv6mz8x5c0a2t5d4e7f9",
            400,
            "validation_failed",
            Some("flightId"),
        ),
        (
            "/api/operator/flight/tickets?externalUserId=",
            400,
            "validation_failed",
            Some("externalUserId"),
        ),
        (
            "/api/operator/flight/wallet-operations?flow=buy",
            400,
            "validation_failed",
            Some("flow"),
        ),
        (
            "/api/operator/flight/wallet-operations?state=done",
            400,
            "validation_failed",
            Some("state"),
        ),
        (
            "/api/operator/flight/wallet-operations?ticketId=flt_01jdz3qv6mz8x5c0a2t5d4e7f9",
            400,
            "validation_failed",
            Some("ticketId"),
        ),
        (
            "/api/operator/flight/wallet-operations?includeSteps=maybe",
            400,
            "invalid_query",
            None,
        ),
        (
            "/api/operator/flight/webhook-deliveries?eventType=mini_app.trade.processed",
            400,
            "validation_failed",
            Some("eventType"),
        ),
        (
            "/api/operator/flight/webhook-deliveries?createdFrom=2026-11-22T10:00:00Z&createdBefore=2026-11-22T09:00:00Z",
            400,
            "validation_failed",
            Some("createdBefore"),
        ),
        (
            "/api/operator/flight/webhook-deliveries?status=sent",
            400,
            "validation_failed",
            Some("status"),
        ),
        ("/api/operator/flight/flights?page=2", 400, "invalid_query", None),
        (
            "/api/operator/flight/tickets/export?limit=10",
            400,
            "invalid_query",
            None,
        ),
        (
            "/api/operator/flight/overview?operatorId=op_01jdz3qv6mz8x5c0a2t5d4e7f9",
            400,
            "invalid_query",
            None,
        ),
    ];
    for (path, status, code, field) in bad {
        let problem = assert_problem(app.get(path, key).await, status, code).await;
        if let Some(field) = field {
            assert_eq!(problem["field"], field, "{path}: {problem}");
        }
    }
    let long = format!("/api/operator/flight/tickets?externalUserId={}", "x".repeat(5_000));
    assert_problem(app.get(&long, key).await, 400, "validation_failed").await;
    let empty = json_with_status(
        app.get("/api/operator/flight/tickets?externalUserId=nobody", key).await,
        200,
    )
    .await;
    assert_eq!(empty["data"], Value::Array(Vec::new()));
}
