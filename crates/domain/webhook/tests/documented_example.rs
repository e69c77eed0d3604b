//! The worked signature example of `docs/operator/webhooks.md` is what this crate produces: the
//! envelope's exact bytes and its signature, so the operators' reference stays true.

use opinion_webhook::{CreatedAt, Envelope, EventType, SigningSecret, sign};
use serde_json::json;

const DOC: &str = include_str!("../../../../docs/operator/webhooks.md");

#[test]
fn the_documented_signature_example_holds() {
    let created: CreatedAt = "2026-11-22T10:15:00.123456Z".parse().expect("time");
    let envelope = Envelope::new(
        "evt_01jdz3qv6mz8x5c0a2t5d4e7f9".parse().expect("event id"),
        EventType::MarketResolved,
        created,
        "op_01jdz3p0000000000000000000".parse().expect("operator id"),
        json!({
            "marketId": "mkt_01jdz3qv6mz8x5c0a2t5d4e7fa",
            "winningOutcome": "yes",
            "resolvedAt": "2026-11-22T10:15:00.123456Z",
        }),
    )
    .expect("envelope");
    let body = serde_json::to_string(&envelope).expect("JSON");
    assert!(
        DOC.contains(&format!("\n{body}\n")),
        "the documented body is not {body}"
    );
    assert!(DOC.contains(&format!("body ({} bytes)", body.len())));

    let secret: SigningSecret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw".parse().expect("secret");
    let headers = sign(
        &[secret],
        "evt_01jdz3qv6mz8x5c0a2t5d4e7f9",
        1_795_343_700,
        body.as_bytes(),
    )
    .expect("signed");
    assert!(DOC.contains(&format!("webhook-signature: {}", headers.webhook_signature)));
}

#[test]
fn every_event_type_is_documented_with_an_example() {
    for event_type in EventType::ALL {
        let name = event_type.as_str();
        assert!(DOC.contains(&format!("| `{name}` |")), "{name} has no row");
        assert!(
            DOC.contains(&format!("{{\"type\": \"{name}\", \"data\": {{")),
            "{name} has no example"
        );
    }
}
