//! `opinion-bench` (`just bench`): how fast the service is and how far it is from what
//! the machine allows. It builds the release service, starts a private PostgreSQL under
//! `bench/tmp/`, seeds it with bulk SQL, measures every scenario at a fixed concurrency
//! against the pgbench and `/healthz` baselines of the same run, writes
//! `bench/results/latest.{json,md}`, prints the table and removes everything it started.
//! Everything listens on and targets 127.0.0.1 only.

mod cpu;
mod load;
mod page_sql;
mod pgbench;
mod report;
mod scenarios;
mod settings;
mod targets;
mod wallet;
mod webhook_sink;

use std::path::Path;
use std::time::Instant;

use anyhow::Context;
use opinion_bench::{api, database, local_http, memory, pool_waits, seed, service};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use crate::api::Api;
use crate::cpu::Parties;
use crate::database::{CommitCounter, SERVICE_DATABASE, Statements};
use crate::local_http::LocalServer;
use crate::pgbench::{Pgbench, Script};
use crate::report::{Baselines, RunReport, Scenario};
use crate::scenarios::Bench;
use crate::scenarios::reads::Reads;
use crate::seed::Seeded;
use crate::service::{AdminCommand, Service};
use crate::settings::{Group, Settings};
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
    let (report, written) = outcome?;
    println!("\n{}", report.markdown());
    match written {
        Written::Not(why) => println!("{why}; nothing written"),
        Written::Results => {
            let results = workspace.join("bench/results");
            report.write(&results)?;
            println!("written: {}/latest.json and latest.md", results.display());
        }
    }
    Ok(())
}

/// Whether a run's report is written to `bench/results`.
enum Written {
    /// A full run: its report is the latest results.
    Results,
    /// Not written, for the reason given.
    Not(&'static str),
}

impl Written {
    fn of(settings: &Settings) -> Self {
        if settings.smoke {
            Self::Not("smoke run: every scenario ran (figures of a smoke run mean nothing)")
        } else if !settings.runs_all() {
            Self::Not("some scenario groups only (OPINION_BENCH_ONLY): the report is partial")
        } else {
            Self::Results
        }
    }
}

/// The whole run, in `scratch`, and whether its report is written; the cluster and the
/// service are stopped before it returns.
async fn run(workspace: &Path, scratch: &Path) -> anyhow::Result<(RunReport, Written)> {
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
        targets: Vec::new(),
        curves: Vec::new(),
    };
    report.compute();
    Ok((report, Written::of(&settings)))
}

/// pgbench, then the service and every scenario the settings run; the service is stopped
/// before returning.
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
        parties: Parties::new(service.pid(), cluster.data_dir()),
        seeded: &seeded,
    };
    baselines.healthz = Some(scenarios::healthz::baseline(&bench).await?);

    let statements = if settings.statements {
        Some(Statements::new(cluster).await?)
    } else {
        None
    };
    let mut results = Vec::new();
    if settings.runs(Group::Reads) {
        results.extend(measure_reads(&bench, &pgbench, &client, statements.as_ref(), scratch, &mut baselines).await?);
    }
    if settings.runs(Group::Launch) {
        results.push(scenarios::launch::run(&bench).await?);
    }
    let wallet = LocalServer::start(InstantWallet::default()).await?;
    let with_buys = [Group::Trading, Group::Webhooks, Group::Scaling, Group::Fanout];
    if with_buys.iter().any(|group| settings.runs(*group)) {
        let buys = Buys {
            bench: &bench,
            cluster,
            binary,
            scratch,
            wallet: &wallet.base_url(),
            statements: statements.as_ref(),
            read_write: baselines.pgbench_read_write.as_ref().map(|base| base.per_second),
        };
        results.extend(buys.measure().await?);
    }
    if settings.growth && settings.runs(Group::Reads) {
        println!(
            "seeding up to {} trades per operator for the reads curve…",
            settings.growth_trades_per_operator
        );
        seed::trades_numbered(
            &client,
            &seeded.markets[0],
            settings.trades_per_operator + 1,
            settings.growth_trades_per_operator,
        )
        .await?;
        let grown = settings.operators * settings.growth_trades_per_operator;
        results.extend(scenarios::reads::run(&bench, Reads::Grown, grown).await?);
    }
    service.stop();

    if settings.runs(Group::Flight) {
        // The flight scenarios get a service of their own driving flights with the bench's
        // timing; the scenarios above ran without a flight driver, as they always have.
        let flight_env = [
            ("OPINION_FLIGHT_DRIVER", "true".to_owned()),
            ("OPINION_FLIGHT_BOARDING_MS", settings.flight_boarding_ms.to_string()),
            ("OPINION_FLIGHT_PAUSE_MS", settings.flight_pause_ms.to_string()),
            ("OPINION_LIVE_FEED_PORT", "0".to_owned()),
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
            parties: Parties::new(service.pid(), cluster.data_dir()),
            seeded: &seeded,
        };
        let admin = AdminCommand::new(binary, &cluster.url(SERVICE_DATABASE), &scratch.join("service"));
        let live_feed = service
            .live_feed_url()
            .context("the flight service printed no live feed URL")?;
        results.extend(scenarios::flight::run(&bench, &client, &wallet.base_url(), &admin, live_feed).await?);
        service.stop();
    }
    Ok((baselines, results))
}

