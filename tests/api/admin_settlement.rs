//! Platform staff's market and manual review commands, run as the real binary: one JSON
//! object on stdout, and a non-zero exit with the reason on stderr for bad input and
//! refused changes.

use opinion_core::MarketId;
use opinion_testkit::Fault;
use serde_json::Value;
use time::format_description::well_known::Rfc3339;
use time::{Duration, OffsetDateTime};

use crate::admin_cli::{opinion, opinion_fails, opinion_result};
use crate::helpers::{TestApp, spawn_app};
use crate::wallet_worker::{given_positions, given_wallet};

/// Runs `opinion admin <args>` over the app's database, off the async runtime.
pub async fn admin(app: &TestApp, args: &[&str]) -> Value {
    let (url, args) = command(app, args);
    tokio::task::spawn_blocking(move || opinion(&url, &strs(&args)))
        .await
        .expect("joined")
}

/// Runs `opinion admin <args>`: its JSON object, or its stderr when it failed.
pub async fn admin_result(app: &TestApp, args: &[&str]) -> Result<Value, String> {
    let (url, args) = command(app, args);
    tokio::task::spawn_blocking(move || opinion_result(&url, &strs(&args)))
        .await
        .expect("joined")
}

/// Runs `opinion admin <args>`, which must fail; returns its stderr.
pub async fn admin_fails(app: &TestApp, args: &[&str]) -> String {
    let (url, args) = command(app, args);
    tokio::task::spawn_blocking(move || opinion_fails(&url, &strs(&args)))
        .await
        .expect("joined")
}

/// The database URL and `admin <args>`, owned to move into a blocking task.
fn command(app: &TestApp, args: &[&str]) -> (String, Vec<String>) {
    let args = ["admin"].iter().chain(args).map(|arg| (*arg).to_owned()).collect();
    (app.db.url().to_owned(), args)
}

fn strs(args: &[String]) -> Vec<&str> {
    args.iter().map(String::as_str).collect()
}

fn tomorrow() -> String {
    (OffsetDateTime::now_utc() + Duration::days(1))
        .format(&Rfc3339)
        .expect("format")
}

/// `review resolve` of `operation` as not applied, by Ana, with `note`.
fn not_applied<'a>(operation: &'a str, note: &'a str) -> Vec<&'a str> {
    let finding = ["--not-applied", "--by", "Ana", "--note", note];
    ["review", "resolve", "--operation", operation]
        .into_iter()
        .chain(finding)
        .collect()
}

/// `market create` of a market closing at `close_at`, with a 1% fee.
fn create_args(close_at: &str) -> Vec<&str> {
    let question = ["--question", "Will it rain tomorrow?", "--rules", "YES if it rains."];
    let rest = ["--close-at", close_at, "--liquidity", "1000", "--fee-bps", "100"];
    ["market", "create"].into_iter().chain(question).chain(rest).collect()
}

async fn create_market(app: &TestApp) -> Value {
    admin(app, &create_args(&tomorrow())).await
}

#[tokio::test]
async fn staff_create_list_close_and_resolve_a_market() {
    let app = spawn_app().await;
    let stderr = admin_fails(&app, &create_args("tomorrow")).await;
    assert!(stderr.contains("--close-at"), "{stderr}");
    let stderr = admin_fails(&app, &create_args("2020-01-01T00:00:00Z")).await;
    assert!(stderr.contains("close_at"), "{stderr}");

    let created = create_market(&app).await;
    let id = created["id"].as_str().expect("id").to_owned();
    assert!(id.starts_with("mkt_"), "{created}");
    assert_eq!(
        (created["status"].as_str(), created["feeBps"].as_u64()),
        (Some("open"), Some(100))
    );
    let listed = admin(&app, &["market", "list"]).await;
    assert_eq!(listed["data"][0]["id"], id.as_str());

    let closed = admin(&app, &["market", "close", "--market", &id]).await;
    assert_eq!(closed["status"], "closed");
    assert!(closed["closedAt"].is_string());
    admin_fails(&app, &["market", "close", "--market", &id]).await;
    let stderr = admin_fails(&app, &["market", "resolve", "--market", &id, "--outcome", "maybe"]).await;
    assert!(stderr.contains("--outcome"), "{stderr}");
    let stderr = admin_fails(&app, &["market", "resolve", "--market", "mkt_nope", "--outcome", "no"]).await;
    assert!(stderr.contains("--market"), "{stderr}");

    let resolved = admin(&app, &["market", "resolve", "--market", &id, "--outcome", "no"]).await;
    assert_eq!(
        (
            resolved["market"]["status"].as_str(),
            resolved["market"]["resolution"].as_str()
        ),
        (Some("resolved"), Some("no"))
    );
    assert_eq!(resolved["resolutions"], serde_json::json!([]), "nobody traded it");
    admin_fails(&app, &["market", "resolve", "--market", &id, "--outcome", "yes"]).await;
}

