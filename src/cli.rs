//! The command line: `serve` (the default), `migrate`, and `admin …` for platform staff.

use std::path::PathBuf;

use clap::{ArgGroup, Args, Parser, Subcommand};

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
    /// Markets (platform-wide): creating, closing, resolving, listing.
    Market {
        /// What to do with markets.
        #[command(subcommand)]
        command: MarketCommand,
    },
    /// Manual review of wallet operations whose outcome is not known.
    Review {
        /// What to do with operations in review.
        #[command(subcommand)]
        command: ReviewCommand,
    },
    /// The flight product per operator: enablement and terms.
    Flight {
        /// What to do.
        #[command(subcommand)]
        command: FlightCommand,
    },
    /// The platform's statement signing keys.
    StatementKeys {
        /// What to do.
        #[command(subcommand)]
        command: StatementKeysCommand,
    },
    /// Signed documents of the flight back office (statements and corrections).
    Statement {
        /// What to do.
        #[command(subcommand)]
        command: StatementCommand,
    },
    /// The data key that seals secrets at rest: what each key sealed, and its rotation.
    DataKey {
        /// What to do.
        #[command(subcommand)]
        command: DataKeyCommand,
    },
}

/// `opinion admin data-key …`. The keys come from the environment (`OPINION_DATA_KEY`,
/// and during a rotation `OPINION_DATA_KEY_PREVIOUS`), never from the command line, so
/// they do not show in the process list.
#[derive(Debug, Subcommand)]
pub enum DataKeyCommand {
    /// Counts every sealed column's values by the key that sealed them (current,
    /// previous, none named, another) and the webhook secrets still in clear; `remaining`
    /// is what a rotation has left to do.
    Status,
    /// Re-seals every value not sealed by `OPINION_DATA_KEY` (opening it with
    /// `OPINION_DATA_KEY_PREVIOUS`, or either key for values that name none) and seals
    /// webhook secrets kept in clear, in batches of one transaction each. Idempotent: run
    /// it again after an interruption to finish. Fails while values no configured key
    /// opens remain.
    Rotate {
        /// Values per batch (1 to 10000).
        #[arg(long, default_value_t = 500, value_parser = clap::value_parser!(u32).range(1..=10_000))]
        batch_size: u32,
        /// Stop after this many batches (a later run continues).
        #[arg(long)]
        max_batches: Option<u32>,
    },
}

/// `opinion admin statement …`.
#[derive(Debug, Subcommand)]
pub enum StatementCommand {
    /// Verifies a signed statement or correction, or a report's export: the signature
    /// under a published key (not retired before the document was issued), `proofVersion`
    /// 5, the ticket lines' SHA-256, the statement's totals and Merkle root recomputed from
    /// its lines (with the export's player key), a correction's arithmetic and, with
    /// `--amends`, the statement it amends, and with `--previous` the link to the previous
    /// document. Exits non-zero naming every check that failed.
    Verify {
        /// The signed document, or an export `{"statement", "lines"}`.
        file: PathBuf,
        /// The previous document of the operator's chain (or its export).
        #[arg(long)]
        previous: Option<PathBuf>,
        /// The published keys (`/.well-known/opinion-statement-keys.json`) instead of
        /// the database's.
        #[arg(long)]
        keys: Option<PathBuf>,
        /// The ticket-lines CSV, when the file does not carry it.
        #[arg(long)]
        lines: Option<PathBuf>,
        /// The statement's player key (64 hex digits, the export's `playerKey`), when the
        /// file does not carry it: the leaves are recomputed with it.
        #[arg(long)]
        player_key: Option<String>,
        /// The statement a correction amends (or its export), when `--previous` is not it.
        #[arg(long)]
        amends: Option<PathBuf>,
    },
}

/// `opinion admin statement-keys …`.
#[derive(Debug, Subcommand)]
pub enum StatementKeysCommand {
    /// Makes a new key current and retires the current one: the key in `--key-file` (64
    /// hex digits of its seed), else the configured `OPINION_STATEMENT_SIGNING_KEY`, else
    /// (development only) a new random key kept in the data directory.
    Rotate {
        /// A file holding the new key's seed as 64 hex digits.
        #[arg(long)]
        key_file: Option<PathBuf>,
    },
    /// Lists every key, current and retired.
    List,
}

