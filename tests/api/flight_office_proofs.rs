//! The v5 statement over HTTP, for an operator whose Opinion money is USD playing flight
//! in IDR: finalization freezes one quote of a local stand-in exchange (USDT/IDR,
//! comparison only) or says why there is none (slow, garbage); the statement's money is
//! IDR only and its amount due is the independent recomputation from the ticket export;
//! the operator's export gives the player key, with which every leaf and the signed root
//! are recomputed from the CSV; each ticket's proof, read over HTTP, passes the
//! standard-library checker; and before finalization a ticket has no proof.

use std::time::Duration;

use opinion_proof::{PlayerKey, leaf_hash, root_of};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

use crate::admin_cli::opinion_with_env;
use crate::flight_office_reports::given_two_periods;
use crate::helpers::{TestApp, assert_problem, json_with_status, spawn_app};
use crate::inclusion_script::accepted;

const REPORTS: &str = "/api/operator/flight/settlement-reports";

/// How the stand-in exchange answers.
#[derive(Clone, Copy)]
pub enum Exchange {
    Quotes,
    Slow,
    Garbage,
}

pub const TICKER: &str = r#"{"ticker":{"last":"16250.5","vol_idr":"1"}}"#;

/// A ticker on a local port answering every request as `how` says; its URL.
pub async fn stand_in_exchange(how: Exchange) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bound");
    let address = listener.local_addr().expect("address");
    tokio::spawn(async move {
        while let Ok((mut socket, _)) = listener.accept().await {
            tokio::spawn(async move {
                let mut request = [0u8; 2048];
                let _ = socket.read(&mut request).await;
                let body = match how {
                    Exchange::Quotes => TICKER,
                    Exchange::Slow => {
                        tokio::time::sleep(Duration::from_secs(3)).await;
                        TICKER
                    }
                    Exchange::Garbage => "<html>maintenance</html>",
                };
                let answer = format!(
                    "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                    body.len()
                );
                let _ = socket.write_all(answer.as_bytes()).await;
            });
        }
    });
    format!("http://{address}/api/ticker/usdtidr")
}

/// `opinion admin flight finalize` of October with the stand-in exchange configured.
pub async fn finalize_with_exchange(app: &TestApp, url: String) -> String {
    let env = [
        ("OPINION_EXCHANGE_URL", url),
        ("OPINION_EXCHANGE_PAIR", "USDT/IDR".to_owned()),
        ("OPINION_EXCHANGE_PRICE_POINTER", "/ticker/last".to_owned()),
        ("OPINION_EXCHANGE_TIMEOUT_MS", "500".to_owned()),
    ]
    .map(|(name, value)| (name.to_owned(), value));
    let database = app.db.url().to_owned();
    let operator = app.operator.id.to_string();
    let finalized = tokio::task::spawn_blocking(move || {
        let args = [
            "admin",
            "flight",
            "finalize",
            "--operator",
            &operator,
            "--period",
            "2026-10",
        ];
        opinion_with_env(&database, &args, &env)
    })
    .await
    .expect("joined");
    finalized["reportId"].as_str().expect("a report id").to_owned()
}

fn idr(amount: i64) -> Value {
    json!({"amount": amount.to_string(), "currency": "IDR"})
}

/// The amount due recomputed from the ticket export alone: each settled ticket's GGR ×
/// its frozen BPS / 10 000, truncated toward zero, summed.
async fn share_from_ticket_export(app: &TestApp) -> i64 {
    let key = app.key_with(&["flight:read", "flight_terms:read"]).await;
    let path = "/api/operator/flight/tickets/export?from=2026-10-01T00:00:00Z&to=2026-11-01T00:00:00Z";
    let response = app.get(path, &key).await;
    assert_eq!(response.status(), 200);
    let text = response.text().await.expect("csv");
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let headers = reader.headers().expect("header").clone();
    let column = |name: &str| headers.iter().position(|h| h == name).expect(name);
    let (stake, payout, status, bps) = (column("stake"), column("payout"), column("status"), column("shareBps"));
    let mut share = 0;
    for row in reader.records() {
        let row = row.expect("row");
        let number = |i: usize| row[i].parse::<i64>().unwrap_or(0);
        let refund = if row[status].starts_with("refund") {
            number(stake)
        } else {
            0
        };
        let paid = if &row[status] == "cashed_out" {
            number(payout)
        } else {
            0
        };
        share += (number(stake) - paid - refund) * number(bps) / 10_000;
    }
    share
}

/// Recomputes every leaf from the export's CSV and player key: the root and count signed.
fn recompute_root(export: &Value) -> (String, u64) {
    let key = PlayerKey::from_hex(export["playerKey"].as_str().expect("player key")).expect("64 hex");
    let mut reader = csv::Reader::from_reader(export["lines"].as_str().expect("lines").as_bytes());
    let mut leaves = Vec::new();
    for row in reader.deserialize::<std::collections::HashMap<String, String>>() {
        let row = row.expect("row");
        let money = |name: &str| json!({"amount": row[name], "currency": "IDR"});
        let line = json!({
            "ticketId": row["ticketId"], "flightId": row["flightId"],
            "playerTag": key.tag(&row["externalUserId"]).as_str(),
            "purchasedAt": row["purchasedAt"], "outcome": row["outcome"],
            "stake": money("stake"), "payout": money("payout"), "refund": money("refund"),
            "ggr": money("ggr"), "shareBps": row["shareBps"].parse::<u64>().expect("bps"),
            "share": money("share"),
        });
        let canonical = opinion_statement::canonical_bytes(&line).expect("canonical");
        leaves.push(leaf_hash(&canonical));
    }
    (root_of(&leaves).to_hex(), leaves.len() as u64)
}

