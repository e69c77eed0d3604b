//! Steps the simulator tests share: simulated users, connecting the simulated wallet,
//! a simulator market.

use serde_json::{Value, json};

use crate::helpers::{TestApp, json_with_status};

/// Creates a simulated user with `balance` and answers it.
pub async fn simulated_user(app: &TestApp, key: &str, external_user_id: &str, balance: i64) -> Value {
    let body = json!({"externalUserId": external_user_id, "startingBalance": balance.to_string()});
    json_with_status(app.post("/api/operator/simulator/users", key, &body).await, 201).await
}

/// Runs a scenario and answers its report.
pub async fn scenario(app: &TestApp, key: &str, body: &Value) -> Value {
    json_with_status(app.post("/api/operator/simulator/operations", key, body).await, 200).await
}

/// Points the operator's wallet adapter at its simulated wallet.
pub async fn connect(app: &TestApp, key: &str, timeout_ms: i64) {
    let report = scenario(
        app,
        key,
        &json!({"scenario": "connect_wallet", "timeoutMs": timeout_ms}),
    )
    .await;
    assert_eq!(report["completed"], true, "{report}");
}

/// Creates a simulator market and answers its id.
pub async fn market(app: &TestApp, key: &str) -> String {
    let report = scenario(app, key, &json!({"scenario": "create_market", "liquidity": "100000"})).await;
    report["steps"][0]["ids"]["marketId"]
        .as_str()
        .expect("marketId")
        .to_owned()
}

/// Runs an operation for a simulated user and answers its report.
pub async fn operate(app: &TestApp, key: &str, user_id: &str, body: &Value) -> Value {
    let path = format!("/api/operator/simulator/users/{user_id}/operations");
    json_with_status(app.post(&path, key, body).await, 200).await
}

/// The step of a report named `step` (the last one of that name).
pub fn step<'a>(report: &'a Value, name: &str) -> &'a Value {
    report["steps"]
        .as_array()
        .and_then(|steps| steps.iter().rev().find(|step| step["step"] == name))
        .unwrap_or_else(|| panic!("no step {name} in {report}"))
}
