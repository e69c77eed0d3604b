//! The test harness: a running service with its own database and a first operator.

use std::sync::Arc;

use opinion::config::Config;
use opinion::startup::{self, Application, Services, WalletReach};
use opinion::system_ports::OsRandom;
use opinion_app::access::{Access, NewApiKey, NewStaff, RequestClient};
use opinion_app::flight::FlightGame;
use opinion_app::opinion::settlement::MarketSettlement;
use opinion_app::players::Players;
use opinion_app::ports::Clock;
use opinion_app::webhooks::Webhooks;
use opinion_core::OperatorId;
use opinion_metrics::Metrics;
use opinion_store_pg::{DataKey, PgStore};
use opinion_testkit::TestDatabase;
use opinion_wallet_http::{AddressPolicy, HttpWalletGateway};
use reqwest::{Method, RequestBuilder, Response};
use serde_json::Value;

/// The data key every test instance seals signing secrets with.
pub const TEST_DATA_KEY: &str = "test data key of thirty-two bytes or more";
/// The statement signing key (its seed, hex) of test instances and admin commands.
pub const TEST_STATEMENT_KEY: &str = "5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a";

/// A running service and what a test needs to call it.
pub struct TestApp {
    /// `http://127.0.0.1:<port>`.
    pub address: String,
    /// A plain HTTP client.
    pub client: reqwest::Client,
    /// The use cases, to arrange data without going through HTTP.
    pub access: Access,
    /// Platform staff's market administration, resolution and wallet worker passes.
    pub settlement: MarketSettlement,
    /// The flight game: platform staff's terms and enablement, and money passes.
    pub flight: FlightGame,
    /// The first operator.
    pub operator: TestOperator,
    /// Kept so the database lives as long as the test.
    pub db: TestDatabase,
}

/// An operator and its full-access key.
#[derive(Clone)]
pub struct TestOperator {
    /// Its id.
    pub id: OperatorId,
    /// Its `*` API key.
    pub key: String,
}

/// Starts the service on a free port over a fresh database, without webhook delivery
/// workers or a wallet worker (tests drive deliveries and wallet passes themselves, or
/// start an instance that has delivery workers).
pub async fn spawn_app() -> TestApp {
    spawn_configured_app(|config| config).await
}

/// `spawn_app` with `configure` applied to the test instance's configuration.
pub async fn spawn_configured_app(configure: impl FnOnce(Config) -> Config) -> TestApp {
    let db = TestDatabase::create().await;
    let (address, services) = start_with(configure(test_config(db.url(), 0)), db.url()).await;
    let mut app = TestApp {
        address,
        settlement: services.settlement,
        flight: services.flight,
        client: reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .expect("client"),
        access: services.access,
        operator: TestOperator {
            id: OperatorId::from_u128(0),
            key: String::new(),
        },
        db,
    };
    app.operator = app.new_operator("Test operator").await;
    app
}

/// Starts the service configured as production (no simulator) over a fresh database,
/// with a first operator holding a `*` live key.
pub async fn spawn_production_app() -> TestApp {
    spawn_production_app_reaching(WalletReach::ByEnvironment, |config| config).await
}

/// `spawn_production_app` with `configure` applied, calling wallets at the addresses
/// `reach` allows (`AnyAddress` for a `FakeWallet` on the loopback address).
pub async fn spawn_production_app_reaching(reach: WalletReach, configure: impl FnOnce(Config) -> Config) -> TestApp {
    let db = TestDatabase::create().await;
    let config = configure(Config {
        env: opinion::config::Environment::Production,
        public_url: Some("https://opinion.example".into()),
        ..test_config(db.url(), 0)
    });
    let (address, services) = start_reaching(config, db.url(), reach).await;
    let created = services
        .access
        .create_operator("Production operator", "USD")
        .await
        .expect("operator");
    TestApp {
        address,
        client: reqwest::Client::new(),
        access: services.access,
        settlement: services.settlement,
        flight: services.flight,
        operator: TestOperator {
            id: created.operator.id,
            key: created.first_key.secret.expose().to_owned(),
        },
        db,
    }
}

