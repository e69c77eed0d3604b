//! `POST /simulator/users/{id}/operations`: drives one simulated user through the real
//! flows (launch, player session, buy, sell, and the flight product's tickets in
//! `flight.rs`) with the same use cases the hosted apps call, so every wallet call goes
//! through the production client to the simulated wallet. Faults can be queued first, to
//! watch manual review, refunds and compensation happen.

use opinion_core::{MarketId, SimulatorUserId, TicketId};
use opinion_flight::{Multiplier, Rupiah};
use opinion_market::{OrderKind, Outcome, Side};
use opinion_wallet::{BusinessAction, Currency, IdempotencyKey};

use crate::access::Principal;
use crate::error::{AppError, ProblemCode};
use crate::flight::check_client_ticket_id;
use crate::model::{SimulatedFault, SimulatedUser, Trade};
use crate::opinion::trading::OrderRequest;
use crate::players::{LaunchRequest, PlayerPrincipal};
use crate::simulator::Simulator;
use crate::simulator::report::OperationReport;
use crate::simulator::users::UserRef;

/// Most faults one request queues.
pub const MAX_FAULTS: usize = 20;

/// The highest target `play_flight` waits for (about 77 s of flight).
pub const MAX_TARGET: Multiplier = Multiplier::from_hundredths(10_000);

/// The flight product's name in a launch.
pub(crate) const FLIGHT: &str = "flight";

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
    /// Launch it into the flight product and open a player session.
    LaunchFlight,
    /// Buy a ticket on the next flight that boards (waiting for it if need be).
    BuyTicket(SimulatedTicketOrder),
    /// Cash out one of its tickets now (once its flight has reached 1.01x).
    CashOut {
        /// The ticket.
        ticket_id: TicketId,
    },
    /// Buy a ticket on the next flight that boards and cash it out by hand as soon as
    /// the multiplier reaches `cash_out_at`, or lose it if the flight crashes first.
    PlayFlight {
        /// The stake, whole rupiah.
        stake: Rupiah,
        /// The multiplier to cash out at (1.01 to 100.00).
        cash_out_at: Multiplier,
    },
    /// Only queue the faults given.
    InjectFaults,
    /// Drop every queued fault.
    ClearFaults,
}

impl UserOperation {
    /// Every operation's name on the wire, in the order `name` lists them.
    pub const NAMES: [&'static str; 9] = [
        "launch",
        "buy",
        "sell",
        "launch_flight",
        "buy_ticket",
        "cash_out",
        "play_flight",
        "inject_faults",
        "clear_faults",
    ];

    /// The operation's name on the wire.
    pub fn name(&self) -> &'static str {
        match self {
            Self::Launch => "launch",
            Self::Buy { .. } => "buy",
            Self::Sell { .. } => "sell",
            Self::LaunchFlight => "launch_flight",
            Self::BuyTicket(_) => "buy_ticket",
            Self::CashOut { .. } => "cash_out",
            Self::PlayFlight { .. } => "play_flight",
            Self::InjectFaults => "inject_faults",
            Self::ClearFaults => "clear_faults",
        }
    }

    /// Refuses what the operation cannot run with, before anything is queued.
    fn check(&self) -> Result<(), AppError> {
        match self {
            Self::PlayFlight { cash_out_at, .. } if !(Multiplier::MIN_CASH_OUT..=MAX_TARGET).contains(cash_out_at) => {
                Err(AppError::invalid("cashOutAt", "must be between 1.01 and 100.00"))
            }
            Self::BuyTicket(SimulatedTicketOrder {
                client_ticket_id: Some(id),
                ..
            }) => check_client_ticket_id(id),
            _ => Ok(()),
        }
    }

    /// Whether it plays the flight product, which only an IDR wallet can.
    fn is_flight(&self) -> bool {
        matches!(
            self,
            Self::LaunchFlight | Self::BuyTicket(_) | Self::CashOut { .. } | Self::PlayFlight { .. }
        )
    }
}

/// A ticket to buy for a simulated user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SimulatedTicketOrder {
    /// The stake, whole rupiah.
    pub stake: Rupiah,
    /// Cash out automatically at this multiplier.
    pub auto_cash_out: Option<Multiplier>,
    /// The purchase's client ticket id (a repeat returns the first ticket); a fresh
    /// `sim-…` one when absent.
    pub client_ticket_id: Option<String>,
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
        operation.check()?;
        let user = self.user(caller, id).await?;
        if operation.is_flight() && user.currency != Currency::IDR {
            return Err(AppError::Conflict {
                code: ProblemCode::SimulatedUserNotIdr,
                detail: format!(
                    "simulated user `{}` has a {} wallet; the flight product pays in IDR only, so create a simulated user with currency IDR",
                    user.external_user_id, user.currency
                ),
            });
        }
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
                self.player(caller, &user, None, &mut report).await?;
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
            UserOperation::LaunchFlight => {
                self.player(caller, &user, Some(FLIGHT), &mut report).await?;
            }
            UserOperation::BuyTicket(order) => self.buy_ticket(caller, &user, &order, &mut report).await?,
            UserOperation::CashOut { ticket_id } => self.cash_out(caller, &user, ticket_id, &mut report).await?,
            UserOperation::PlayFlight { stake, cash_out_at } => {
                self.play_flight(caller, &user, stake, cash_out_at, &mut report).await?;
            }
        }
        Ok(report)
    }

    /// Launches the user into `product` (Opinion when `None`) and opens its player
    /// session; `None` (with a failed step) when either is refused.
    pub(crate) async fn player(
        &self,
        caller: &Principal,
        user: &SimulatedUser,
        product: Option<&str>,
        report: &mut OperationReport,
    ) -> Result<Option<PlayerPrincipal>, AppError> {
        let launch = LaunchRequest {
            external_user_id: user.external_user_id.clone(),
            display_name: user.display_name.clone(),
            product: product.map(str::to_owned),
            ..LaunchRequest::default()
        };
        let launched = match self.players.launch(caller, launch).await {
            Ok(launched) => launched,
            Err(error) => return report.failed("launch", error).map(|()| None),
        };
        let product = product.unwrap_or("opinion");
        report.done(
            "launch",
            format!("launched `{}` into {product}", user.external_user_id),
            [
                ("userId", launched.user.id.to_string()),
                ("externalUserId", user.external_user_id.clone()),
                ("product", product.to_owned()),
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
        let Some(player) = self.player(caller, user, None, report).await? else {
            return Ok(());
        };
        let client_order_id = self.simulator_id();
        let step = order.side.as_str();
        let placed = match order.side {
            Side::Buy => self.trading.buy(&player, order, &client_order_id).await,
            Side::Sell => self.trading.sell(&player, order, &client_order_id).await,
        };
        match placed {
            Ok(trade) => report.done(step, trade_detail(&trade), trade_ids(&trade)),
            Err(error) => return report.failed(step, error),
        }
        self.report_balance(caller, user, report).await
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
