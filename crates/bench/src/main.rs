//! `opinion-bench` (`just bench`): how fast the service is and how far it is from what
//! the machine allows. It builds the release service, starts a private PostgreSQL under
//! `bench/tmp/`, seeds it with bulk SQL, measures every scenario at a fixed concurrency
//! against the pgbench and `/healthz` baselines of the same run, writes
//! `bench/results/latest.{json,md}`, prints the table and removes everything it started.
//! Everything listens on and targets 127.0.0.1 only.

mod load;
mod pgbench;
mod report;
mod scenarios;
mod settings;
mod wallet;
mod webhook_sink;

use std::path::Path;
use std::time::Instant;

use anyhow::Context;
use opinion_bench::{api, database, local_http, memory, seed, service};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use crate::api::Api;
use crate::database::{CommitCounter, SERVICE_DATABASE, Statements};
use crate::local_http::LocalServer;
use crate::pgbench::{Pgbench, Script};
use crate::report::{Baselines, RunReport, Scenario};
use crate::scenarios::Bench;
use crate::service::{AdminCommand, Service};
use crate::settings::Settings;
use crate::wallet::InstantWallet;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize()?;
    let scratch = workspace.join("bench/tmp");
    let outcome = run(&workspace, &scratch).await;
    if let Err(error) = std::fs::remove_dir_all(&scratch)
        && error.kind() != std::io::ErrorKind::NotFound
    {
        eprintln!("could not remove {}: {error}", scratch.display());
    }
    let (report, smoke) = outcome?;
    println!("\n{}", report.markdown());
    if smoke {
        println!("smoke run: every scenario ran; nothing written (figures of a smoke run mean nothing)");
    } else {
        let results = workspace.join("bench/results");
        report.write(&results)?;
        println!("written: {}/latest.json and latest.md", results.display());
    }
    Ok(())
}

/// The whole run, in `scratch`, and whether it was a smoke run; the cluster and the
/// service are stopped before it returns.
async fn run(workspace: &Path, scratch: &Path) -> anyhow::Result<(RunReport, bool)> {
    let settings = Settings::from_env()?;
    let started = Instant::now();
    let started_at = OffsetDateTime::now_utc().format(&Rfc3339)?;
    if scratch.exists() {
        std::fs::remove_dir_all(scratch).with_context(|| format!("removing the leftover {}", scratch.display()))?;
    }
    std::fs::create_dir_all(scratch)?;
    let binary = service::build(workspace, !settings.smoke)?;

    println!("starting a private PostgreSQL under {}…", scratch.display());
    let cluster = database::start_cluster(&scratch.join("pg"), settings.statements).await?;
    let measured = measure_all(&settings, &binary, &cluster, scratch).await;
    if let Err(error) = cluster.stop() {
        eprintln!("the private PostgreSQL did not stop cleanly: {error}");
    }
    let (baselines, scenarios) = measured?;
    let mut report = RunReport {
        started_at,
        total_seconds: started.elapsed().as_secs_f64(),
        cpus: std::thread::available_parallelism().map_or(1, usize::from),
        concurrency: settings.concurrency,
        seconds_per_scenario: settings.measure.as_secs(),
        seeded_trades: settings.seeded_trades(),
        seeded_operators: settings.operators,
        baselines,
        scenarios,
    };
    report.compute_ratios();
    Ok((report, settings.smoke))
}

/// pgbench, then the service and every scenario; the service is stopped before returning.
async fn measure_all(
    settings: &Settings,
    binary: &Path,
    cluster: &opinion_devdb::Cluster,
    scratch: &Path,
) -> anyhow::Result<(Baselines, Vec<Scenario>)> {
    let mut baselines = Baselines::default();
    let pgbench = Pgbench::locate(cluster)?;
    println!("pgbench: initialising (scale {})…", settings.concurrency);
    pgbench.initialise(settings.concurrency)?;
    let select = pgbench.run(Script::SelectOnly, settings.concurrency, settings.measure)?;
    println!(
        "  pgbench select-only: {:.0} tps, mean {:.2} ms",
        select.per_second, select.mean_ms
    );
    baselines.pgbench_select_only = Some(select);
    let write = pgbench.run(Script::ReadWrite, settings.concurrency, settings.measure)?;
    println!(
        "  pgbench read-write: {:.0} tps, mean {:.2} ms",
        write.per_second, write.mean_ms
    );
    baselines.pgbench_read_write = Some(write);

    println!("starting the service…");
    let no_flights = [("OPINION_FLIGHT_DRIVER", "false".to_owned())];
    let service = Service::start(
        binary,
        &cluster.url(SERVICE_DATABASE),
        &scratch.join("service"),
        &no_flights,
    )?;
    println!("  listening on {}", service.base_url());
    let mut client = database::connect(&cluster.url(SERVICE_DATABASE)).await?;
    let seeded = seed::operators_and_markets(&mut client, settings.operators, settings.concurrency + 1).await?;
    println!(
        "seeding {} trades over {} operators…",
        settings.seeded_trades(),
        settings.operators
    );
    seed::trades(&client, &seeded.markets[0], settings.trades_per_operator).await?;
    let bench = Bench {
        settings,
        api: Api::new(service.base_url())?,
        service_pid: service.pid(),
        seeded: &seeded,
    };
    baselines.healthz = Some(scenarios::healthz::baseline(&bench).await?);

    let mut results = Vec::new();
    match scenarios::reads::availability(&bench).await {
        Ok(()) => results.extend(scenarios::reads::run(&bench).await?),
        Err(reason) => {
            println!("  reads: not available: {reason}");
            results.push(Scenario::not_available(
                "reads.first_page",
                "GET /api/operator/trades?limit=50",
                reason.clone(),
            ));
            results.push(Scenario::not_available(
                "reads.deep_page",
                "GET /api/operator/trades, deep page",
                reason,
            ));
        }
    }
    results.push(scenarios::launch::run(&bench).await?);

    let wallet = LocalServer::start(InstantWallet::default()).await?;
    let traders = scenarios::trading::Traders::prepare(&bench, &wallet.base_url()).await;
    if let Err(reason) = &traders {
        println!("  trading: not available: {reason}");
    }
    let commits = CommitCounter::new(cluster).await?;
    let statements = if settings.statements {
        Some(Statements::new(cluster).await?)
    } else {
        None
    };
    results.extend(scenarios::trading::run(&bench, &traders, &commits, statements.as_ref()).await?);
    results.push(scenarios::webhooks::run(&bench, &traders).await?);
    service.stop();

    // The flight scenarios get a service of their own driving flights with the bench's
    // timing; the scenarios above ran without a flight driver, as they always have.
    let flight_env = [
        ("OPINION_FLIGHT_DRIVER", "true".to_owned()),
        ("OPINION_FLIGHT_BOARDING_MS", settings.flight_boarding_ms.to_string()),
        ("OPINION_FLIGHT_PAUSE_MS", settings.flight_pause_ms.to_string()),
    ];
    println!("starting the service with a flight driver…");
    // The same data directory: its data key unseals what the first service sealed.
    let service = Service::start(
        binary,
        &cluster.url(SERVICE_DATABASE),
        &scratch.join("service"),
        &flight_env,
    )?;
    let bench = Bench {
        settings,
        api: Api::new(service.base_url())?,
        service_pid: service.pid(),
        seeded: &seeded,
    };
    let admin = AdminCommand::new(binary, &cluster.url(SERVICE_DATABASE), &scratch.join("service"));
    results.extend(scenarios::flight::run(&bench, &client, &wallet.base_url(), &admin).await?);
    service.stop();
    Ok((baselines, results))
}
