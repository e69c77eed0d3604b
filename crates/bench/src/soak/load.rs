//! The load: players launched by the operator, trading through the player API at a
//! steady rate across whichever instances are up. A buy or sale the service did not
//! answer (its instance was killed) is sent again with the same client order id to an
//! instance that is up, as a hosted app would: the service must not trade it twice.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use opinion_bench::api::{Api, CallError, text_field};
use opinion_testkit::FakeWallet;
use rand::Rng;
use reqwest::Method;
use serde_json::{Value, json};

use crate::deployment::Deployment;

/// How often a request the service did not answer is sent again.
const RESENDS: usize = 5;

/// What the load did, by outcome.
#[derive(Debug, Default, Clone)]
pub struct LoadCounts {
    /// Orders by `side/status` as the service answered them (`buy/executed`, …) or by
    /// `side/<problem code>` when refused.
    pub orders: BTreeMap<String, u64>,
    /// Launches and sessions opened.
    pub sessions: u64,
    /// Requests sent again after no answer (an instance killed under them).
    pub resent: u64,
    /// Requests that got no answer from any instance after every resend.
    pub unanswered: u64,
    /// Players who took a new identity, every market of theirs blocked by manual review.
    pub renewed_players: u64,
}

/// The load's shared state.
pub struct Load {
    deployment: Arc<Deployment>,
    wallet: Arc<FakeWallet>,
    clients: Mutex<HashMap<String, Api>>,
    operator_key: String,
    markets: Vec<String>,
    counts: Mutex<LoadCounts>,
    stop: AtomicBool,
}

/// One player as a worker drives it.
struct Player {
    /// The player's first identity; later ones add `-<generation>`.
    base: String,
    generation: u32,
    external_user_id: String,
    session: Option<String>,
    shares: HashMap<String, u64>,
    /// Markets where the player's trade waits for manual review: the service refuses
    /// the player's next trades there (`trade_in_progress`) until staff settle it.
    blocked: HashSet<String>,
}

impl Player {
    fn new(external_user_id: &str) -> Self {
        Self {
            base: external_user_id.to_owned(),
            generation: 0,
            external_user_id: external_user_id.to_owned(),
            session: None,
            shares: HashMap::new(),
            blocked: HashSet::new(),
        }
    }
}

impl Load {
    /// Load over `deployment` (new players' accounts opened in `wallet`) as the operator with `operator_key`, on `markets`.
    pub fn new(
        deployment: Arc<Deployment>,
        wallet: Arc<FakeWallet>,
        operator_key: &str,
        markets: Vec<String>,
    ) -> Arc<Self> {
        Arc::new(Self {
            deployment,
            wallet,
            clients: Mutex::new(HashMap::new()),
            operator_key: operator_key.to_owned(),
            markets,
            counts: Mutex::new(LoadCounts::default()),
            stop: AtomicBool::new(false),
        })
    }

    /// Runs `workers` workers over `players` at `rate` requests per second in all, until
    /// [`Load::stop`].
    pub fn spawn(self: &Arc<Self>, players: &[String], workers: usize, rate: f64) -> Vec<tokio::task::JoinHandle<()>> {
        let pause = Duration::from_secs_f64(workers as f64 / rate);
        (0..workers)
            .map(|worker| {
                let load = self.clone();
                let mine: Vec<Player> = players
                    .iter()
                    .skip(worker)
                    .step_by(workers)
                    .map(|id| Player::new(id))
                    .collect();
                tokio::spawn(async move { load.work(mine, pause).await })
            })
            .collect()
    }

    /// Asks the workers to stop after their current request.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// The counts so far.
    pub fn counts(&self) -> LoadCounts {
        self.counts.lock().unwrap_or_else(PoisonError::into_inner).clone()
    }

    async fn work(&self, mut players: Vec<Player>, pause: Duration) {
        let mut sequence = 0_u64;
        while !self.stop.load(Ordering::Relaxed) {
            for player in &mut players {
                if self.stop.load(Ordering::Relaxed) {
                    return;
                }
                sequence += 1;
                self.step(player, sequence).await;
                tokio::time::sleep(pause).await;
            }
        }
    }