#[tokio::test]
async fn staff_review_an_ambiguous_redemption_and_record_the_wallet_log() {
    let app = spawn_app().await;
    let other = app.new_operator("Other").await;
    let wallet = given_wallet(&app).await;
    let created = create_market(&app).await;
    let id = created["id"].as_str().expect("id").to_owned();
    given_positions(&app, id.parse::<MarketId>().expect("market id")).await;
    wallet.fail_next("p-2", Fault::ServerError(503));

    let resolved = admin(&app, &["market", "resolve", "--market", &id, "--outcome", "yes"]).await;
    let resolution = &resolved["resolutions"][0];
    assert_eq!(resolution["operatorId"], app.operator.id.to_string().as_str());
    assert_eq!(
        (
            resolution["redemptionCount"].as_i64(),
            resolution["payoutTotal"].as_str()
        ),
        (Some(2), Some("65"))
    );
    let pass = app.settlement.run_wallet_pass().await.expect("pass");
    assert_eq!(pass.sent, 2);
    assert_eq!(
        (wallet.balance("p-1"), wallet.balance("p-2")),
        (Some(1_040), Some(1_000))
    );

    let listed = admin(&app, &["review", "list"]).await;
    let operations = listed["data"].as_array().expect("data");
    assert_eq!(operations.len(), 1, "{listed}");
    assert_eq!(
        (
            operations[0]["externalUserId"].as_str(),
            operations[0]["state"].as_str()
        ),
        (Some("p-2"), Some("manual_review"))
    );
    let operation = operations[0]["id"].as_str().expect("id").to_owned();
    let theirs = admin(&app, &["review", "list", "--operator", &other.id.to_string()]).await;
    assert_eq!(theirs["data"], serde_json::json!([]));

    let shown = admin(&app, &["review", "show", "--operation", &operation]).await;
    assert_eq!(shown["redemption"]["status"], "manual_review");
    assert_eq!(shown["trade"], Value::Null);
    let states: Vec<&str> = shown["steps"]
        .as_array()
        .expect("steps")
        .iter()
        .filter_map(|s| s["state"].as_str())
        .collect();
    assert_eq!(states, ["prepared", "sent", "manual_review"]);

    admin_fails(
        &app,
        &[
            "review",
            "resolve",
            "--operation",
            &operation,
            "--applied",
            "--by",
            "Ana",
            "--note",
            "seen",
        ],
    )
    .await;
    let stderr = admin_fails(&app, &not_applied(&operation, "")).await;
    assert!(stderr.contains("note"), "{stderr}");
    let settled = admin(&app, &not_applied(&operation, "no credit in the wallet log")).await;
    assert_eq!(settled["operation"]["state"], "resolved_not_applied");
    let shown = admin(&app, &["review", "show", "--operation", &operation]).await;
    assert_eq!(shown["redemption"]["status"], "refused");
    let stderr = admin_fails(&app, &not_applied(&operation, "again")).await;
    assert!(stderr.contains("resolved_not_applied"), "settled once: {stderr}");
    assert!(
        admin(&app, &["review", "list"]).await["data"]
            .as_array()
            .expect("data")
            .is_empty()
    );
}
