//! `opinion-soak` (`just soak`): the service as one deployment of two instances over one
//! private PostgreSQL, under steady trading load for half an hour (configurable), with a
//! wallet that times out, fails, answers garbage and drops connections at set rates,
//! webhook receivers that fail and recover, and the second instance killed with SIGKILL
//! and restarted every few minutes. At the end it lets the workers drain, reconciles
//! every wallet mutation against the operator API's balance operations and trades and
//! every event against what the receivers accepted, judges each instance's memory, prints
//! the counts and exits non-zero on any loss, double application, stuck work or growth.
//! Everything listens on and targets 127.0.0.1 only.

mod deployment;
mod load;
mod memory;
mod receivers;
mod reconcile;
mod settings;
mod setup;
mod summary;
mod wallet;

use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Context;
use opinion_bench::api::Api;
use opinion_bench::database::{self, SERVICE_DATABASE};
use opinion_bench::service;

use crate::deployment::Deployment;
use crate::load::Load;
use crate::settings::Settings;
use crate::summary::Summary;

/// The one victim of the kills; the other instance runs throughout.
const KILLED_INSTANCE: usize = 1;

/// How often the drain looks at the remaining work.
const DRAIN_POLL: Duration = Duration::from_secs(2);

#[tokio::main]
async fn main() -> ExitCode {
    match run_in_scratch().await {
        Ok(summary) => {
            println!("\n{}", summary.markdown());
            if summary.failed() {
                println!("soak FAILED: see the failures above");
                ExitCode::FAILURE
            } else {
                println!("soak passed: nothing lost, nothing doubled, memory flat");
                ExitCode::SUCCESS
            }
        }
        Err(error) => {
            eprintln!("soak could not run: {error:#}");
            ExitCode::FAILURE
        }
    }
}

/// The run in `bench/soak-tmp/`, removed afterwards.
async fn run_in_scratch() -> anyhow::Result<Summary> {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize()?;
    let scratch = workspace.join("bench/soak-tmp");
    if scratch.exists() {
        std::fs::remove_dir_all(&scratch).with_context(|| format!("removing the leftover {}", scratch.display()))?;
    }
    std::fs::create_dir_all(&scratch)?;
    let settings = Settings::from_env()?;
    println!("soak settings:\n{}", settings.describe());
    let binary = service::build(&workspace, settings.release)?;
    println!("starting a private PostgreSQL under {}…", scratch.display());
    let cluster = database::start_cluster(&scratch.join("pg"), false).await?;
    let outcome = run(&settings, &binary, &cluster.url(SERVICE_DATABASE), &scratch).await;
    let kept_log = scratch.join("postgresql.log");
    if let Err(error) = std::fs::copy(cluster.log_file(), &kept_log) {
        eprintln!("could not keep the PostgreSQL log as {}: {error}", kept_log.display());
    }
    if let Err(error) = cluster.stop() {
        eprintln!("the private PostgreSQL did not stop cleanly: {error}");
    }
    if outcome.as_ref().is_ok_and(|summary| !summary.failed()) {
        let _ = std::fs::remove_dir_all(&scratch);
    } else {
        println!("the instances' logs and PostgreSQL's are kept in {}", scratch.display());
    }
    outcome
}