    /// One action of `player`: a new session now and then, else a buy or a sale.
    async fn step(&self, player: &mut Player, sequence: u64) {
        let draw: f64 = rand::thread_rng().r#gen();
        if player.session.is_none() || draw < 0.03 {
            player.session = self.open_session(&player.external_user_id).await;
            return;
        }
        let open: Vec<&String> = self.markets.iter().filter(|m| !player.blocked.contains(*m)).collect();
        if open.is_empty() {
            self.renew(player);
            return;
        }
        let owned: Vec<(String, u64)> = player
            .shares
            .iter()
            .filter(|(market, shares)| **shares > 0 && !player.blocked.contains(*market))
            .map(|(market, shares)| (market.clone(), *shares))
            .collect();
        let client_order_id = format!("{}-{sequence}", player.external_user_id);
        let body = if draw < 0.35 && !owned.is_empty() {
            let (market, shares) = &owned[rand::thread_rng().gen_range(0..owned.len())];
            let sell = rand::thread_rng().gen_range(1..=*shares);
            json!({ "clientOrderId": client_order_id, "marketId": market, "side": "sell", "outcome": "yes",
                    "kind": "shares", "value": sell.to_string() })
        } else {
            let market = open[rand::thread_rng().gen_range(0..open.len())];
            let value = rand::thread_rng().gen_range(100..=2_000_u64);
            json!({ "clientOrderId": client_order_id, "marketId": market, "side": "buy", "outcome": "yes",
                    "kind": "amount", "value": value.to_string() })
        };
        let session = player.session.clone().unwrap_or_default();
        let side = body["side"].as_str().unwrap_or_default().to_owned();
        let market = body["marketId"].as_str().unwrap_or_default().to_owned();
        match self
            .send(Method::POST, "/api/player/orders", Some(&session), &body)
            .await
        {
            Some(Ok(trade)) => {
                let status = text_field(&trade, "status").unwrap_or_else(|_| "unreadable".into());
                if status == "executed" {
                    track(player, &trade, &side);
                } else if status != "failed" {
                    player.blocked.insert(market);
                }
                self.count(format!("{side}/{status}"));
            }
            Some(Err(error)) => {
                if error.status == Some(reqwest::StatusCode::UNAUTHORIZED) {
                    player.session = None;
                }
                if error.detail.starts_with("trade_in_progress") {
                    player.blocked.insert(market);
                }
                self.count(format!("{side}/{}", refusal(&error)));
            }
            None => {}
        }
    }

    /// Gives the player a new identity with an account of its own: every market of the
    /// old one is blocked by a trade in manual review.
    fn renew(&self, player: &mut Player) {
        player.generation += 1;
        player.external_user_id = format!("{}-{}", player.base, player.generation);
        player.session = None;
        player.shares.clear();
        player.blocked.clear();
        self.wallet
            .set_balance(&player.external_user_id, crate::wallet::OPENING_BALANCE);
        self.counts
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .renewed_players += 1;
    }

    async fn open_session(&self, external_user_id: &str) -> Option<String> {
        let body = json!({ "externalUserId": external_user_id });
        let launched = self
            .send(Method::POST, "/api/operator/launch", Some(&self.operator_key), &body)
            .await?
            .ok()?;
        let token = text_field(&launched, "launchToken").ok()?;
        let opened = self
            .send(
                Method::POST,
                "/api/player/sessions",
                None,
                &json!({ "launchToken": token }),
            )
            .await?
            .ok()?;
        let session = text_field(&opened, "sessionToken").ok()?;
        self.counts.lock().unwrap_or_else(PoisonError::into_inner).sessions += 1;
        Some(session)
    }

    /// Sends to an instance that is up, again (same body) to an instance that is up
    /// when there is no answer; `None` when no instance ever answered.
    async fn send(
        &self,
        method: Method,
        path: &str,
        bearer: Option<&str>,
        body: &Value,
    ) -> Option<Result<Value, CallError>> {
        for attempt in 0..=RESENDS {
            if attempt > 0 {
                self.counts.lock().unwrap_or_else(PoisonError::into_inner).resent += 1;
                tokio::time::sleep(Duration::from_millis(500)).await;
            }
            let up = self.deployment.up();
            if up.is_empty() {
                continue;
            }
            let base = &up[rand::thread_rng().gen_range(0..up.len())];
            let api = self.client(base);
            match api.call(method.clone(), path, bearer, Some(body)).await {
                Err(error) if error.status.is_none() => {}
                answered => return Some(answered),
            }
        }
        self.counts.lock().unwrap_or_else(PoisonError::into_inner).unanswered += 1;
        None
    }

    fn client(&self, base: &str) -> Api {
        let mut clients = self.clients.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(api) = clients.get(base) {
            return api.clone();
        }
        let api = Api::new(base).unwrap_or_else(|error| panic!("an HTTP client for {base}: {error}"));
        clients.insert(base.to_owned(), api.clone());
        api
    }

    fn count(&self, outcome: String) {
        *self
            .counts
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .orders
            .entry(outcome)
            .or_default() += 1;
    }
}

/// Follows the player's shares after an executed trade.
fn track(player: &mut Player, trade: &Value, side: &str) {
    let market = trade["marketId"].as_str().unwrap_or_default().to_owned();
    let shares: u64 = trade["shares"].as_str().and_then(|s| s.parse().ok()).unwrap_or(0);
    let held = player.shares.entry(market).or_default();
    if side == "buy" {
        *held += shares;
    } else {
        *held = held.saturating_sub(shares);
    }
}

/// A refusal's problem code (the part of the detail before `:`), with the status.
fn refusal(error: &CallError) -> String {
    let code = error.detail.split(':').next().unwrap_or_default();
    match error.status {
        Some(status) => format!("{} {code}", status.as_u16()),
        None => code.to_owned(),
    }
}