/// The configuration of a test instance with `workers` delivery workers.
pub fn test_config(database_url: &str, workers: usize) -> Config {
    Config {
        port: 0,
        database_url: Some(database_url.to_owned()),
        session_secret: Some("test session secret of thirty-two bytes at least".into()),
        data_key: Some(TEST_DATA_KEY.into()),
        statement_signing_key: Some(TEST_STATEMENT_KEY.into()),
        database_max_connections: 4,
        webhook_workers: workers,
        webhook_database_connections: 2,
        webhook_poll_interval_ms: 20,
        // Tests run the wallet worker's passes themselves (`TestApp::settlement`), and
        // sweep expired player sessions with a clock of their own (`players_with_clock`).
        wallet_worker_interval_ms: 0,
        session_sweep_interval_ms: 0,
        // Flight tests start an instance that drives flights (`spawn_flight_app`).
        flight_driver: false,
        ..Config::default()
    }
}

/// Starts one more instance of the service over `database_url`; returns its address and
/// its use cases.
async fn start_instance(database_url: &str, workers: usize) -> (String, Services) {
    start_with(test_config(database_url, workers), database_url).await
}

/// Starts one instance with `config` over `database_url`; returns its address and its
/// use cases.
async fn start_with(config: Config, database_url: &str) -> (String, Services) {
    start_reaching(config, database_url, WalletReach::ByEnvironment).await
}

/// `start_with`, calling wallets at the addresses `reach` allows.
async fn start_reaching(config: Config, database_url: &str, reach: WalletReach) -> (String, Services) {
    let keys = opinion::secrets::keys(&config).expect("keys");
    let services: Services = startup::services_reaching(&config, database_url, &keys, reach)
        .await
        .expect("wiring");
    let application = Application::bind(&config, services.clone()).expect("bind");
    let address = format!("http://127.0.0.1:{}", application.port());
    tokio::spawn(application.run());
    (address, services)
}

impl TestApp {
    /// Starts a second instance of the service over the same database; returns its address.
    pub async fn second_instance(&self) -> String {
        start_instance(self.db.url(), 0).await.0
    }

    /// Starts another instance over the same database running two webhook delivery
    /// workers on the real clock; returns its address.
    pub async fn instance_with_workers(&self) -> String {
        start_instance(self.db.url(), 2).await.0
    }

    /// The webhook use cases over this app's database with their own connection pool (a
    /// separate worker pool, as on another instance), reading time from `clock`; the
    /// store opens endpoint secrets with the service's data key.
    pub async fn webhooks_with_clock(&self, clock: Arc<dyn Clock>) -> Webhooks {
        let store = PgStore::connect(self.db.url(), 4)
            .await
            .expect("connect")
            .with_data_key(DataKey::derive(TEST_DATA_KEY.as_bytes()).expect("data key"));
        startup::webhooks(
            &test_config(self.db.url(), 0),
            Arc::new(store),
            clock,
            &Arc::new(Metrics::new().expect("metrics")),
        )
        .expect("webhooks")
    }

    /// The player use cases over this app's database with their own connection pool,
    /// reading time from `clock` (to sweep expired sessions at a chosen time).
    pub async fn players_with_clock(&self, clock: Arc<dyn Clock>) -> Players {
        let config = test_config(self.db.url(), 0);
        let store = PgStore::connect(self.db.url(), 4).await.expect("connect");
        let secret = config.session_secret.clone().expect("a session secret");
        let store = Arc::new(store);
        let wallet = Arc::new(HttpWalletGateway::new(
            clock.clone(),
            Arc::new(OsRandom),
            AddressPolicy::Any,
        ));
        let flight = startup::flight(&config, store.clone(), clock.clone(), wallet).expect("flight");
        startup::players(&config, store, Arc::new(flight), clock, secret.as_bytes()).expect("players")
    }

    /// Creates another operator (tenant) with a `*` key.
    pub async fn new_operator(&self, name: &str) -> TestOperator {
        self.new_operator_in(name, "USD").await
    }

