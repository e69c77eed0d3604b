//! The worked examples of `docs/operator/wallet-adapter.md` are what the code writes and signs: the
//! buy's body, byte for byte, and its signature, and the flight product's three bodies.
//! If this fails, the document is wrong.

use opinion_core::{FlightId, MarketId, TicketId, TradeId, WalletOperationId};
use opinion_flight::Multiplier;
use opinion_market::Outcome;
use opinion_wallet::{
    Amount, Currency, FlowMetadata, MutationRequest, ShareCount, TicketPayoutMetadata, TicketPurchaseMetadata,
    TicketRefundMetadata, TradeMetadata, WalletMutation,
};
use opinion_webhook::{SigningSecret, sign};

const DOCUMENT: &str = include_str!("../../../../docs/operator/wallet-adapter.md");

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
    )
    .unwrap();
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

/// The flight product's three worked examples: a purchase with an auto cash-out at 2.50,
/// that ticket's payout at 2.50, and another ticket's refund.
fn flight_examples() -> [MutationRequest; 3] {
    let flight: FlightId = "flt_01jdz4b7m3n5p7q9s1t3v5w7x9".parse().unwrap();
    let ticket: TicketId = "tkt_01jdz4b8a2c4e6g8j0k2m4n6p8".parse().unwrap();
    let cancelled: TicketId = "tkt_01jdz4c1q3s5v7x9z1b3d5f7h9".parse().unwrap();
    let cancelled_purchase: WalletOperationId = "wop_01jdz4b8d5f7h9k1m3n5q7r9s1".parse().unwrap();
    let at = |time: &str| time.parse().unwrap();
    [
        (
            25_000,
            FlowMetadata::FlightTicketPurchase(TicketPurchaseMetadata {
                flight_id: flight,
                ticket_id: ticket,
                auto_cash_out: Some(Multiplier::from_hundredths(250)),
            }),
            at("2026-11-22T10:15:30.123Z"),
        ),
        (
            62_500,
            FlowMetadata::FlightTicketPayout(TicketPayoutMetadata {
                flight_id: flight,
                ticket_id: ticket,
                multiplier: Multiplier::from_hundredths(250),
            }),
            at("2026-11-22T10:15:47.391Z"),
        ),
        (
            25_000,
            FlowMetadata::FlightTicketRefund(TicketRefundMetadata {
                flight_id: flight,
                ticket_id: cancelled,
                refund_of: cancelled_purchase,
            }),
            at("2026-11-22T10:16:02.004Z"),
        ),
    ]
    .map(|(amount, metadata, requested_at)| {
        let mutation = WalletMutation::new("player-42", Amount::new(amount).unwrap(), Currency::IDR, metadata).unwrap();
        MutationRequest::of(&mutation, requested_at)
    })
}

#[test]
fn the_documented_flight_bodies_are_what_the_platform_sends() {
    for example in flight_examples() {
        let body = String::from_utf8(example.to_bytes().unwrap()).unwrap();
        assert!(DOCUMENT.contains(&format!("\n{body}\n")), "{body}");
    }
}
