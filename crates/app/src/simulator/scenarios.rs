//! `POST /simulator/operations`: operator-wide scenarios. Connecting the simulated
//! wallet, creating a simulator market, a batch of simulated users trading it, and
//! resolving it with its payouts sent at once.
//!
//! Markets are platform-wide, so a simulator market is visible to every operator of the
//! environment (its question starts with `[Simulator]`). Only the operator whose
//! simulator created it may resolve it through the simulator, and only while no other
//! operator has traded it: nobody else's players are paid out by someone's rehearsal.

use opinion_core::{MarketId, OperatorId, SimulatorUserId};
use opinion_market::{OrderKind, Outcome, Resolution, Side};
use time::Duration;

use crate::access::Principal;
use crate::error::{AppError, ProblemCode};
use crate::opinion::settlement::NewMarket;
use crate::opinion::trading::OrderRequest;
use crate::simulator::Simulator;
use crate::simulator::report::OperationReport;
use crate::wallet::WalletAdapterChange;

/// The latest close a simulated market may get, in minutes from now: a year.
pub const MAX_CLOSE_IN_MINUTES: i64 = 525_600;

/// Most users one trade batch drives.
pub const MAX_BATCH: usize = 50;

/// An operator-wide scenario.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Scenario {
    /// Points the operator's wallet adapter at its simulated wallet.
    ConnectWallet {
        /// The adapter's timeout in milliseconds; the default when absent.
        timeout_ms: Option<i64>,
    },
    /// Creates an open simulator market.
    CreateMarket {
        /// The question; `[Simulator]` is put in front.
        question: String,
        /// Minutes until trading closes (1 to 525600).
        close_in_minutes: i64,
        /// LMSR liquidity `b`, minor units.
        liquidity: i64,
        /// Fee in basis points.
        fee_bps: u16,
    },
    /// Each listed simulated user (or the newest 50) buys `shares` of `outcome`.
    TradeBatch {
        /// The market.
        market_id: MarketId,
        /// YES or NO.
        outcome: Outcome,
        /// Shares per user.
        shares: i64,
        /// The users; empty means the operator's newest 50.
        users: Vec<SimulatorUserId>,
    },
    /// Resolves a simulator market and sends its payouts.
    ResolveMarket {
        /// The market.
        market_id: MarketId,
        /// How it resolves.
        resolution: Resolution,
    },
}

impl Scenario {
    /// Every scenario's name on the wire, in the order `name` lists them.
    pub const NAMES: [&'static str; 4] = ["connect_wallet", "create_market", "trade_batch", "resolve_market"];

    /// The scenario's name on the wire.
    pub fn name(&self) -> &'static str {
        match self {
            Self::ConnectWallet { .. } => "connect_wallet",
            Self::CreateMarket { .. } => "create_market",
            Self::TradeBatch { .. } => "trade_batch",
            Self::ResolveMarket { .. } => "resolve_market",
        }
    }
}

impl Simulator {
    /// Runs an operator-wide scenario and reports each step.
    pub async fn run_scenario(&self, caller: &Principal, scenario: Scenario) -> Result<OperationReport, AppError> {
        let mut report = OperationReport::new(scenario.name());
        match scenario {
            Scenario::ConnectWallet { timeout_ms } => self.connect(caller, timeout_ms, &mut report).await?,
            Scenario::CreateMarket {
                question,
                close_in_minutes,
                liquidity,
                fee_bps,
            } => {
                if !(1..=MAX_CLOSE_IN_MINUTES).contains(&close_in_minutes) {
                    return Err(AppError::invalid(
                        "closeInMinutes",
                        format!("must be between 1 and {MAX_CLOSE_IN_MINUTES}"),
                    ));
                }
                let new = NewMarket {
                    question: format!("[Simulator] {question}"),
                    rules: "Created by the staging simulator; resolved by the operator that created it.".into(),
                    close_at: self.ports.clock.now() + Duration::minutes(close_in_minutes),
                    liquidity,
                    fee_bps,
                };
                let market = self.settlement.create_market(new).await?;
                let now = self.ports.clock.now();
                self.ports
                    .store
                    .record_simulator_market(caller.operator_id, market.id, now)
                    .await?;
                report.done(
                    "create_market",
                    format!("created the open market `{}`", market.question),
                    [("marketId", market.id.to_string())],
                );
            }
            Scenario::TradeBatch {
                market_id,
                outcome,
                shares,
                users,
            } => {
                self.batch(caller, market_id, outcome, shares, users, &mut report)
                    .await?
            }
            Scenario::ResolveMarket { market_id, resolution } => {
                self.resolve(caller.operator_id, market_id, resolution, &mut report)
                    .await?;
            }
        }
        Ok(report)
    }

