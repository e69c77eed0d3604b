//! Every call carries Standard Webhooks headers that `opinion_webhook::verify` (what an
//! operator's library does) accepts, signed with every active secret.

use opinion_app::wallet::ports::WalletGateway;
use opinion_testkit::{ScriptedReply, ScriptedServer, WireRequest};
use opinion_webhook::{DEFAULT_TOLERANCE_SECS, SigningSecret, VerifyError, verify};

use crate::support::{NOW, buy, gateway, secret, target};

fn check(request: &WireRequest, secret: &SigningSecret, body: &[u8]) -> Result<(), VerifyError> {
    verify(
        secret,
        request.header("webhook-id").unwrap_or_default(),
        request.header("webhook-timestamp").unwrap_or_default(),
        request.header("webhook-signature").unwrap_or_default(),
        body,
        NOW.unix_timestamp(),
        DEFAULT_TOLERANCE_SECS,
    )
}

#[tokio::test]
async fn a_mutation_verifies_under_its_secret_with_the_key_as_message_id() {
    let server = ScriptedServer::start(vec![ScriptedReply::json(500, "")]).await;
    let mutation = buy(150);
    gateway().mutate(&target(&server.url()), &mutation).await;
    let [request] = server.requests().try_into().expect("one request");
    assert_eq!(request.header("webhook-id"), Some(mutation.idempotency_key().as_str()));
    assert_eq!(
        request.header("webhook-timestamp"),
        Some(NOW.unix_timestamp().to_string().as_str())
    );
    assert_eq!(check(&request, &secret(1), &request.body), Ok(()));
    assert_eq!(check(&request, &secret(2), &request.body), Err(VerifyError::NoMatch));
    let mut tampered = request.body.clone();
    tampered.extend_from_slice(b" ");
    assert_eq!(check(&request, &secret(1), &tampered), Err(VerifyError::NoMatch));
}

#[tokio::test]
async fn during_a_rotation_both_secrets_sign_every_call() {
    let server = ScriptedServer::start(vec![ScriptedReply::json(500, "")]).await;
    let mut rotating = target(&server.url());
    rotating.signing_secrets = vec![secret(2), secret(1)];
    gateway().mutate(&rotating, &buy(150)).await;
    gateway().balance(&rotating, "player-1").await;
    let requests = server.requests();
    assert_eq!(requests.len(), 2);
    for request in &requests {
        assert_eq!(
            request.header("webhook-signature").map(|s| s.split(' ').count()),
            Some(2)
        );
        for held in [secret(1), secret(2)] {
            assert_eq!(check(request, &held, &request.body), Ok(()), "{}", request.path);
        }
        assert_eq!(check(request, &secret(3), &request.body), Err(VerifyError::NoMatch));
    }
}
