//! Trading: players buy end to end (launch → session → order) through the bench's
//! instant wallet adapter, with unique client order ids; then the same client order ids
//! again (idempotent replays). Also counts the database commits one buy costs.

use std::sync::Arc;
use std::time::{Duration, Instant};

use reqwest::Method;
use serde_json::json;

use crate::api::{Api, CallError};
use crate::database::{CommitCounter, StatementCost, Statements};
use crate::load::{LoadPlan, Request};
use crate::report::{Baseline, Scenario};
use crate::scenarios::{Bench, announce};
use crate::seed::SeededOperator;

const BUY: &str = "trading.buy";
const BUY_DESCRIPTION: &str = "POST /api/player/orders, a buy with a new client order id, wallet answering at once";
const REPLAY: &str = "trading.replay";
const REPLAY_DESCRIPTION: &str = "POST /api/player/orders, a client order id already executed, sent again";

/// Buys in the commit-counting batch. The service's own commits meanwhile (its workers,
/// the flight driver's phases) come in bursts and are subtracted at their idle rate; a
/// batch of 2,000 buys lasted under three seconds and read 1.97 to 2.01 from one run to
/// the next. About ten seconds of buys average the bursts out.
const COMMIT_PROBE_BUYS: u64 = 8_000;

/// Buys in the smoke run's commit-counting batch (the debug build buys slowly).
const COMMIT_PROBE_BUYS_SMOKE: u64 = 400;

/// Minor units each buy spends.
const BUY_VALUE: u64 = 100;

/// The players the workers buy as: each worker has its own players (one per operator it
/// trades for) and its own market, so at most one open trade per player and market, and
/// a market's pool, never make workers wait on each other.
#[derive(Clone)]
pub struct Traders {
    /// Per worker, its players, taken in turn.
    players: Arc<Vec<Vec<Trader>>>,
}

/// A player with an open session and the market it trades.
struct Trader {
    session: String,
    market: String,
}

impl Traders {
    /// Traders of the first operator, one player per worker; see [`Traders::prepare_on`].
    pub async fn prepare(bench: &Bench<'_>, wallet_url: &str) -> Result<Self, String> {
        Self::prepare_on(bench, &bench.seeded.operators[..1], wallet_url).await
    }

    /// Points each of `operators`' wallet adapter at `wallet_url` and opens one player
    /// session per worker and operator it trades for: as many players as the larger of
    /// the workers and the operators, player `i` belonging to operator `i % operators` and
    /// worker `i % workers`. `Err` says why trading cannot be measured.
    pub async fn prepare_on(bench: &Bench<'_>, operators: &[SeededOperator], wallet_url: &str) -> Result<Self, String> {
        for operator in operators {
            configure_wallet(&bench.api, &operator.full_key, wallet_url)
                .await
                .map_err(|error| reason("the wallet adapter configuration", &error))?;
        }
        let workers = bench.settings.concurrency;
        let mut players: Vec<Vec<Trader>> = (0..workers).map(|_| Vec::new()).collect();
        for index in 0..workers.max(operators.len()) {
            let operator = &operators[index % operators.len()];
            let worker = index % workers;
            let launch = bench
                .api
                .launch(&operator.full_key, &format!("bench-trader-{index}"))
                .await
                .map_err(|error| reason("launch", &error))?;
            let session = bench
                .api
                .open_session(&launch)
                .await
                .map_err(|error| reason("player sessions", &error))?;
            let market = bench.seeded.markets[1 + worker % (bench.seeded.markets.len() - 1)].clone();
            players[worker].push(Trader { session, market });
        }
        let traders = Self {
            players: Arc::new(players),
        };
        let probe = format!("bench-probe-{}", operators.len());
        traders
            .buy(&bench.api, 0, 0, &probe)
            .await
            .map_err(|error| format!("a probe buy failed: {error}"))?;
        Ok(traders)
    }

    /// Buys once as `worker`'s player of `turn` (its players taken in turn) with
    /// `client_order_id`; fails unless executed.
    pub async fn buy(&self, api: &Api, worker: usize, turn: u64, client_order_id: &str) -> Result<(), String> {
        let players = &self.players[worker % self.players.len()];
        let trader = &players[usize::try_from(turn % players.len() as u64).unwrap_or(0)];
        match api
            .buy(&trader.session, &trader.market, client_order_id, BUY_VALUE)
            .await
        {
            Ok(status) if status == "executed" => Ok(()),
            Ok(status) => Err(format!("the trade ended {status}")),
            Err(error) => Err(error.to_string()),
        }
    }
}

/// Sets the operator's wallet adapter to the bench's wallet.
async fn configure_wallet(api: &Api, key: &str, wallet_url: &str) -> Result<(), CallError> {
    let body = json!({ "baseUrl": wallet_url, "timeoutMs": 10_000 });
    api.call(Method::PUT, "/api/operator/wallet-adapter", Some(key), Some(&body))
        .await
        .map(drop)
}

/// Why a set-up step stops the scenario.
fn reason(step: &str, error: &CallError) -> String {
    if error.is_not_implemented() {
        format!("{step} is not served yet ({error})")
    } else {
        format!("{step} failed: {error}")
    }
}

