//! Complete answers, each reported as it arrived and classified per the contract.

use opinion_testkit::{ScriptedReply, ScriptedServer};
use opinion_wallet::{Ambiguity, Classification, IN_PROGRESS_CODE, MutationRequest, RefusalCode, RemoteReference};

use crate::support::{buy, expected_body, mutate};

const APPLIED: &str = r#"{"status":"applied","remoteReference":"wtx-1","balance":"850"}"#;

fn error(code: &str) -> String {
    format!(r#"{{"error":{{"code":"{code}","message":"for the log"}}}}"#)
}

fn ambiguous(why: Ambiguity) -> Classification {
    Classification::Ambiguous { why }
}

#[tokio::test]
async fn an_applied_answer_is_applied_and_the_request_is_the_documented_one() {
    let server = ScriptedServer::start(vec![ScriptedReply::json(200, APPLIED)]).await;
    let mutation = buy(150);
    let outcome = mutate(&format!("{}/opinion", server.url()), &mutation).await;
    assert_eq!(
        outcome.classification,
        Classification::Applied {
            remote_reference: RemoteReference::parse("wtx-1").expect("reference"),
            balance: 850
        }
    );
    assert_eq!(outcome.http_status, Some(200));
    let [request] = server.requests().try_into().expect("one request");
    assert_eq!(
        (request.method.as_str(), request.path.as_str()),
        ("POST", "/opinion/v1/mutations")
    );
    assert_eq!(request.header("content-type"), Some("application/json"));
    assert_eq!(
        request.header("idempotency-key"),
        Some(mutation.idempotency_key().as_str())
    );
    assert_eq!(
        MutationRequest::parse(&request.body).expect("a contract body"),
        expected_body(&mutation)
    );
    assert_eq!(request.body, expected_body(&mutation).to_bytes().expect("bytes"));
}

#[tokio::test]
async fn each_refusal_code_is_a_definite_rejection() {
    let replies = RefusalCode::ALL
        .iter()
        .map(|code| ScriptedReply::json(code.http_status(), &error(code.as_str())))
        .collect();
    let server = ScriptedServer::start(replies).await;
    for code in RefusalCode::ALL {
        let outcome = mutate(&server.url(), &buy(150)).await;
        assert_eq!(outcome.classification, Classification::Rejected { code }, "{code}");
        assert_eq!(outcome.http_status, Some(code.http_status()));
    }
}

#[tokio::test]
async fn in_progress_throttled_and_server_errors_are_ambiguous() {
    let rows = [
        (
            ScriptedReply::json(409, &error(IN_PROGRESS_CODE)),
            ambiguous(Ambiguity::InProgress),
        ),
        (
            ScriptedReply::json(429, &error("insufficient_funds")),
            ambiguous(Ambiguity::RateLimited),
        ),
        (
            ScriptedReply::json(500, APPLIED),
            ambiguous(Ambiguity::ServerError { status: 500 }),
        ),
        (
            ScriptedReply::json(502, ""),
            ambiguous(Ambiguity::ServerError { status: 502 }),
        ),
        (
            ScriptedReply::json(503, &error("user_blocked")),
            ambiguous(Ambiguity::ServerError { status: 503 }),
        ),
        (
            ScriptedReply::json(400, "<html>proxy</html>"),
            ambiguous(Ambiguity::UnknownRefusal {
                status: 400,
                code: None,
            }),
        ),
    ];
    let (replies, expected): (Vec<_>, Vec<_>) = rows.into_iter().unzip();
    let server = ScriptedServer::start(replies).await;
    for expected in expected {
        assert_eq!(mutate(&server.url(), &buy(150)).await.classification, expected);
    }
}

#[tokio::test]
async fn a_redirect_is_not_followed_and_is_ambiguous() {
    let elsewhere = ScriptedServer::start(vec![ScriptedReply::json(200, APPLIED)]).await;
    let redirect = ScriptedReply::Answer {
        status: 302,
        headers: vec![("location".into(), format!("{}/v1/mutations", elsewhere.url()))],
        body: Vec::new(),
    };
    let server = ScriptedServer::start(vec![redirect]).await;
    let outcome = mutate(&server.url(), &buy(150)).await;
    assert_eq!(
        outcome.classification,
        ambiguous(Ambiguity::UnexpectedStatus { status: 302 })
    );
    assert_eq!(outcome.http_status, Some(302));
    assert_eq!(elsewhere.connections(), 0);
}

#[tokio::test]
async fn an_unreadable_or_oversized_success_is_ambiguous() {
    let oversized = format!(
        r#"{{"status":"applied","remoteReference":"wtx-1","balance":"850","padding":"{}"}}"#,
        "x".repeat(opinion_wallet_http::MAX_ANSWER_BYTES)
    );
    let server = ScriptedServer::start(vec![
        ScriptedReply::json(200, "OK"),
        ScriptedReply::json(200, r#"{"status":"applied","balance":"850"}"#),
        ScriptedReply::json(200, &oversized),
    ])
    .await;
    for _ in 0..3 {
        let outcome = mutate(&server.url(), &buy(150)).await;
        assert_eq!(
            outcome.classification,
            ambiguous(Ambiguity::UnreadableSuccess { status: 200 })
        );
    }
}

/// A repeated key gets the wallet's stored answer again: the gateway sends the same key
/// and payload each time (only the attempt's time may differ) and reads the same outcome.
#[tokio::test]
async fn a_repeated_key_reads_the_duplicate_answer_the_same_way() {
    let server = ScriptedServer::start(vec![ScriptedReply::json(200, APPLIED)]).await;
    let mutation = buy(150);
    let first = mutate(&server.url(), &mutation).await;
    let second = mutate(&server.url(), &mutation).await;
    assert_eq!(first.classification, second.classification);
    assert!(matches!(first.classification, Classification::Applied { .. }));
    let [one, two] = server.requests().try_into().expect("two requests");
    let key = mutation.idempotency_key();
    for request in [&one, &two] {
        assert_eq!(request.header("idempotency-key"), Some(key.as_str()));
        assert_eq!(request.header("webhook-id"), Some(key.as_str()));
    }
    let (one, two) = (
        MutationRequest::parse(&one.body).expect("body"),
        MutationRequest::parse(&two.body).expect("body"),
    );
    assert_eq!(one.idempotency_key, key);
    assert_eq!(one.fingerprint(), two.fingerprint());
    assert_eq!(one.fingerprint(), mutation.fingerprint());
}
