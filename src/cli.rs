//! The command line: `serve` (the default), `migrate`, and `admin …` for platform staff.

use std::path::PathBuf;

use clap::{Parser, Subcommand};

/// The Opinion platform's one binary.
#[derive(Debug, Parser)]
#[command(
    name = "opinion",
    version,
    about = "The Opinion platform: operator API service and admin tool"
)]
pub struct Cli {
    /// A TOML configuration file (default: ./opinion.toml when present).
    #[arg(long, env = "OPINION_CONFIG", global = true)]
    pub config: Option<PathBuf>,
    /// What to do; `serve` when omitted.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run the HTTP service (the default).
    Serve,
    /// Apply pending database migrations and exit.
    Migrate,
    /// Platform staff's tools.
    Admin {
        /// Which tool.
        #[command(subcommand)]
        command: AdminCommand,
    },
}

/// Platform staff's tools.
#[derive(Debug, Subcommand)]
pub enum AdminCommand {
    /// Operators (tenants).
    Operator {
        /// What to do with operators.
        #[command(subcommand)]
        command: OperatorCommand,
    },
    /// Operators' dashboard staff.
    Staff {
        /// What to do with staff.
        #[command(subcommand)]
        command: StaffCommand,
    },
}

/// Operator tools.
#[derive(Debug, Subcommand)]
pub enum OperatorCommand {
    /// Create an operator and its first full-access API key; prints JSON.
    Create {
        /// The operator's display name.
        #[arg(long)]
        name: String,
        /// The ISO 4217 currency of its players' wallets; every amount is in its minor units.
        #[arg(long, default_value = "USD")]
        currency: String,
    },
}

/// Staff tools.
#[derive(Debug, Subcommand)]
pub enum StaffCommand {
    /// Create a dashboard staff member (typically an operator's first); prints JSON.
    Create {
        /// The operator (`op_…`).
        #[arg(long)]
        operator: String,
        /// Login e-mail.
        #[arg(long)]
        email: String,
        /// Display name.
        #[arg(long)]
        name: String,
        /// Scopes; repeat the flag for several. Default: `*` (full dashboard access).
        #[arg(long = "scope", default_value = "*")]
        scopes: Vec<String>,
        /// Initial password; generated and printed when omitted.
        #[arg(long, env = "OPINION_STAFF_PASSWORD")]
        password: Option<String>,
    },
}
