//! `opinion`: runs the service (default), migrates, or runs platform admin tools.

use std::process::ExitCode;

use anyhow::Context;
use clap::Parser;
use opinion::cli::{Cli, Command};
use opinion::config::{Config, Environment};
use opinion::database::{self, Database};
use opinion::startup::{self, Application};
use opinion::{admin, allocator, dev_seed, secrets, telemetry};
use opinion_api::player::flight_feed::LIVE_PATH;

fn main() -> ExitCode {
    allocator::cap_arenas();
    let cli = Cli::parse();
    let outcome = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")
        .and_then(|runtime| runtime.block_on(run(cli)));
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error:#}");
            ExitCode::FAILURE
        }
    }
}

async fn run(cli: Cli) -> anyhow::Result<()> {
    let config = Config::load(cli.config.as_deref())?;
    telemetry::init(config.log_format);
    let database = Database::resolve(&config).await?;
    let outcome = match cli.command.unwrap_or(Command::Serve) {
        Command::Serve => serve(&config, &database.url).await,
        Command::Migrate => migrate(&config, &database.url).await,
        Command::Admin { command } => {
            let output = admin::run_command(&config, &database.url, &secrets::keys(&config)?, command).await?;
            println!("{output}");
            Ok(())
        }
    };
    database.shut_down();
    outcome
}

/// `opinion migrate`: the pending migrations, over the connection the service would use.
async fn migrate(config: &Config, database_url: &str) -> anyhow::Result<()> {
    opinion_store_pg::run_migrations_on(&database::target(config, database_url)?)
        .await
        .context("migrating the database")?;
    tracing::info!("migrations applied");
    Ok(())
}

async fn serve(config: &Config, database_url: &str) -> anyhow::Result<()> {
    let services = startup::services(config, database_url, &secrets::keys(config)?).await?;
    let demo = if config.env == Environment::Development {
        Some(dev_seed::ensure_demo_operator(&services.access, &config.data_dir).await?)
    } else {
        None
    };
    let application = Application::bind(config, services)?;
    let base = format!("http://{}:{}", config.host, application.port());
    println!("Opinion ({:?}) listening on {base}", config.env);
    if let Some(port) = application.live_feed_port() {
        println!("  Live feed: http://{}:{port}{LIVE_PATH}", config.host);
    }
    println!("  OpenAPI document: {base}/api/operator/openapi.json");
    println!("  Docs: {base}{}", opinion_api::DOCS_PATH);
    println!("  Dashboard: {base}{}", opinion_api::DASHBOARD_PATH);
    if let Some(demo) = demo {
        println!("  demo operator {}: API key {}", demo.operator_id, demo.api_key);
        println!("  demo staff login {} / {}", demo.staff_email, demo.staff_password);
        println!(
            "  (saved in {})",
            dev_seed::credentials_path(&config.data_dir).display()
        );
    }
    application.run().await.context("serving HTTP")
}