/// Flight product tools.
#[derive(Debug, Subcommand)]
pub enum FlightCommand {
    /// Enable flight for an operator; refused, with every blocker listed, unless its
    /// wallet passed the flight wallet test and it has terms in force.
    Enable {
        /// The operator (`op_…`).
        #[arg(long)]
        operator: String,
        /// Who enables it.
        #[arg(long)]
        by: String,
    },
    /// Disable flight: no new tickets; tickets already bought fly and settle.
    Disable {
        /// The operator (`op_…`).
        #[arg(long)]
        operator: String,
        /// Who disables it.
        #[arg(long)]
        by: String,
    },
    /// Show whether flight is enabled, what enabling would meet now, and the production
    /// authorization (every record, with who recorded and revoked it).
    Status {
        /// The operator (`op_…`).
        #[arg(long)]
        operator: String,
    },
    /// The operator's terms: set the first version, schedule, cancel and list them.
    Terms {
        /// What to do.
        #[command(subcommand)]
        command: TermsCommand,
    },
    /// Record a production authorization for an operator (production needs one for
    /// enabling flight and for every ticket): the signed-off change it rests on, who
    /// records it, and optionally when it expires. A renewal is a new authorization.
    AuthorizeProduction {
        /// The operator (`op_…`).
        #[arg(long)]
        operator: String,
        /// The reference of the signed-off change (1 to 200 characters).
        #[arg(long)]
        reference: String,
        /// Who records it.
        #[arg(long)]
        by: String,
        /// When it stops authorizing (RFC 3339), e.g. 2027-06-30T00:00:00Z; none: until revoked.
        #[arg(long)]
        expires_at: Option<String>,
    },
    /// Revoke the operator's production authorization at once: no new tickets in
    /// production; tickets already bought fly and settle.
    RevokeProduction {
        /// The operator (`op_…`).
        #[arg(long)]
        operator: String,
        /// Who revokes it.
        #[arg(long)]
        by: String,
    },
    /// Finalizes the operator's settlement report of an ended period into a signed
    /// statement; refused, with every reason, while the period runs or tickets of it
    /// are unsettled or in review.
    Finalize {
        /// The operator (`op_…`).
        #[arg(long)]
        operator: String,
        /// The period, a calendar month UTC: `2026-11`.
        #[arg(long)]
        period: String,
    },
    /// Issues a signed correction of a finalized report's statement, chained after the
    /// operator's last document; the report's balance includes it.
    Correct(CorrectArgs),
    /// Payments against finalized reports.
    Payment {
        /// What to do.
        #[command(subcommand)]
        command: PaymentCommand,
    },
}

/// `opinion admin flight payment …`.
#[derive(Debug, Subcommand)]
pub enum PaymentCommand {
    /// Records a payment against a finalized report: part or all of what remains due
    /// after corrections, in the direction it is due; more, or a bank reference the
    /// operator already has, is refused.
    Record(PaymentArgs),
}

/// One payment, as staff record it.
#[derive(Debug, Args)]
pub struct PaymentArgs {
    /// The operator (`op_…`): a report of another operator is not found.
    #[arg(long)]
    pub operator: String,
    /// The finalized report: its id (`fsr_…`) or its period (`2026-10`).
    #[arg(long)]
    pub report: String,
    /// How much, whole rupiah.
    #[arg(long)]
    pub amount: i64,
    /// `operator_to_platform` or `platform_to_operator`.
    #[arg(long)]
    pub direction: String,
    /// The day the money moved, `YYYY-MM-DD` (not after today, UTC).
    #[arg(long)]
    pub paid_on: String,
    /// The bank or transfer reference (recorded once per operator).
    #[arg(long)]
    pub reference: String,
    /// Who records it.
    #[arg(long)]
    pub by: String,
}

/// One statement correction, as staff give it.
#[derive(Debug, Args)]
pub struct CorrectArgs {
    /// The operator (`op_…`): a report of another operator is not found.
    #[arg(long)]
    pub operator: String,
    /// The finalized report: its id (`fsr_…`) or its period (`2026-10`).
    #[arg(long)]
    pub report: String,
    /// The change of what the operator owes the platform, signed whole rupiah
    /// (`-150000`: it owes 150 000 less, or the platform owes it that much more).
    #[arg(long, allow_negative_numbers = true)]
    pub amount_change: i64,
    /// Why (1 to 1 000 characters), signed into the document and sent to the operator.
    #[arg(long)]
    pub reason: String,
    /// Who issues it (kept by the platform, not in the document).
    #[arg(long)]
    pub by: String,
}

