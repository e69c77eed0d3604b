//! TLS to the database against real servers: a private cluster serving TLS under a CA
//! the test harness made, and the plain shared test cluster.

use std::path::Path;

use opinion_app::ports::StoreError;
use opinion_store_pg::{DatabaseTarget, PgStore, run_migrations_on};
use opinion_testkit::{TLS_HOST, TestDatabase, TlsServer};

/// The TLS cluster, started on first use by any test of this file.
async fn server() -> &'static TlsServer {
    tokio::task::spawn_blocking(TlsServer::shared)
        .await
        .expect("TLS server set-up")
}

/// A pool on a fresh database of the TLS cluster, reached as `host` with `params`, given
/// the CA file `ca`.
async fn connect(host: &str, params: &str, ca: Option<&Path>) -> Result<PgStore, StoreError> {
    let server = server().await;
    let url = server.url(host, &server.create_database().await, params);
    PgStore::connect_to(&DatabaseTarget::new(&url, ca)?, 2).await
}

/// The message of a refused connection, which must say why.
fn refusal(outcome: Result<PgStore, StoreError>) -> String {
    match outcome {
        Err(StoreError::Unavailable(message)) => message,
        other => panic!("expected a refused connection, got {other:?}"),
    }
}

#[tokio::test]
async fn verify_full_with_the_servers_ca_connects_encrypted_and_migrates() {
    let server = server().await;
    let url = server.url(TLS_HOST, &server.create_database().await, "sslmode=verify-full");
    let target = DatabaseTarget::new(&url, Some(server.ca_file())).expect("target");

    run_migrations_on(&target).await.expect("migrations over TLS");
    let store = PgStore::connect_to(&target, 2).await.expect("connect");

    assert!(store.uses_tls().await.expect("asked"));
}

#[tokio::test]
async fn a_ca_that_did_not_sign_the_certificate_is_refused_with_the_reason() {
    let server = server().await;
    for mode in ["verify-full", "verify-ca", "require"] {
        let message = refusal(connect(TLS_HOST, &format!("sslmode={mode}"), Some(server.wrong_ca_file())).await);
        assert!(message.contains("UnknownIssuer"), "{mode}: {message}");
    }
    let url = server.url(TLS_HOST, "postgres", "sslmode=verify-full");
    let target = DatabaseTarget::new(&url, Some(server.wrong_ca_file())).expect("target");
    let migrate = run_migrations_on(&target).await.expect_err("refused");
    assert!(migrate.to_string().contains("UnknownIssuer"), "{migrate}");
}

#[tokio::test]
async fn verify_full_refuses_a_certificate_for_another_host_name_and_verify_ca_does_not() {
    let server = server().await;
    let message = refusal(connect("127.0.0.1", "sslmode=verify-full", Some(server.ca_file())).await);
    assert!(message.contains("not valid for name"), "{message}");

    let store = connect("127.0.0.1", "sslmode=verify-ca", Some(server.ca_file()))
        .await
        .expect("verify-ca ignores the name");
    assert!(store.uses_tls().await.expect("asked"));
}

#[tokio::test]
async fn require_encrypts_without_a_ca_and_prefer_takes_tls_when_offered() {
    for mode in ["require", "prefer"] {
        let store = connect(TLS_HOST, &format!("sslmode={mode}"), None).await.expect(mode);
        assert!(store.uses_tls().await.expect("asked"), "{mode}");
    }
    let plain = connect(TLS_HOST, "sslmode=disable", None).await.expect("disable");
    assert!(!plain.uses_tls().await.expect("asked"));
}

#[tokio::test]
async fn sslrootcert_in_the_url_names_the_ca_and_overrides_the_configured_one() {
    let server = server().await;
    let params = format!("sslmode=verify-full&sslrootcert={}", server.ca_file().display());
    let store = connect(TLS_HOST, &params, Some(server.wrong_ca_file()))
        .await
        .expect("the URL's CA is used");
    assert!(store.uses_tls().await.expect("asked"));

    let built_in = refusal(connect(TLS_HOST, "sslmode=verify-full", None).await);
    assert!(built_in.contains("UnknownIssuer"), "{built_in}");
}

#[tokio::test]
async fn require_against_a_server_without_tls_is_refused() {
    let db = TestDatabase::create().await;
    let separator = if db.url().contains('?') { '&' } else { '?' };
    let url = format!("{}{separator}sslmode=require", db.url());

    let message = refusal(PgStore::connect(&url, 2).await);

    assert!(message.contains("server does not support TLS"), "{message}");
}

#[tokio::test]
async fn a_missing_ca_file_fails_before_connecting() {
    let refused = DatabaseTarget::new(
        "postgres://app@db.internal/opinion?sslmode=verify-full",
        Some(Path::new("/nonexistent/db-ca.pem")),
    )
    .expect_err("refused");
    assert!(refused.to_string().contains("/nonexistent/db-ca.pem"), "{refused}");
}
