//! `POST /simulator/users/{id}/operations`: drives one simulated user through the real
//! flows (launch, player session, buy, sell) with the same use cases the hosted app
//! calls, so every wallet call goes through the production client to the simulated
//! wallet. Faults can be queued first, to watch manual review and compensation happen.

use opinion_core::{MarketId, SimulatorUserId};
use opinion_market::{OrderKind, Outcome, Side};
use opinion_wallet::{BusinessAction, IdempotencyKey};

use crate::access::Principal;
use crate::error::AppError;
use crate::model::{SimulatedFault, SimulatedUser, Trade};
use crate::opinion::trading::OrderRequest;
use crate::players::{LaunchRequest, PlayerPrincipal};
use crate::simulator::Simulator;
use crate::simulator::report::OperationReport;
use crate::simulator::users::UserRef;

/// Most faults one request queues.
const MAX_FAULTS: usize = 20;

/// A fault to queue, as asked.
pub type FaultRequest = SimulatedFault;

/// What to do with a simulated user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UserOperation {
    /// Launch it (creating or updating the operator's player) and open a player session.
    Launch,
    /// Buy `value` shares (or for `value` minor units) of `outcome` on `market_id`.
    Buy {
        /// The market.
        market_id: MarketId,
        /// YES or NO.
        outcome: Outcome,
        /// Shares or an amount.
        kind: OrderKind,
        /// How many shares, or how much.
        value: i64,
    },
    /// Sell `shares` of `outcome` on `market_id`.
    Sell {
        /// The market.
        market_id: MarketId,
        /// YES or NO.
        outcome: Outcome,
        /// How many shares.
        shares: i64,
    },
    /// Only queue the faults given.
    InjectFaults,
    /// Drop every queued fault.
    ClearFaults,
}

impl UserOperation {
    /// The operation's name on the wire.
    pub fn name(&self) -> &'static str {
        match self {
            Self::Launch => "launch",
            Self::Buy { .. } => "buy",
            Self::Sell { .. } => "sell",
            Self::InjectFaults => "inject_faults",
            Self::ClearFaults => "clear_faults",
        }
    }
}

impl Simulator {
    /// Runs `operation` for simulated user `id`, after queueing `faults` for its next
    /// mutations, and reports each step.
    pub async fn run_user_operation(
        &self,
        caller: &Principal,
        id: SimulatorUserId,
        operation: UserOperation,
        faults: Vec<FaultRequest>,
    ) -> Result<OperationReport, AppError> {
        if faults.len() > MAX_FAULTS {
            return Err(AppError::invalid("faults", "at most 20 faults per request"));
        }
        let mut report = OperationReport::new(operation.name());
        let user = self.user(caller, id).await?;
        if !faults.is_empty() || operation == UserOperation::ClearFaults {
            let clear = operation == UserOperation::ClearFaults;
            let user = self
                .change_user(
                    caller,
                    |user| {
                        if clear {
                            user.faults.clear();
                        }
                        user.faults.extend(faults.iter().copied());
                        Ok(())
                    },
                    UserRef::Id(id),
                )
                .await?;
            let queued: Vec<&str> = user.faults.iter().map(SimulatedFault::name).collect();
            report.done(
                "queue_faults",
                format!("{} fault(s) queued for the next mutations", user.faults.len()),
                [("faults", queued.join(","))],
            );
        }
        match operation {
            UserOperation::InjectFaults | UserOperation::ClearFaults => {}
            UserOperation::Launch => {
                self.player(caller, &user, &mut report).await?;
            }
            UserOperation::Buy {
                market_id,
                outcome,
                kind,
                value,
            } => {
                let order = OrderRequest {
                    market_id,
                    side: Side::Buy,
                    outcome,
                    kind,
                    value,
                    limit: None,
                };
                self.trade(caller, &user, &order, &mut report).await?;
            }
            UserOperation::Sell {
                market_id,
                outcome,
                shares,
            } => {
                let order = OrderRequest {
                    market_id,
                    side: Side::Sell,
                    outcome,
                    kind: OrderKind::Shares,
                    value: shares,
                    limit: None,
                };
                self.trade(caller, &user, &order, &mut report).await?;
            }
        }
        Ok(report)
    }

    /// Launches the user and opens its player session; `None` (with a failed step) when
    /// either is refused.
    pub(crate) async fn player(
        &self,
        caller: &Principal,
        user: &SimulatedUser,
        report: &mut OperationReport,
    ) -> Result<Option<PlayerPrincipal>, AppError> {
        let launch = LaunchRequest {
            external_user_id: user.external_user_id.clone(),
            display_name: user.display_name.clone(),
            ..LaunchRequest::default()
        };
        let launched = match self.players.launch(caller, launch).await {
            Ok(launched) => launched,
            Err(error) => return report.failed("launch", error).map(|()| None),
        };
        report.done(
            "launch",
            format!("launched `{}`", user.external_user_id),
            [
                ("userId", launched.user.id.to_string()),
                ("externalUserId", user.external_user_id.clone()),
            ],
        );
        let opened = match self.players.open_player_session(&launched.launch_token, None).await {
            Ok(opened) => opened,
            Err(error) => return report.failed("open_session", error).map(|()| None),
        };
        report.done(
            "open_session",
            "exchanged the launch token for a player session",
            [("playerSessionId", opened.session.id.to_string())],
        );
        Ok(Some(PlayerPrincipal {
            operator_id: caller.operator_id,
            user: opened.user,
            session_id: opened.session.id,
        }))
    }

    /// Launches the user and places `order` for it, then reports its wallet balance.
    pub(crate) async fn trade(
        &self,
        caller: &Principal,
        user: &SimulatedUser,
        order: &OrderRequest,
        report: &mut OperationReport,
    ) -> Result<(), AppError> {
        let Some(player) = self.player(caller, user, report).await? else {
            return Ok(());
        };
        let client_order_id = format!("sim-{}", self.ports.random.ulid().to_string().to_ascii_lowercase());
        let step = order.side.as_str();
        let placed = match order.side {
            Side::Buy => self.trading.buy(&player, order, &client_order_id).await,
            Side::Sell => self.trading.sell(&player, order, &client_order_id).await,
        };
        match placed {
            Ok(trade) => report.done(step, trade_detail(&trade), trade_ids(&trade)),
            Err(error) => return report.failed(step, error),
        }
        let balance = self.wallet(caller, &user.external_user_id).await?.balance;
        report.done(
            "wallet",
            format!("the simulated wallet's balance is now {balance}"),
            [("balance", balance.to_string())],
        );
        Ok(())
    }
}

fn trade_detail(trade: &Trade) -> String {
    let mut detail = format!(
        "{} of {} {} shares for {} {}: {}",
        trade.side, trade.shares, trade.outcome, trade.amount, trade.currency, trade.status
    );
    if let Some(reason) = &trade.failure_reason {
        detail.push_str(&format!(" ({reason})"));
    }
    detail
}

fn trade_ids(trade: &Trade) -> [(&'static str, String); 5] {
    [
        ("tradeId", trade.id.to_string()),
        ("marketId", trade.market_id.to_string()),
        ("status", trade.status.to_string()),
        ("idempotencyKey", trade_key(trade).to_string()),
        ("amount", trade.amount.to_string()),
    ]
}

/// The one idempotency key of a trade's wallet mutation (the wallet domain's rule).
fn trade_key(trade: &Trade) -> IdempotencyKey {
    IdempotencyKey::for_action(match trade.side {
        Side::Buy => BusinessAction::Buy(trade.id),
        Side::Sell => BusinessAction::Sell(trade.id),
    })
}