/// The trades pages, their SQL checked against what the service ran when asked, and
/// pgbench running that SQL.
async fn measure_reads(
    bench: &Bench<'_>,
    pgbench: &Pgbench,
    client: &tokio_postgres::Client,
    statements: Option<&Statements>,
    scratch: &Path,
    baselines: &mut Baselines,
) -> anyhow::Result<Vec<Scenario>> {
    let mut results = Vec::new();
    match scenarios::reads::availability(bench).await {
        Ok(()) => results.extend(scenarios::reads::run(bench, Reads::Standard, bench.settings.seeded_trades()).await?),
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
    if let Some(statements) = statements {
        baselines.page_sql_verified = Some(verify_page_sql(statements).await?);
    }
    page_baselines(bench.settings, pgbench, client, bench.seeded, scratch, baselines).await?;
    Ok(results)
}

/// What the scenarios made of buys share: the first service, the database, the wallet.
struct Buys<'a> {
    bench: &'a Bench<'a>,
    cluster: &'a opinion_devdb::Cluster,
    binary: &'a Path,
    scratch: &'a Path,
    wallet: &'a str,
    statements: Option<&'a Statements>,
    /// pgbench read-write's tps in this run, the rate delivery is offered at a share of.
    read_write: Option<f64>,
}

impl Buys<'_> {
    /// The trading, webhook, scaling and fan-out groups the settings run.
    async fn measure(&self) -> anyhow::Result<Vec<Scenario>> {
        let (bench, settings) = (self.bench, self.bench.settings);
        let traders = scenarios::trading::Traders::prepare(bench, self.wallet).await;
        if let Err(reason) = &traders {
            println!("  trading: not available: {reason}");
        }
        let mut results = Vec::new();
        if settings.runs(Group::Trading) {
            let commits = CommitCounter::new(self.cluster).await?;
            results.extend(scenarios::trading::run(bench, &traders, &commits, self.statements).await?);
        }
        if settings.runs(Group::Webhooks) {
            results.push(scenarios::webhooks::one_endpoint(bench, &traders).await?);
            results.push(scenarios::webhooks::at_rate(bench, &traders, self.read_write).await?);
        }
        let mut spread = None;
        if settings.runs(Group::Scaling) {
            let (scaled, widest) = self.scaling(&traders, &results).await?;
            results.extend(scaled);
            spread = widest;
        }
        if settings.runs(Group::Fanout) {
            results.extend(scenarios::webhook_fanout::slow_endpoint(bench, &traders).await?);
            let widest = scenarios::scaling::operator_counts(settings.operators).last().copied();
            let (operators, spread) = match (spread, widest) {
                (Some(spread), _) => spread,
                (None, Some(operators)) => (operators, self.traders_of(operators).await),
                (None, None) => (1, traders),
            };
            results.push(
                scenarios::webhook_fanout::many_endpoints(bench, &bench.seeded.operators[..operators], &spread).await?,
            );
        }
        Ok(results)
    }

    /// Players of the first `operators` operators, ready to buy.
    async fn traders_of(&self, operators: usize) -> Result<scenarios::trading::Traders, String> {
        scenarios::trading::Traders::prepare_on(self.bench, &self.bench.seeded.operators[..operators], self.wallet)
            .await
    }

    /// Two instances on one database, then buys spread over more operators; with the
    /// players of the most operators, for the fan-out over many endpoints.
    async fn scaling(
        &self,
        traders: &Result<scenarios::trading::Traders, String>,
        earlier: &[Scenario],
    ) -> anyhow::Result<(Vec<Scenario>, Option<Spread>)> {
        let bench = self.bench;
        println!("starting a second instance on the same database…");
        let second = Service::start_logged(
            self.binary,
            &self.cluster.url(SERVICE_DATABASE),
            &self.scratch.join("service"),
            &self.scratch.join("service/second.log"),
            &[("OPINION_FLIGHT_DRIVER", "false".to_owned())],
        )?;
        let commits_per_buy = earlier
            .iter()
            .find(|scenario| scenario.name == "trading.buy")
            .and_then(|buy| buy.figures.get("commits_per_buy").copied());
        let second_api = Api::new(second.base_url())?;
        let mut results =
            vec![scenarios::scaling::two_instances(bench, &second_api, second.pid(), traders, commits_per_buy).await?];
        second.stop();
        let mut spread = None;
        for operators in scenarios::scaling::operator_counts(bench.settings.operators) {
            let traders = self.traders_of(operators).await;
            results.push(scenarios::scaling::operators_active(bench, operators, &traders).await?);
            spread = Some((operators, traders));
        }
        Ok((results, spread))
    }
}

