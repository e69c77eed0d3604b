//! The service over a database reached with TLS: a private cluster serving TLS under a
//! CA the test harness made (`opinion_testkit::TlsServer`), configured as production is,
//! through `DATABASE_URL` and `OPINION_DATABASE_CA_FILE`.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use diesel::QueryableByName;
use diesel::sql_types::BigInt;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use opinion::config::{Config, Environment};
use opinion::startup::{self, Application, WalletReach};
use opinion_testkit::{TLS_HOST, TlsServer};
use reqwest::StatusCode;

use crate::helpers::{TEST_DATA_KEY, TEST_STATEMENT_KEY, test_config};

/// The TLS cluster, started on first use.
async fn server() -> &'static TlsServer {
    tokio::task::spawn_blocking(TlsServer::shared)
        .await
        .expect("TLS server set-up")
}

/// Sessions on database `name` of the TLS cluster, counted by whether they are encrypted.
#[derive(QueryableByName)]
struct Sessions {
    #[diesel(sql_type = BigInt)]
    encrypted: i64,
    #[diesel(sql_type = BigInt)]
    plain: i64,
}

/// How the service's sessions on database `name` are protected, seen from the server.
async fn sessions_on(server: &TlsServer, name: &str) -> Sessions {
    let admin = server.url("127.0.0.1", "postgres", "sslmode=disable");
    let mut conn = AsyncPgConnection::establish(&admin).await.expect("connect");
    diesel::sql_query(
        "SELECT count(*) FILTER (WHERE s.ssl) AS encrypted, count(*) FILTER (WHERE NOT s.ssl) AS plain \
         FROM pg_stat_activity a JOIN pg_stat_ssl s USING (pid) WHERE a.datname = $1",
    )
    .bind::<diesel::sql_types::Text, _>(name)
    .get_result(&mut conn)
    .await
    .expect("sessions")
}

#[tokio::test]
async fn a_production_instance_serves_over_a_verified_encrypted_database() {
    let server = server().await;
    let name = server.create_database().await;
    let url = server.url(TLS_HOST, &name, "sslmode=verify-full");
    let config = Config {
        env: Environment::Production,
        public_url: Some("https://opinion.example".into()),
        database_ca_file: Some(server.ca_file().to_path_buf()),
        ..test_config(&url, 0)
    };
    config.validate().expect("a valid configuration");
    let keys = opinion::secrets::keys(&config).expect("keys");
    let services = startup::services_reaching(&config, &url, &keys, WalletReach::ByEnvironment)
        .await
        .expect("wiring over TLS");
    let created = services
        .access
        .create_operator("TLS operator", "USD")
        .await
        .expect("operator");
    let application = Application::bind(&config, services).expect("bind");
    let address = format!("http://127.0.0.1:{}", application.port());
    tokio::spawn(application.run());
    let client = reqwest::Client::new();

    let ready = client.get(format!("{address}/readyz")).send().await.expect("sent");
    let settings = client
        .get(format!("{address}/api/operator/launch-settings"))
        .bearer_auth(created.first_key.secret.expose())
        .send()
        .await
        .expect("sent");

    assert_eq!(ready.status(), StatusCode::OK);
    assert_eq!(settings.status(), StatusCode::OK);
    let sessions = sessions_on(server, &name).await;
    assert!(sessions.encrypted > 0, "the service holds sessions");
    assert_eq!(sessions.plain, 0, "every session of the service is encrypted");
}

/// Runs the real binary (`opinion` with `args`) as production over `database_url`,
/// trusting `ca_file`; its exit success and stderr. Killed when it runs longer than a
/// start-up takes (a serving instance would run on).
fn opinion(args: &[&str], database_url: &str, ca_file: &Path) -> (bool, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_opinion"))
        .args(args)
        .env("OPINION_ENV", "production")
        .env("OPINION_PORT", "0")
        .env("DATABASE_URL", database_url)
        .env("OPINION_DATABASE_CA_FILE", ca_file)
        .env(
            "OPINION_SESSION_SECRET",
            "test session secret of thirty-two bytes at least",
        )
        .env("OPINION_DATA_KEY", TEST_DATA_KEY)
        .env("OPINION_STATEMENT_SIGNING_KEY", TEST_STATEMENT_KEY)
        .env("RUST_LOG", "off")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("started the binary");
    let started = Instant::now();
    while child.try_wait().expect("waited").is_none() {
        if started.elapsed() > Duration::from_secs(30) {
            let _ = child.kill();
            panic!("`opinion {args:?}` still runs after 30 s");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let output = child.wait_with_output().expect("output");
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[tokio::test]
async fn the_binary_migrates_with_the_right_ca_and_refuses_to_start_with_a_wrong_one() {
    let server = server().await;
    let url = server.url(TLS_HOST, &server.create_database().await, "sslmode=verify-full");

    let migrate = tokio::task::spawn_blocking({
        let url = url.clone();
        move || opinion(&["migrate"], &url, server.ca_file())
    })
    .await
    .expect("ran");
    let serve = tokio::task::spawn_blocking(move || opinion(&[], &url, server.wrong_ca_file()))
        .await
        .expect("ran");

    assert!(migrate.0, "{}", migrate.1);
    let (started, stderr) = serve;
    assert!(!started, "a wrong CA must stop the start");
    assert!(
        stderr.contains("migrating the database") && stderr.contains("invalid peer certificate: UnknownIssuer"),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
}
