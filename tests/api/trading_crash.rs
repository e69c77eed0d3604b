//! A crash at any point loses nothing: the real binary is killed while a debit is with the
//! operator's wallet; the trade and its `sent` operation survive in the database, and once
//! the wallet's time-out and a grace period have passed, the wallet worker (of any
//! instance) moves them to manual review — never sending the debit again.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::Duration;

use opinion::system_ports::OsRandom;
use opinion_app::opinion::settlement::{MarketSettlement, WorkerSettings};
use opinion_app::opinion::trading::{Trading, TradingPorts};
use opinion_store_pg::{DataKey, PgStore};
use opinion_testkit::{Fault, ManualClock};
use opinion_wallet_http::{AddressPolicy, HttpWalletGateway};
use time::OffsetDateTime;

use crate::helpers::{TEST_DATA_KEY, TEST_STATEMENT_KEY, TestApp, json_with_status, spawn_app};
use crate::trading_support::*;

const SESSION_SECRET: &str = "test session secret of thirty-two bytes at least";

/// The real service as a child process over the test's database; killed on drop.
struct Instance {
    child: Child,
    address: String,
}

impl Instance {
    fn start(database_url: &str) -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_opinion"))
            .env("OPINION_ENV", "staging")
            .env("OPINION_PORT", "0")
            .env("DATABASE_URL", database_url)
            .env("OPINION_SESSION_SECRET", SESSION_SECRET)
            .env("OPINION_DATA_KEY", TEST_DATA_KEY)
            .env("OPINION_STATEMENT_SIGNING_KEY", TEST_STATEMENT_KEY)
            .env("OPINION_WEBHOOK_WORKERS", "0")
            .env("OPINION_WALLET_WORKER_INTERVAL_MS", "0")
            .env("RUST_LOG", "warn")
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("started the binary");
        let mut lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
        let line = lines
            .by_ref()
            .map_while(Result::ok)
            .find(|line| line.contains("listening on"))
            .expect("the service says where it listens");
        let address = line.rsplit(' ').next().expect("an address").to_owned();
        // Keep reading what it prints after, so it never writes to a closed pipe.
        std::thread::spawn(move || lines.for_each(drop));
        Self { child, address }
    }
}

impl Drop for Instance {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A wallet worker over the test's database whose clock the test moves.
async fn worker_at(app: &TestApp, clock: Arc<ManualClock>) -> MarketSettlement {
    let key = DataKey::derive(TEST_DATA_KEY.as_bytes()).expect("data key");
    let store = Arc::new(
        PgStore::connect(app.db.url(), 2)
            .await
            .expect("store")
            .with_data_key(key),
    );
    let random = Arc::new(OsRandom);
    let trading = Trading::new(TradingPorts {
        trades: store.clone(),
        markets: store.clone(),
        operators: store.clone(),
        wallet_adapters: store.clone(),
        wallet: Arc::new(HttpWalletGateway::new(
            clock.clone(),
            random.clone(),
            AddressPolicy::Any,
        )),
        transactions: store.clone(),
        clock,
        random,
    });
    MarketSettlement::new(trading, store, WorkerSettings::default())
}

#[tokio::test]
async fn a_debit_in_flight_when_the_service_dies_ends_in_manual_review_and_is_never_resent() {
    let app = spawn_app().await;
    let market = open_market(&app).await;
    let wallet = wallet_with_timeout(&app, 10_000).await;
    wallet.set_balance("p", 50_000);
    wallet.fail_next("p", Fault::SlowAnswer(Duration::from_secs(2)));
    let url = app.db.url().to_owned();
    let doomed = tokio::task::spawn_blocking(move || Instance::start(&url))
        .await
        .expect("started");

    // Launched and opened through the test instance: same database, same secrets.
    let session = player(&app, "p").await;
    let order_url = format!("{}/api/player/orders", doomed.address);
    let in_flight = app
        .client
        .post(order_url)
        .bearer_auth(&session)
        .json(&order("b1", market, "buy", "shares", 1_000))
        .send();
    let mut doomed = doomed;
    let killer = async {
        tokio::time::sleep(Duration::from_millis(700)).await;
        doomed.child.kill().expect("killed");
    };
    let (answer, ()) = tokio::join!(in_flight, killer);
    assert!(answer.is_err(), "the dying service answered nothing");

    let key = &app.operator.key;
    let operations = json_with_status(
        app.get("/api/operator/balance-operations?externalUserId=p", key).await,
        200,
    )
    .await;
    assert_eq!(
        operations["data"][0]["state"], "sent",
        "the debit was persisted as sent before the call"
    );
    let trades = json_with_status(app.get("/api/operator/trades?externalUserId=p", key).await, 200).await;
    assert_eq!(trades["data"][0]["status"], "pending");

    // Within the wallet's time-out nothing is decided: the answer might still come.
    let clock = Arc::new(ManualClock::new(OffsetDateTime::now_utc()));
    let worker = worker_at(&app, clock.clone()).await;
    assert_eq!(worker.run_wallet_pass().await.expect("pass").recovered, 0);
    // Past the time-out and the grace period, the lost answer is ambiguous.
    clock.set(OffsetDateTime::now_utc() + time::Duration::minutes(5));
    assert_eq!(worker.run_wallet_pass().await.expect("pass").recovered, 1);
    let trades = json_with_status(app.get("/api/operator/trades?externalUserId=p", key).await, 200).await;
    assert_eq!(trades["data"][0]["status"], "manual_review");
    let operations = json_with_status(
        app.get("/api/operator/balance-operations?externalUserId=p", key).await,
        200,
    )
    .await;
    assert_eq!(operations["data"][0]["state"], "manual_review");
    tokio::time::sleep(Duration::from_secs(2)).await;
    assert_eq!(
        wallet.ledger().len(),
        1,
        "the debit reached the wallet once and was never sent again"
    );
    assert_eq!(
        wallet.balance("p"),
        Some(
            50_000
                - operations["data"][0]["amount"]
                    .as_str()
                    .expect("amount")
                    .parse::<i64>()
                    .expect("int")
        )
    );
}
