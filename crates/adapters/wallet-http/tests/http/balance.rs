//! Balance reads: a signed POST naming the player, read into a balance or a refusal.

use opinion_app::wallet::ports::WalletGateway;
use opinion_testkit::{ScriptedReply, ScriptedServer};
use opinion_wallet::{BalanceFailure, BalanceReading, RefusalCode};

use crate::support::{gateway, target};

#[tokio::test]
async fn reads_the_balance_with_a_signed_request_naming_the_player() {
    let server = ScriptedServer::start(vec![ScriptedReply::json(
        200,
        r#"{"externalUserId":"player-1","balance":"850","currency":"IDR"}"#,
    )])
    .await;
    let outcome = gateway().balance(&target(&server.url()), "player-1").await;
    assert_eq!(
        outcome.reading,
        BalanceReading::Balance {
            balance: 850,
            currency: "IDR".parse().expect("currency")
        }
    );
    let [request] = server.requests().try_into().expect("one request");
    assert_eq!(request.path, "/v1/balance");
    assert_eq!(
        String::from_utf8_lossy(&request.body),
        r#"{"externalUserId":"player-1","requestedAt":"2026-11-22T10:15:30.123Z"}"#
    );
    assert!(request.header("webhook-id").is_some_and(|id| id.starts_with("bal_")));
    assert_eq!(request.header("idempotency-key"), None);
}

#[tokio::test]
async fn every_read_has_its_own_id() {
    let server = ScriptedServer::start(vec![ScriptedReply::json(404, r#"{"error":{"code":"user_not_found"}}"#)]).await;
    let gateway = gateway();
    for _ in 0..2 {
        let outcome = gateway.balance(&target(&server.url()), "player-9").await;
        assert_eq!(
            outcome.reading,
            BalanceReading::Refused {
                code: RefusalCode::UserNotFound
            }
        );
    }
    let ids: Vec<_> = server
        .requests()
        .iter()
        .map(|request| request.header("webhook-id").map(str::to_owned))
        .collect();
    assert_ne!(ids[0], ids[1]);
}

#[tokio::test]
async fn an_answer_about_another_player_is_unreadable() {
    let server = ScriptedServer::start(vec![ScriptedReply::json(
        200,
        r#"{"externalUserId":"player-2","balance":"850","currency":"IDR"}"#,
    )])
    .await;
    let outcome = gateway().balance(&target(&server.url()), "player-1").await;
    assert_eq!(
        outcome.reading,
        BalanceReading::Failed {
            why: BalanceFailure::UnreadableAnswer { status: 200 }
        }
    );
}
