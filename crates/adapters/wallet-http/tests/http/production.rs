//! In production the gateway refuses, at call time, targets that are or resolve to
//! loopback, private, link-local or metadata addresses, and never connects to them.

use opinion_app::wallet::ports::WalletGateway;
use opinion_testkit::{ScriptedReply, ScriptedServer};
use opinion_wallet::Classification;
use opinion_wallet_http::AddressPolicy;

use crate::support::{buy, gateway_with, target};

const APPLIED: &str = r#"{"status":"applied","remoteReference":"wtx-1","balance":"850"}"#;

#[tokio::test]
async fn a_loopback_address_is_refused_without_connecting() {
    let server = ScriptedServer::start(vec![ScriptedReply::json(200, APPLIED)]).await;
    let production = gateway_with(AddressPolicy::PublicOnly);
    for base_url in [
        format!("https://{}", server.address()),
        format!("https://localhost:{}", server.address().port()),
        server.url(),
    ] {
        let outcome = production.mutate(&target(&base_url), &buy(150)).await;
        assert_eq!(outcome.classification, Classification::NotSent, "{base_url}");
        let balance = production.balance(&target(&base_url), "player-1").await;
        assert_eq!(balance.http_status, None, "{base_url}");
    }
    assert_eq!(server.connections(), 0);
}

#[tokio::test]
async fn outside_production_the_same_target_is_called() {
    let server = ScriptedServer::start(vec![ScriptedReply::json(200, APPLIED)]).await;
    let outcome = gateway_with(AddressPolicy::Any)
        .mutate(&target(&server.url()), &buy(150))
        .await;
    assert!(matches!(outcome.classification, Classification::Applied { .. }));
}