    /// Creates another operator (tenant) in `currency` with a `*` key.
    pub async fn new_operator_in(&self, name: &str, currency: &str) -> TestOperator {
        let created = self.access.create_operator(name, currency).await.expect("operator");
        TestOperator {
            id: created.operator.id,
            key: created.first_key.secret.expose().to_owned(),
        }
    }

    /// Creates an API key of the first operator holding exactly `scopes`.
    pub async fn key_with(&self, scopes: &[&str]) -> String {
        self.key_of(&self.operator, scopes).await
    }

    /// Creates an API key of `operator` holding exactly `scopes`.
    pub async fn key_of(&self, operator: &TestOperator, scopes: &[&str]) -> String {
        let caller = self
            .access
            .authenticate(&operator.key, &RequestClient::default())
            .await
            .expect("operator key");
        let request = NewApiKey {
            name: "test key".into(),
            scopes: scopes.iter().map(|s| s.to_string()).collect(),
            expires_at: None,
        };
        self.access
            .create_api_key(&caller, request)
            .await
            .expect("key")
            .secret
            .expose()
            .to_owned()
    }

    /// Creates a staff member of `operator` with `scopes` and logs them in; returns the token.
    pub async fn staff_session(&self, operator: &TestOperator, email: &str, scopes: &[&str]) -> String {
        let password = "a perfectly long test password";
        let request = NewStaff {
            email: email.into(),
            name: "Test staff".into(),
            scopes: scopes.iter().map(|s| s.to_string()).collect(),
            password: Some(password.into()),
        };
        self.access
            .create_first_staff(operator.id, request)
            .await
            .expect("staff");
        self.access
            .start_session(email, password, None)
            .await
            .expect("login")
            .token
    }

    /// A request to `path` (below the address) with an optional bearer credential.
    pub fn request(&self, method: Method, path: &str, credential: Option<&str>) -> RequestBuilder {
        let builder = self.client.request(method, format!("{}{path}", self.address));
        match credential {
            Some(credential) => builder.bearer_auth(credential),
            None => builder,
        }
    }

    /// GET with a credential.
    pub async fn get(&self, path: &str, credential: &str) -> Response {
        self.request(Method::GET, path, Some(credential))
            .send()
            .await
            .expect("request")
    }

    /// POST without a body, with a credential.
    pub async fn post_empty(&self, path: &str, credential: &str) -> Response {
        self.request(Method::POST, path, Some(credential))
            .send()
            .await
            .expect("request")
    }

    /// PATCH a JSON body with a credential.
    pub async fn patch(&self, path: &str, credential: &str, body: &Value) -> Response {
        self.request(Method::PATCH, path, Some(credential))
            .json(body)
            .send()
            .await
            .expect("request")
    }

    /// POST a JSON body with a credential.
    pub async fn post(&self, path: &str, credential: &str, body: &Value) -> Response {
        self.request(Method::POST, path, Some(credential))
            .json(body)
            .send()
            .await
            .expect("request")
    }
}

/// Asserts a problem+json answer with `status` and `code`, and returns its body.
pub async fn assert_problem(response: Response, status: u16, code: &str) -> Value {
    let actual = response.status().as_u16();
    let content_type = response
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    let request_id = response
        .headers()
        .get("x-request-id")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    let body: Value = response.json().await.expect("problem body");
    assert_eq!(actual, status, "{body}");
    assert_eq!(content_type.as_deref(), Some("application/problem+json"), "{body}");
    assert_eq!(body["code"], code, "{body}");
    assert_eq!(body["status"], status, "{body}");
    assert!(body["detail"].as_str().is_some_and(|d| !d.is_empty()), "{body}");
    assert!(
        request_id.as_deref().is_some_and(|id| !id.is_empty()),
        "no x-request-id header: {body}"
    );
    assert_eq!(body["requestId"].as_str(), request_id.as_deref(), "{body}");
    body
}

/// Reads a JSON body after checking the status.
pub async fn json_with_status(response: Response, status: u16) -> Value {
    let actual = response.status().as_u16();
    let body: Value = response.json().await.expect("JSON body");
    assert_eq!(actual, status, "{body}");
    body
}