#[tokio::test]
async fn a_usd_operator_gets_an_idr_statement_with_a_frozen_usdt_quote_and_every_ticket_proves() {
    let app = spawn_app().await;
    given_two_periods(&app).await;
    let key = app
        .key_with(&["flight:read", "flight_terms:read", "flight_settlements:read"])
        .await;
    let tickets = json_with_status(app.get("/api/operator/flight/tickets?limit=10", &key).await, 200).await;
    let ids: Vec<String> = tickets["data"]
        .as_array()
        .expect("tickets")
        .iter()
        .map(|t| t["id"].as_str().expect("id").to_owned())
        .collect();
    assert_eq!(ids.len(), 4);
    for id in &ids {
        let path = format!("/api/operator/flight/tickets/{id}/proof");
        assert_problem(app.get(&path, &key).await, 404, "proof_not_available").await;
    }

    let report_id = finalize_with_exchange(&app, stand_in_exchange(Exchange::Quotes).await).await;
    let export = json_with_status(app.get(&format!("{REPORTS}/{report_id}/export"), &key).await, 200).await;
    let document = &export["statement"]["document"];
    assert_eq!(document["proofVersion"], 5);
    assert_eq!(document["leafCount"], 3);
    let share = share_from_ticket_export(&app).await;
    assert_eq!(share, 4_500);
    assert_eq!(document["amountDue"], idr(share));
    assert_eq!(document["direction"], "operator_to_platform");
    for (field, amount) in [
        ("stakes", 30_000),
        ("payouts", 0),
        ("refunds", 0),
        ("ggr", 30_000),
        ("share", 4_500),
    ] {
        assert_eq!(document[field], json!([idr(amount)]), "{field}: IDR only");
    }
    let evidence = &document["exchangeEvidence"];
    assert_eq!(evidence["status"], "quoted");
    assert_eq!(evidence["pair"], "USDT/IDR");
    assert_eq!(evidence["rate"], "16250.5");
    assert_eq!(evidence["use"], "comparison_only");
    assert!(
        evidence["source"]
            .as_str()
            .is_some_and(|source| source.starts_with("127.0.0.1")),
        "{evidence}"
    );
    use base64::Engine;
    let raw = base64::engine::general_purpose::STANDARD
        .decode(export["exchangeAnswer"].as_str().expect("the raw answer"))
        .expect("base64");
    assert_eq!(raw, TICKER.as_bytes());
    assert_eq!(evidence["rawSha256"], format!("{:x}", Sha256::digest(&raw)));

    let (root, count) = recompute_root(&export);
    assert_eq!(document["merkleRoot"], root);
    assert_eq!(document["leafCount"], count);
    let detail = json_with_status(app.get(&format!("{REPORTS}/{report_id}"), &key).await, 200).await;
    assert!(
        !detail.to_string().contains(export["playerKey"].as_str().expect("key")),
        "the key is in the export only"
    );

    let statement_file = std::env::temp_dir().join(format!("statement-{report_id}.json"));
    std::fs::write(&statement_file, export["statement"].to_string()).expect("written");
    let statement_arg = statement_file.to_str().expect("utf-8").to_owned();
    let mut proven = 0;
    for id in &ids {
        let response = app.get(&format!("/api/operator/flight/tickets/{id}/proof"), &key).await;
        if response.status() == 404 {
            continue;
        }
        let proof = json_with_status(response, 200).await;
        assert_eq!(proof["merkleRoot"], root);
        assert!(!proof.to_string().contains("p-1"), "no player id in a proof");
        assert!(accepted(&["--statement", &statement_arg], &proof), "{proof}");
        let mut forged = proof.clone();
        forged["line"]["stake"]["amount"] = json!("1");
        assert!(!accepted(&["--statement", &statement_arg], &forged));
        proven += 1;
    }
    std::fs::remove_file(&statement_file).expect("removed");
    assert_eq!(proven, 3, "the November ticket's report is still open");
}

#[tokio::test]
async fn a_slow_or_garbage_exchange_leaves_the_evidence_unavailable_and_the_statement_finalized() {
    for (how, reason) in [(Exchange::Slow, "timeout"), (Exchange::Garbage, "not_json")] {
        let app = spawn_app().await;
        given_two_periods(&app).await;
        let key = app.key_with(&["flight_settlements:read"]).await;
        let report_id = finalize_with_exchange(&app, stand_in_exchange(how).await).await;
        let export = json_with_status(app.get(&format!("{REPORTS}/{report_id}/export"), &key).await, 200).await;
        let evidence = &export["statement"]["document"]["exchangeEvidence"];
        assert_eq!(evidence["status"], "unavailable", "{evidence}");
        assert_eq!(evidence["reason"], reason, "{evidence}");
        assert_eq!(evidence["use"], "comparison_only");
        assert_eq!(export["exchangeAnswer"], Value::Null);
        assert_eq!(export["statement"]["document"]["amountDue"], idr(4_500));
    }
}