/// Terms versions of one operator.
#[derive(Debug, Subcommand)]
pub enum TermsCommand {
    /// Set the operator's first terms, in force at once.
    Set {
        #[command(flatten)]
        terms: TermsArgs,
    },
    /// Schedule a new version from a UTC period boundary (the 1st of a month, 00:00Z).
    Schedule {
        #[command(flatten)]
        terms: TermsArgs,
        /// When it takes effect (RFC 3339), e.g. 2027-01-01T00:00:00Z.
        #[arg(long)]
        effective_from: String,
    },
    /// Cancel a scheduled version before it takes effect.
    Cancel {
        /// The operator (`op_…`).
        #[arg(long)]
        operator: String,
        /// The version (`ftv_…`).
        #[arg(long)]
        terms: String,
        /// Who cancels it.
        #[arg(long)]
        by: String,
    },
    /// List the version in force, the scheduled ones and the history.
    List {
        /// The operator (`op_…`).
        #[arg(long)]
        operator: String,
    },
}

/// One terms version, as staff give it.
#[derive(Debug, Args)]
pub struct TermsArgs {
    /// The operator (`op_…`).
    #[arg(long)]
    pub operator: String,
    /// The platform's share of GGR in basis points (0 to 10000).
    #[arg(long)]
    pub share_bps: u16,
    /// The smallest stake, whole IDR.
    #[arg(long)]
    pub min_stake: i64,
    /// The largest stake, whole IDR.
    #[arg(long)]
    pub max_stake: i64,
    /// The largest payout of one ticket, whole IDR.
    #[arg(long)]
    pub max_payout: i64,
    /// How many tickets a player may hold on one flight.
    #[arg(long, default_value_t = 2)]
    pub tickets_per_flight: u8,
    /// Days after a period's end its payment is due.
    #[arg(long, default_value_t = 14)]
    pub payment_due_days: u16,
    /// Who sets them.
    #[arg(long)]
    pub by: String,
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

/// Market tools.
#[derive(Debug, Subcommand)]
pub enum MarketCommand {
    /// Create an open market; prints it as JSON.
    Create {
        /// The question players bet on.
        #[arg(long)]
        question: String,
        /// How the question will be resolved.
        #[arg(long)]
        rules: String,
        /// When trading stops (RFC 3339, e.g. 2027-01-31T18:00:00Z).
        #[arg(long)]
        close_at: String,
        /// LMSR liquidity `b`, in each operator's minor units.
        #[arg(long)]
        liquidity: i64,
        /// The trading fee in basis points (0 to 1000).
        #[arg(long, default_value_t = 0)]
        fee_bps: u16,
    },
    /// Stop trading on an open market; prints it as JSON.
    Close {
        /// The market (`mkt_…`).
        #[arg(long)]
        market: String,
    },
    /// Resolve a market (closing it first if open) and create its payouts; prints the
    /// market and one resolution per operator that traded it.
    Resolve {
        /// The market (`mkt_…`).
        #[arg(long)]
        market: String,
        /// `yes`, `no` or `void`.
        #[arg(long)]
        outcome: String,
    },
    /// List the newest markets.
    List {
        /// How many (1 to 200).
        #[arg(long, default_value_t = 50)]
        limit: u16,
    },
}

/// Manual review tools.
#[derive(Debug, Subcommand)]
pub enum ReviewCommand {
    /// List operations in manual review, oldest first.
    List {
        /// Only this operator's (`op_…`).
        #[arg(long)]
        operator: Option<String>,
    },
    /// Show one operation with its steps and its trade, redemption or ticket.
    Show {
        /// The wallet operation (`wop_…`).
        #[arg(long)]
        operation: String,
    },
    /// Record what the operator's wallet log shows and settle the operation.
    #[command(group(ArgGroup::new("finding").required(true).args(["applied", "not_applied"])))]
    Resolve {
        /// The wallet operation (`wop_…`).
        #[arg(long)]
        operation: String,
        /// The wallet applied the mutation (give its `--remote-reference`).
        #[arg(long, requires = "remote_reference")]
        applied: bool,
        /// The wallet's reference of the applied mutation.
        #[arg(long, requires = "applied")]
        remote_reference: Option<String>,
        /// The wallet did not apply the mutation.
        #[arg(long)]
        not_applied: bool,
        /// Who resolves it.
        #[arg(long)]
        by: String,
        /// What the wallet log shows.
        #[arg(long)]
        note: String,
    },
}