/// Players spread over the first so many operators.
type Spread = (usize, Result<scenarios::trading::Traders, String>);

/// Checks the page SQL pgbench runs against the statement the service ran for the read
/// scenarios (`pg_stat_statements`); whether both pages' statements were found and match.
async fn verify_page_sql(statements: &Statements) -> anyhow::Result<bool> {
    let ran = statements
        .matching("%FROM \"trades\" WHERE%ORDER BY \"trades\".\"id\" DESC%")
        .await?;
    let first = ran
        .iter()
        .any(|query| page_sql::same_statement(query, &page_sql::first_page_sql()));
    let deep = ran
        .iter()
        .any(|query| page_sql::same_statement(query, &page_sql::deep_page_sql()));
    if !(first && deep) {
        println!("  the page SQL differs from what the service ran; the service ran:");
        for query in &ran {
            println!("    {query}");
        }
    }
    println!("  page SQL checked against pg_stat_statements: first page {first}, deep page {deep}");
    Ok(first && deep)
}

/// pgbench running the trades page's own SQL for the operator the read scenarios load,
/// first page and deep page.
async fn page_baselines(
    settings: &Settings,
    pgbench: &Pgbench,
    client: &tokio_postgres::Client,
    seeded: &Seeded,
    scratch: &Path,
    baselines: &mut Baselines,
) -> anyhow::Result<()> {
    let operator = &seeded.operators[0].uuid;
    let dir = scratch.join("pgbench");
    let first = page_sql::script(
        &dir,
        "first_page",
        &page_sql::first_page_sql(),
        SERVICE_DATABASE,
        operator,
        None,
    )?;
    let report = pgbench.run(first, settings.concurrency, settings.measure)?;
    println!(
        "  pgbench, the first page's SQL: {:.0} tps, mean {:.2} ms",
        report.per_second, report.mean_ms
    );
    baselines.pgbench_trades_first_page = Some(report);
    let cursor = page_sql::cursor_after(client, operator, settings.deep_page).await?;
    let deep = page_sql::script(
        &dir,
        "deep_page",
        &page_sql::deep_page_sql(),
        SERVICE_DATABASE,
        operator,
        Some(&cursor),
    )?;
    let report = pgbench.run(deep, settings.concurrency, settings.measure)?;
    println!(
        "  pgbench, the deep page's SQL: {:.0} tps, mean {:.2} ms",
        report.per_second, report.mean_ms
    );
    baselines.pgbench_trades_deep_page = Some(report);
    Ok(())
}
