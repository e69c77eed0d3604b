//! A delivery's page shows what each attempt sent beside what it received: the URL and
//! the signed headers the receiver got, and the body once; never the signing secret.

use std::time::Duration;

use opinion_testkit::WebhookSink;

use super::support::{member, page, post, sign_in, token_of};
use crate::helpers::spawn_app;
use crate::webhooks_support::{DISABLED, deliveries, emit_events, register};

/// `text` as the page writes it.
fn escaped(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[tokio::test]
async fn a_deliverys_page_shows_the_request_each_attempt_sent_beside_its_answer() {
    let app = spawn_app().await;
    member(&app, "admin@example.com", &["*"]).await;
    member(&app, "reader@example.com", &["users:read"]).await;
    let sink = WebhookSink::start().await;
    let url = sink.url("requests");
    let registered = register(&app, &app.operator, &url, &[DISABLED]).await;
    emit_events(&app, 1).await;
    let logged = deliveries(&app, &format!("endpointId={}", registered.id)).await;
    let id = logged[0]["id"].as_str().expect("a delivery").to_owned();
    let cookie = sign_in(&app, "admin@example.com").await;

    let (_, log) = page(&app, "/dashboard/deliveries", &cookie).await;
    assert!(log.contains(&format!("href=\"/dashboard/deliveries/{id}\"")), "{log}");
    let replayed = post(
        &app,
        &format!("/dashboard/deliveries/{id}/replay"),
        &cookie,
        &[("_token", &token_of(&log))],
    )
    .await;
    assert_eq!(replayed.status(), 303);
    let received = sink.wait_for(1, Duration::from_secs(10)).await;
    let sent = received.last().expect("the receiver got the replay");

    let (status, detail) = page(&app, &format!("/dashboard/deliveries/{id}"), &cookie).await;
    assert_eq!(status, 200);
    assert!(detail.contains(&format!("POST {url}")), "{detail}");
    for header in ["webhook-id", "webhook-timestamp", "webhook-signature"] {
        let value = sent.header(header).expect("a signed header");
        assert!(
            detail.contains(&format!("<code>{}</code>", escaped(value))),
            "{header} {value} is shown as sent"
        );
    }
    let body = String::from_utf8(sent.body.clone()).expect("JSON");
    assert!(
        detail.contains(&format!("<pre class=\"body request-body\">{}</pre>", escaped(&body))),
        "the body as received, once: {detail}"
    );
    assert_eq!(detail.matches("request-body").count(), 1, "the body is shown once");
    let secret_key = registered.secret.trim_start_matches("whsec_");
    assert!(!detail.contains(secret_key), "never the signing secret");
    assert!(detail.contains("<strong>204</strong>"), "the answer beside it");

    let (_, log) = page(
        &app,
        &format!("/dashboard/deliveries?endpointId={}", registered.id),
        &cookie,
    )
    .await;
    let signature = escaped(sent.header("webhook-signature").expect("signed"));
    assert!(log.contains(&signature), "the log's attempts show the request too");

    let unknown = opinion_core::WebhookDeliveryId::from_u128(5);
    assert_eq!(
        page(&app, &format!("/dashboard/deliveries/{unknown}"), &cookie).await.0,
        404
    );
    let reader = sign_in(&app, "reader@example.com").await;
    let (status, refused) = page(&app, &format!("/dashboard/deliveries/{id}"), &reader).await;
    assert_eq!(status, 403);
    assert!(refused.contains("webhooks:read"), "{refused}");
}