/// Buys with a new client order id each time, worker `w` through the instance
/// `w % apis` (one instance, or several of one deployment).
pub struct NewBuy {
    /// The instances.
    pub apis: Vec<Api>,
    /// The players.
    pub traders: Traders,
    /// Client order ids start with it, unique per scenario.
    pub prefix: String,
}

impl Request for NewBuy {
    async fn call(&self, worker: usize, sequence: u64) -> Result<(), String> {
        let api = &self.apis[worker % self.apis.len()];
        self.traders
            .buy(api, worker, sequence, &format!("{}-{sequence}", self.prefix))
            .await
    }
}

/// Buys with the worker's one client order id again and again.
struct ReplayedBuy {
    api: Api,
    traders: Traders,
    prefix: &'static str,
}

impl Request for ReplayedBuy {
    async fn call(&self, worker: usize, _sequence: u64) -> Result<(), String> {
        self.traders
            .buy(&self.api, worker, 0, &format!("{}-{worker}", self.prefix))
            .await
    }
}

/// The buy and replay scenarios; `traders` is `Err` with the reason when trading is not
/// available.
pub async fn run(
    bench: &Bench<'_>,
    traders: &Result<Traders, String>,
    commits: &CommitCounter,
    statements: Option<&Statements>,
) -> anyhow::Result<Vec<Scenario>> {
    let traders = match traders {
        Ok(traders) => traders.clone(),
        Err(reason) => {
            return Ok(vec![
                Scenario::not_available(BUY, BUY_DESCRIPTION, reason.clone()),
                Scenario::not_available(REPLAY, REPLAY_DESCRIPTION, reason.clone()),
            ]);
        }
    };
    let buys = NewBuy {
        apis: vec![bench.api.clone()],
        traders: traders.clone(),
        prefix: "bench".into(),
    };
    let (load, rss) = bench.measure(bench.plan(), buys).await?;
    announce(BUY, &load);
    let (per_buy, profile) = commits_per_buy(bench, &traders, commits, statements).await?;
    let mut buy = Scenario::measured(BUY, BUY_DESCRIPTION, load, rss, Some(Baseline::ReadWrite))
        .with_figure("commits_per_buy", per_buy)
        .with_figure("operators_active", 1.0);
    buy.statements = profile;

    for worker in 0..bench.settings.concurrency {
        traders
            .buy(&bench.api, worker, 0, &format!("bench-replay-{worker}"))
            .await
            .map_err(|error| anyhow::anyhow!("preparing replays: {error}"))?;
    }
    let replays = ReplayedBuy {
        api: bench.api.clone(),
        traders,
        prefix: "bench-replay",
    };
    let (load, rss) = bench.measure(bench.plan(), replays).await?;
    announce(REPLAY, &load);
    let replay = Scenario::measured(REPLAY, REPLAY_DESCRIPTION, load, rss, Some(Baseline::SelectOnly));
    Ok(vec![buy, replay])
}

/// Commits in the service's database over a batch of buys, per successful buy, less
/// what the idle service commits by itself (its workers polling) over the same time;
/// with `statements`, also the batch's statements by time spent.
async fn commits_per_buy(
    bench: &Bench<'_>,
    traders: &Traders,
    commits: &CommitCounter,
    statements: Option<&Statements>,
) -> anyhow::Result<(f64, Vec<StatementCost>)> {
    let idle_from = commits.read().await?;
    let idle_started = Instant::now();
    let idle_to = commits.read().await?;
    let idle_per_second = (idle_to - idle_from) as f64 / idle_started.elapsed().as_secs_f64();
    let plan = LoadPlan {
        concurrency: bench.settings.concurrency,
        warmup: Duration::ZERO,
        measure: Duration::from_secs(60),
        max_requests: if bench.settings.smoke {
            COMMIT_PROBE_BUYS_SMOKE
        } else {
            COMMIT_PROBE_BUYS
        },
        pace: None,
    };
    let request = CountedBuy {
        api: bench.api.clone(),
        traders: traders.clone(),
    };
    if let Some(statements) = statements {
        statements.reset().await?;
    }
    let before = idle_to;
    let busy_started = Instant::now();
    let load = crate::load::run(plan, request).await?;
    let after = commits.read().await?;
    anyhow::ensure!(
        load.ok > 0,
        "no buy of the commit probe succeeded: {:?}",
        load.first_error
    );
    let background = idle_per_second * busy_started.elapsed().as_secs_f64();
    let per_buy = ((after - before) as f64 - background) / load.ok as f64;
    println!(
        "  {BUY}: {per_buy:.2} commits per buy over {} buys (idle service: {idle_per_second:.1} commits/s, subtracted)",
        load.ok
    );
    let profile = match statements {
        Some(statements) => statements.per_buy(load.ok).await?,
        None => Vec::new(),
    };
    Ok((per_buy, profile))
}

/// Buys of the commit-counting batch, with their own client order ids.
struct CountedBuy {
    api: Api,
    traders: Traders,
}

impl Request for CountedBuy {
    async fn call(&self, worker: usize, sequence: u64) -> Result<(), String> {
        self.traders
            .buy(&self.api, worker, sequence, &format!("bench-counted-{sequence}"))
            .await
    }
}
