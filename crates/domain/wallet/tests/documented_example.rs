//! The worked example of `docs/wallet-adapter.md` is what the code writes and signs: the
//! body, byte for byte, and its signature. If this fails, the document is wrong.

use opinion_core::{MarketId, TradeId};
use opinion_market::Outcome;
use opinion_wallet::{Amount, FlowMetadata, MutationRequest, ShareCount, TradeMetadata, WalletMutation};
use opinion_webhook::{SigningSecret, sign};

const DOCUMENT: &str = include_str!("../../../../docs/wallet-adapter.md");

fn example() -> MutationRequest {
    let trade = TradeMetadata {
        market_id: "mkt_01jdz3n2k8q4r6s8t0v2w4x6y8".parse::<MarketId>().unwrap(),
        trade_id: "trd_01jdz3qv6mz8x5c0a2t5d4e7f9".parse::<TradeId>().unwrap(),
        outcome: Outcome::Yes,
        shares: ShareCount::new(300).unwrap(),
    };
    let mutation = WalletMutation::new(
        "player-42",
        Amount::new(150_000).unwrap(),
        "IDR".parse().unwrap(),
        FlowMetadata::Buy(trade),
    );
    MutationRequest::of(&mutation, "2026-11-22T10:15:30.123Z".parse().unwrap())
}

#[test]
fn the_documented_body_is_what_the_platform_sends() {
    let body = String::from_utf8(example().to_bytes().unwrap()).unwrap();
    assert!(DOCUMENT.contains(&format!("\n{body}\n")), "{body}");
    assert!(DOCUMENT.contains(&format!("({} bytes", body.len())));
}

#[test]
fn the_documented_signature_is_what_the_platform_sends() {
    let secret: SigningSecret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw".parse().unwrap();
    let body = example().to_bytes().unwrap();
    let key = example().idempotency_key.to_string();
    let headers = sign(&[secret], &key, 1_795_342_530, &body).unwrap();
    assert!(DOCUMENT.contains(&format!("webhook-id: {}\n", headers.webhook_id)));
    assert!(DOCUMENT.contains(&format!("webhook-timestamp: {}\n", headers.webhook_timestamp)));
    assert!(
        DOCUMENT.contains(&format!("webhook-signature: {}\n", headers.webhook_signature)),
        "{}",
        headers.webhook_signature
    );
}
