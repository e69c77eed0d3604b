//! `opinion admin …`: platform staff's tools, printing one JSON object on stdout.

use anyhow::Context;
use opinion_app::{Access, NewStaff};
use serde_json::{Value, json};

use crate::cli::{AdminCommand, OperatorCommand, StaffCommand};

/// Runs one admin command and returns what to print.
pub async fn run(access: &Access, command: AdminCommand) -> anyhow::Result<Value> {
    match command {
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
