//! `opinion admin …`: platform staff's tools, printing one JSON object on stdout:
//! operators and their first staff here, markets (`markets.rs`), manual review
//! (`review.rs`), the flight product (`flight.rs`, its production authorization in
//! `production_authorization.rs`), the statement keys (`statement_keys.rs`) and
//! verifying signed statements (`statement.rs`) beside; statement corrections and
//! payments of settlement reports (`settlement.rs`); the data key's status and rotation
//! (`data_key.rs`), which work on the store directly, before any use case starts.

mod data_key;
mod flight;
mod markets;
mod production_authorization;
mod review;
mod settlement;
mod statement;
mod statement_keys;

use anyhow::Context;
use opinion_app::access::NewStaff;
use serde_json::{Value, json};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use crate::cli::{AdminCommand, OperatorCommand, StaffCommand};
use crate::config::Config;
use crate::startup::{self, Keys, Services};

/// Runs one admin command over the database at `database_url` and returns what to print.
pub async fn run_command(
    config: &Config,
    database_url: &str,
    keys: &Keys,
    command: AdminCommand,
) -> anyhow::Result<Value> {
    let config = &config.for_admin_commands();
    if let AdminCommand::DataKey { command } = command {
        return data_key::run(config, database_url, keys, command).await;
    }
    let services = startup::services(config, database_url, keys).await?;
    run(config, &services, command).await
}

/// Runs one admin command over the services and returns what to print.
async fn run(config: &Config, services: &Services, command: AdminCommand) -> anyhow::Result<Value> {
    let access = &services.access;
    match command {
        AdminCommand::StatementKeys { command } => statement_keys::run(config, &services.office, command).await,
        AdminCommand::Statement { command } => statement::run(&services.office, command).await,
        AdminCommand::DataKey { .. } => anyhow::bail!("data-key commands run on the store, not the services"),
        AdminCommand::Market { command } => markets::run(&services.settlement, command).await,
        AdminCommand::Review { command } => review::run(&services.settlement, &services.flight, command).await,
        AdminCommand::Flight { command } => flight::run(&services.flight, &services.office, command).await,
        AdminCommand::Operator {
            command: OperatorCommand::Create { name, currency },
        } => {
            let created = access.create_operator(&name, &currency).await?;
            Ok(json!({
                "operatorId": created.operator.id,
                "name": created.operator.name,
                "currency": created.operator.currency.as_str(),
                "apiKeyId": created.first_key.record.id,
                "apiKey": created.first_key.secret.expose(),
            }))
        }
        AdminCommand::Staff {
            command:
                StaffCommand::Create {
                    operator,
                    email,
                    name,
                    scopes,
                    password,
                },
        } => {
            let operator = operator.parse().context("--operator must be an operator id (op_…)")?;
            let created = access
                .create_first_staff(
                    operator,
                    NewStaff {
                        email,
                        name,
                        scopes,
                        password,
                    },
                )
                .await?;
            let mut output = json!({
                "staffId": created.member.id,
                "operatorId": created.member.operator_id,
                "email": created.member.email.as_str(),
                "scopes": created.member.grant.to_strings(),
            });
            if let Some(password) = created.generated_password {
                output["temporaryPassword"] = json!(password);
            }
            Ok(output)
        }
    }
}

/// A time as RFC 3339 text (UTC).
fn rfc3339(at: OffsetDateTime) -> String {
    at.format(&Rfc3339).unwrap_or_else(|_| at.to_string())
}
