//! Calls that got no complete answer: reported as not sent only when provably nothing
//! was written, and as a time-out or a lost connection otherwise.

use std::time::Duration;

use opinion_app::wallet::ports::WalletGateway;
use opinion_testkit::{ScriptedReply, ScriptedServer};
use opinion_wallet::{Ambiguity, Classification};

use crate::support::{buy, closed_port, gateway, mutate, target};

fn ambiguous(why: Ambiguity) -> Classification {
    Classification::Ambiguous { why }
}

#[tokio::test]
async fn an_answer_slower_than_the_time_out_is_a_time_out_after_sending() {
    let server = ScriptedServer::start(vec![ScriptedReply::Hold]).await;
    let mut slow = target(&server.url());
    slow.timeout = Duration::from_millis(300);
    let outcome = gateway().mutate(&slow, &buy(150)).await;
    assert_eq!(outcome.classification, ambiguous(Ambiguity::TimedOut));
    assert_eq!(outcome.http_status, None);
    assert_eq!(server.requests().len(), 1, "the request was sent and read");
}

#[tokio::test]
async fn a_connection_dropped_after_the_request_was_read_is_lost_after_sending() {
    let server = ScriptedServer::start(vec![ScriptedReply::Close]).await;
    let outcome = mutate(&server.url(), &buy(150)).await;
    assert_eq!(outcome.classification, ambiguous(Ambiguity::ConnectionLostAfterSend));
    assert_eq!(server.requests().len(), 1);
}

#[tokio::test]
async fn an_answer_cut_short_is_lost_after_sending() {
    let truncated =
        b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 200\r\n\r\n{\"status\":\"applied\"";
    let server = ScriptedServer::start(vec![ScriptedReply::Raw(truncated.to_vec())]).await;
    let outcome = mutate(&server.url(), &buy(150)).await;
    assert_eq!(outcome.classification, ambiguous(Ambiguity::ConnectionLostAfterSend));
    assert_eq!(outcome.http_status, None);
}

#[tokio::test]
async fn a_refused_connection_is_not_sent() {
    let port = closed_port().await;
    let outcome = mutate(&format!("http://127.0.0.1:{port}"), &buy(150)).await;
    assert_eq!(outcome.classification, Classification::NotSent);
    assert_eq!(outcome.http_status, None);
}

#[tokio::test]
async fn a_name_that_does_not_resolve_is_not_sent() {
    let outcome = mutate("http://wallet.opinion-test.invalid", &buy(150)).await;
    assert_eq!(outcome.classification, Classification::NotSent);
}

#[tokio::test]
async fn a_failed_tls_handshake_is_not_sent() {
    let server = ScriptedServer::start(vec![ScriptedReply::json(200, "{}")]).await;
    let outcome = mutate(&format!("https://{}", server.address()), &buy(150)).await;
    assert_eq!(outcome.classification, Classification::NotSent);
    assert_eq!(server.connections(), 1);
    assert!(server.requests().is_empty(), "no HTTP request was written");
}

#[tokio::test]
async fn a_target_without_secrets_is_not_sent() {
    let server = ScriptedServer::start(vec![ScriptedReply::json(200, "{}")]).await;
    let mut unsigned = target(&server.url());
    unsigned.signing_secrets.clear();
    let outcome = gateway().mutate(&unsigned, &buy(150)).await;
    assert_eq!(outcome.classification, Classification::NotSent);
    assert_eq!(server.connections(), 0);
}

/// A listener whose accept queue is full (backlog 0, one connection waiting) leaves
/// further connections half-open: the connect time-out (half the call's) ends the call,
/// and nothing was written, although the call as a whole also "timed out".
#[tokio::test]
async fn a_connection_that_never_comes_up_is_not_sent() {
    let socket = tokio::net::TcpSocket::new_v4().expect("socket");
    socket.bind("127.0.0.1:0".parse().expect("address")).expect("bind");
    let address = socket.local_addr().expect("address");
    let listener = socket.listen(0).expect("listen");
    let _queued = tokio::net::TcpStream::connect(address).await.expect("fills the queue");
    let mut unreachable = target(&format!("http://{address}"));
    unreachable.timeout = Duration::from_millis(1_000);
    let outcome = gateway().mutate(&unreachable, &buy(150)).await;
    assert_eq!(outcome.classification, Classification::NotSent);
    drop(listener);
}
