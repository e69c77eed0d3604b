//! The adapter against a local stand-in exchange (wiremock on port 0), never the internet:
//! each way a ticker can answer gives the evidence it should.

use std::sync::Arc;
use std::time::Duration;

use opinion_app::flight::exchange::{ExchangeAnswer, ExchangeRates};
use opinion_app::ports::Clock;
use opinion_exchange_http::{HttpExchangeRates, NoExchangeRates, TickerSource};
use opinion_proof::{CurrencyPair, ExchangeEvidence, RawSha256, UnavailableReason};
use time::OffsetDateTime;
use time::macros::datetime;
use wiremock::matchers::{header, method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

const NOW: OffsetDateTime = datetime!(2026-12-01 00:05 UTC);

struct FixedClock;

impl Clock for FixedClock {
    fn now(&self) -> OffsetDateTime {
        NOW
    }
}

fn pair() -> CurrencyPair {
    "USDT/IDR".parse().expect("pair")
}

/// A stand-in exchange answering `response` at `/api/ticker/usdtidr`.
async fn exchange(response: ResponseTemplate) -> MockServer {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/api/ticker/usdtidr"))
        .and(header("accept", "application/json"))
        .respond_with(response)
        .mount(&server)
        .await;
    server
}

fn source(server: &MockServer) -> TickerSource {
    let url = format!("{}/api/ticker/usdtidr", server.uri());
    TickerSource::new(&url, pair(), "/ticker/last").expect("source")
}

async fn ask(source: TickerSource) -> ExchangeAnswer {
    let rates = HttpExchangeRates::new(source, Arc::new(FixedClock)).expect("client");
    rates.evidence(&pair()).await
}

fn reason(answer: &ExchangeAnswer) -> Option<UnavailableReason> {
    match &answer.evidence {
        ExchangeEvidence::Unavailable(unavailable) => {
            assert_eq!(unavailable.at, NOW);
            assert!(answer.raw_answer.is_none());
            Some(unavailable.reason)
        }
        ExchangeEvidence::Quoted(_) => None,
    }
}

#[tokio::test]
async fn a_good_answer_is_a_quote_with_its_raw_bytes_and_their_hash() {
    let body = r#"{"ticker":{"high":"16300","low":"16200","last":"16250.5","server_time":1764547500}}"#;
    let server = exchange(ResponseTemplate::new(200).set_body_string(body)).await;
    let answer = ask(source(&server)).await;
    let ExchangeEvidence::Quoted(quote) = &answer.evidence else {
        panic!("expected a quote, got {:?}", answer.evidence);
    };
    assert_eq!(quote.rate.as_str(), "16250.5");
    assert_eq!(quote.taken_at, NOW);
    assert_eq!(quote.pair, pair());
    assert_eq!(quote.source, source(&server).source_name());
    assert_eq!(answer.raw_answer.as_deref(), Some(body.as_bytes()));
    assert_eq!(quote.raw_sha256, RawSha256::of(body.as_bytes()));
}

#[tokio::test]
async fn a_number_price_and_a_string_price_are_both_taken() {
    let number = exchange(ResponseTemplate::new(200).set_body_string(r#"{"ticker":{"last":16251}}"#)).await;
    let string = exchange(ResponseTemplate::new(200).set_body_string(r#"{"ticker":{"last":"16251.00"}}"#)).await;
    for (server, expected) in [(number, "16251"), (string, "16251.00")] {
        let answer = ask(source(&server)).await;
        let ExchangeEvidence::Quoted(quote) = answer.evidence else {
            panic!("expected a quote");
        };
        assert_eq!(quote.rate.as_str(), expected);
    }
}

#[tokio::test]
async fn a_slow_answer_past_the_time_limit_is_a_timeout() {
    let slow = ResponseTemplate::new(200)
        .set_body_string(r#"{"ticker":{"last":"1"}}"#)
        .set_delay(Duration::from_secs(5));
    let server = exchange(slow).await;
    let source = source(&server).with_timeout(Duration::from_millis(200)).expect("limit");
    let started = std::time::Instant::now();
    let answer = ask(source).await;
    assert_eq!(reason(&answer), Some(UnavailableReason::Timeout));
    assert!(started.elapsed() < Duration::from_secs(3), "{:?}", started.elapsed());
}

#[tokio::test]
async fn garbage_a_missing_field_or_a_bad_price_say_so() {
    let cases = [
        ("<html>maintenance</html>", UnavailableReason::NotJson),
        (r#"{"ticker":{"high":"1"}}"#, UnavailableReason::PriceMissing),
        (r#"{"error":"invalid pair"}"#, UnavailableReason::PriceMissing),
        (r#"{"ticker":{"last":"-3"}}"#, UnavailableReason::PriceInvalid),
        (r#"{"ticker":{"last":true}}"#, UnavailableReason::PriceInvalid),
    ];
    for (body, expected) in cases {
        let server = exchange(ResponseTemplate::new(200).set_body_string(body)).await;
        assert_eq!(reason(&ask(source(&server)).await), Some(expected), "{body}");
    }
}

#[tokio::test]
async fn a_status_other_than_200_is_refused_even_with_a_price() {
    for status in [301, 404, 429, 500, 503] {
        let answer = ResponseTemplate::new(status).set_body_string(r#"{"ticker":{"last":"1"}}"#);
        let server = exchange(answer).await;
        let answer = ask(source(&server)).await;
        assert_eq!(reason(&answer), Some(UnavailableReason::HttpStatus), "{status}");
        let ExchangeEvidence::Unavailable(unavailable) = answer.evidence else {
            panic!("unavailable");
        };
        assert!(unavailable.detail.contains(&status.to_string()));
    }
}

#[tokio::test]
async fn an_oversized_answer_is_refused() {
    let body = format!(r#"{{"ticker":{{"last":"1","pad":"{}"}}}}"#, "x".repeat(4_096));
    let server = exchange(ResponseTemplate::new(200).set_body_string(body)).await;
    let source = source(&server).with_max_answer_bytes(1_024).expect("limit");
    assert_eq!(reason(&ask(source).await), Some(UnavailableReason::TooLarge));
}

#[tokio::test]
async fn an_unreachable_exchange_or_another_pair_is_unavailable() {
    // A port that was just free: nothing listens on it (a dropped MockServer goes back
    // to wiremock's pool and keeps answering).
    let closed = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let url = format!("http://{}/api/ticker/usdtidr", closed.local_addr().expect("address"));
    drop(closed);
    let gone = TickerSource::new(&url, pair(), "/ticker/last").expect("source");
    assert_eq!(reason(&ask(gone).await), Some(UnavailableReason::Unreachable));

    let server = exchange(ResponseTemplate::new(200).set_body_string(r#"{"ticker":{"last":"1"}}"#)).await;
    let rates = HttpExchangeRates::new(source(&server), Arc::new(FixedClock)).expect("client");
    let usd: CurrencyPair = "USD/IDR".parse().expect("pair");
    let answer = rates.evidence(&usd).await;
    assert_eq!(reason(&answer), Some(UnavailableReason::NotConfigured));
    assert_eq!(answer.evidence.pair(), &usd);
}

#[tokio::test]
async fn without_an_exchange_every_answer_is_not_configured() {
    let answer = NoExchangeRates::new(Arc::new(FixedClock)).evidence(&pair()).await;
    assert_eq!(reason(&answer), Some(UnavailableReason::NotConfigured));
}