/// Everything between the cluster's start and stop.
async fn run(settings: &Settings, binary: &Path, database_url: &str, scratch: &Path) -> anyhow::Result<Summary> {
    let deployment = Arc::new(Deployment::start(binary, database_url, scratch)?);
    println!("instances listening on {}", deployment.up().join(" and "));
    let sampler = deployment.spawn_sampler();
    let world = setup::prepare(settings, &deployment, database_url).await?;

    let started = Instant::now();
    let load = Load::new(
        deployment.clone(),
        world.wallet.clone(),
        &world.operator_key,
        world.markets.clone(),
    );
    let workers = load.spawn(&world.players, settings.workers, settings.rate);
    let kills = chaos(settings, &deployment, &load, started).await?;
    load.stop();
    for worker in workers {
        worker.await?;
    }
    let load_seconds = started.elapsed().as_secs_f64();
    println!("load stopped after {load_seconds:.0} s; receivers recover, workers drain…");
    for receiver in &world.receivers {
        receiver.recover();
    }
    let drained = drain(settings, database_url).await?;

    let api = Api::new(&deployment.up()[0])?;
    let ledger = wallet::applied(&world.wallet.ledger());
    let money = reconcile::money(&api, &world.operator_key, &ledger).await?;
    let received: Vec<(String, receivers::Received)> = world
        .endpoints
        .iter()
        .zip(&world.receivers)
        .map(|(id, receiver)| (id.clone(), receiver.received()))
        .collect();
    let client = database::connect(database_url).await?;
    let events = reconcile::events(&client, &world.operator_uuid, &received).await?;
    sampler.abort();
    let lives = deployment.stop();
    let memory = memory::judge(&lives, settings);
    Ok(Summary {
        settings: settings.clone(),
        load_seconds,
        kills,
        drained,
        load: load.counts(),
        ledger,
        money,
        events,
        lives,
        memory,
    })
}

/// Until the run's end: kills the second instance every `kill_every` and restarts it
/// after `down_for`, printing progress; how many kills.
async fn chaos(
    settings: &Settings,
    deployment: &Arc<Deployment>,
    load: &Load,
    started: Instant,
) -> anyhow::Result<u32> {
    let mut kills = 0;
    let mut next_kill = settings.kill_every;
    loop {
        let elapsed = started.elapsed();
        if elapsed >= settings.duration {
            return Ok(kills);
        }
        if elapsed >= next_kill {
            kills += 1;
            next_kill += settings.kill_every;
            deployment.kill(KILLED_INSTANCE);
            println!(
                "[{:>5.0} s] killed instance {KILLED_INSTANCE} (SIGKILL), kill {kills}",
                elapsed.as_secs_f64()
            );
            tokio::time::sleep(settings.down_for).await;
            let restarting = deployment.clone();
            tokio::task::spawn_blocking(move || restarting.restart(KILLED_INSTANCE)).await??;
            println!(
                "[{:>5.0} s] instance {KILLED_INSTANCE} restarted; orders so far: {:?}",
                started.elapsed().as_secs_f64(),
                load.counts().orders
            );
        }
        let until_kill = next_kill.saturating_sub(started.elapsed());
        let until_end = settings.duration.saturating_sub(started.elapsed());
        tokio::time::sleep(until_kill.min(until_end).min(Duration::from_secs(1))).await;
    }
}

/// What was left when the drain ended.
#[derive(Debug, Clone, Copy)]
pub struct Drained {
    /// Seconds the drain took.
    pub seconds: f64,
    /// Wallet operations still `sent` (an answer awaited or lost).
    pub wallet_in_flight: i64,
    /// Money owed still waiting for its next send (compensations, payouts).
    pub wallet_owed: i64,
    /// Deliveries still pending.
    pub deliveries_pending: i64,
}

/// Waits, at most `settings.drain`, until no wallet operation is in flight or owed and
/// no delivery is pending.
async fn drain(settings: &Settings, database_url: &str) -> anyhow::Result<Drained> {
    let client = database::connect(database_url).await?;
    let started = Instant::now();
    loop {
        let row = client
            .query_one(
                "SELECT (SELECT count(*) FROM wallet_operations WHERE state = 'sent'),
                        (SELECT count(*) FROM wallet_operations WHERE state = 'prepared'),
                        (SELECT count(*) FROM webhook_deliveries WHERE status = 'pending')",
                &[],
            )
            .await?;
        let drained = Drained {
            seconds: started.elapsed().as_secs_f64(),
            wallet_in_flight: row.get(0),
            wallet_owed: row.get(1),
            deliveries_pending: row.get(2),
        };
        let empty = drained.wallet_in_flight + drained.wallet_owed + drained.deliveries_pending == 0;
        if empty || started.elapsed() >= settings.drain {
            println!("drain: {drained:?}");
            return Ok(drained);
        }
        tokio::time::sleep(DRAIN_POLL).await;
    }
}