    async fn connect(
        &self,
        caller: &Principal,
        timeout_ms: Option<i64>,
        report: &mut OperationReport,
    ) -> Result<(), AppError> {
        let base_url = self.wallet_base_url(caller.operator_id);
        let change = WalletAdapterChange {
            base_url: base_url.clone(),
            timeout_ms,
            rotate_secret: false,
        };
        let saved = self.wallet_adapters.set_wallet_adapter(caller, change).await?;
        report.done(
            "connect_wallet",
            "the wallet adapter now calls the simulated wallet; it verifies the adapter's own signing secret",
            [
                ("baseUrl", base_url),
                ("timeoutMs", saved.adapter.config.timeout.as_millis().to_string()),
            ],
        );
        Ok(())
    }

    async fn batch(
        &self,
        caller: &Principal,
        market_id: MarketId,
        outcome: Outcome,
        shares: i64,
        users: Vec<SimulatorUserId>,
        report: &mut OperationReport,
    ) -> Result<(), AppError> {
        if users.len() > MAX_BATCH {
            return Err(AppError::invalid(
                "users",
                format!("at most {MAX_BATCH} users per batch"),
            ));
        }
        if let Some(repeated) = users
            .iter()
            .enumerate()
            .find_map(|(at, id)| users[..at].contains(id).then_some(id))
        {
            return Err(AppError::invalid("users", format!("lists `{repeated}` twice")));
        }
        let users = if users.is_empty() {
            let page = opinion_core::PageRequest {
                limit: opinion_core::PageLimit::new(50).map_err(|_| AppError::Internal("page limit".into()))?,
                after: None,
            };
            self.list_users(caller, page).await?.items
        } else {
            let mut found = Vec::new();
            for id in users {
                found.push(self.user(caller, id).await?);
            }
            found
        };
        if users.is_empty() {
            return Err(AppError::Conflict {
                code: ProblemCode::NoSimulatedUsers,
                detail: "create simulated users before running a trade batch".into(),
            });
        }
        let order = OrderRequest {
            market_id,
            side: Side::Buy,
            outcome,
            kind: OrderKind::Shares,
            value: shares,
            limit: None,
        };
        for user in &users {
            self.trade(caller, user, &order, report).await?;
        }
        Ok(())
    }

    async fn resolve(
        &self,
        operator: OperatorId,
        market_id: MarketId,
        resolution: Resolution,
        report: &mut OperationReport,
    ) -> Result<(), AppError> {
        if !self.ports.store.is_simulator_market(operator, market_id).await? {
            return Err(AppError::Conflict {
                code: ProblemCode::NotASimulatorMarket,
                detail: "only markets this operator's simulator created can be resolved through the simulator".into(),
            });
        }
        let others = self
            .settlement
            .store
            .market_operators(market_id)
            .await?
            .into_iter()
            .filter(|other| other.operator_id != operator)
            .count();
        if others > 0 {
            return Err(AppError::Conflict {
                code: ProblemCode::MarketTradedByOthers,
                detail: format!(
                    "{others} other operator(s) traded this market; it cannot be resolved through the simulator"
                ),
            });
        }
        let resolved = match self.settlement.resolve_market(market_id, resolution).await {
            Ok(resolved) => resolved,
            Err(error) => return report.failed("resolve_market", error),
        };
        let mine = resolved.resolutions.iter().find(|row| row.operator_id == operator);
        report.done(
            "resolve_market",
            format!("resolved {resolution}"),
            [
                ("marketId", market_id.to_string()),
                ("redemptions", mine.map_or(0, |row| row.redemption_count).to_string()),
                ("payoutTotal", mine.map_or(0, |row| row.payout_total).to_string()),
            ],
        );
        let pass = self.settlement.run_wallet_pass().await?;
        report.done(
            "pay_out",
            "sent the due redemptions to the wallet now; see GET /api/operator/redemptions?marketId=…",
            [("sent", pass.sent.to_string())],
        );
        Ok(())
    }
}
