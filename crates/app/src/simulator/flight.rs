//! The flight product for a simulated user: buy a ticket, cash it out, or play a whole
//! flight, through the same `FlightGame` use cases the player API calls, so the ticket's
//! debit and its payout or refund reach the simulated wallet through the production
//! client (with any faults queued). A staging operator cannot click within a one-second
//! boarding, so the simulator waits for the moments the game needs (`flight_waits.rs`):
//! the next boarding flight, the lowest cash-out, the target multiplier.

use opinion_core::TicketId;
use opinion_flight::{Multiplier, Rupiah, TicketStatus};
use opinion_wallet::{BusinessAction, IdempotencyKey};

use crate::access::Principal;
use crate::error::{AppError, ProblemCode};
use crate::flight::TicketOrder;
use crate::flight::model::TicketRecord;
use crate::model::{SimulatedUser, rfc3339};
use crate::players::PlayerPrincipal;
use crate::simulator::Simulator;
use crate::simulator::flight_waits::{Reached, no_boarding_flight};
use crate::simulator::operations::{FLIGHT, SimulatedTicketOrder};
use crate::simulator::report::OperationReport;

impl Simulator {
    /// Launches the user into flight, waits for a boarding flight and buys `order` on it,
    /// then reports what its debit left in the wallet.
    pub(crate) async fn buy_ticket(
        &self,
        caller: &Principal,
        user: &SimulatedUser,
        order: &SimulatedTicketOrder,
        report: &mut OperationReport,
    ) -> Result<(), AppError> {
        let Some((player, ticket)) = self.bought(caller, user, order, report).await? else {
            return Ok(());
        };
        if ticket.status == TicketStatus::Refunding {
            self.settled(&player, ticket.id, report).await?;
        }
        self.report_balance(caller, user, report).await
    }

    /// Cashes the user's ticket out, once its flight has reached the lowest cash-out,
    /// then sends its payout at once.
    pub(crate) async fn cash_out(
        &self,
        caller: &Principal,
        user: &SimulatedUser,
        ticket_id: TicketId,
        report: &mut OperationReport,
    ) -> Result<(), AppError> {
        let Some(player) = self.player(caller, user, Some(FLIGHT), report).await? else {
            return Ok(());
        };
        let ticket = match self.flight.player_ticket(&player, ticket_id).await {
            Ok(ticket) => ticket,
            Err(error) => return report.failed("cash_out", error),
        };
        self.wait_for_lowest_cash_out(&ticket).await?;
        match self.flight.cash_out(&player, ticket_id).await {
            Ok(ticket) => report.done("cash_out", ticket_detail(&ticket), ticket_ids(&ticket)),
            Err(error) => return report.failed("cash_out", error),
        }
        self.settled(&player, ticket_id, report).await?;
        self.report_balance(caller, user, report).await
    }

    /// Buys a ticket without an auto cash-out on the next boarding flight and cashes it
    /// out by hand when the multiplier reaches `target` (checked by the operation); a
    /// flight that crashes first takes the ticket, as it would a player's.
    pub(crate) async fn play_flight(
        &self,
        caller: &Principal,
        user: &SimulatedUser,
        stake: Rupiah,
        target: Multiplier,
        report: &mut OperationReport,
    ) -> Result<(), AppError> {
        let order = SimulatedTicketOrder {
            stake,
            auto_cash_out: None,
            client_ticket_id: None,
        };
        let Some((player, ticket)) = self.bought(caller, user, &order, report).await? else {
            return Ok(());
        };
        if ticket.status == TicketStatus::Active {
            match self.wait_for_target(&ticket, target).await? {
                Reached::Target => match self.flight.cash_out(&player, ticket.id).await {
                    Ok(cashed) => report.done("cash_out", ticket_detail(&cashed), ticket_ids(&cashed)),
                    Err(AppError::Conflict {
                        code: ProblemCode::FlightCrashed,
                        ..
                    }) => crashed_first(report, &ticket, target, None),
                    Err(error) => return report.failed("cash_out", error),
                },
                Reached::Crashed(crash) => crashed_first(report, &ticket, target, crash),
                Reached::Over => {}
            }
        }
        self.settled(&player, ticket.id, report).await?;
        self.report_balance(caller, user, report).await
    }

    /// Launches into flight, waits for boarding and buys; the player and the ticket as its
    /// debit left it, or `None` after a failed step.
    async fn bought(
        &self,
        caller: &Principal,
        user: &SimulatedUser,
        order: &SimulatedTicketOrder,
        report: &mut OperationReport,
    ) -> Result<Option<(PlayerPrincipal, TicketRecord)>, AppError> {
        let Some(player) = self.player(caller, user, Some(FLIGHT), report).await? else {
            return Ok(None);
        };
        let Some(flight) = self.next_boarding_flight().await? else {
            return report.failed("wait_for_boarding", no_boarding_flight()).map(|()| None);
        };
        report.done(
            "wait_for_boarding",
            format!("flight {} boards until {}", flight.number, rfc3339(flight.take_off_at)),
            [
                ("flightId", flight.id.to_string()),
                ("takeOffAt", rfc3339(flight.take_off_at)),
            ],
        );
        let ticket_order = TicketOrder {
            stake: order.stake,
            auto_cash_out: order.auto_cash_out,
            client_ticket_id: order.client_ticket_id.clone().unwrap_or_else(|| self.simulator_id()),
        };
        match self.flight.buy_ticket(&player, &ticket_order).await {
            Ok(ticket) => {
                report.done("buy_ticket", ticket_detail(&ticket), ticket_ids(&ticket));
                Ok(Some((player, ticket)))
            }
            Err(error) => report.failed("buy_ticket", error).map(|()| None),
        }
    }

    /// Sends what the ticket is owed at once (one pass of the flight money worker) and
    /// reports the ticket once it is settled or waiting for review, or as it is after a
    /// few seconds (a payout sent elsewhere, or one held by a fault).
    async fn settled(
        &self,
        player: &PlayerPrincipal,
        id: TicketId,
        report: &mut OperationReport,
    ) -> Result<(), AppError> {
        let ticket = self.settled_ticket(player, id).await?;
        let detail = if ticket.settled_at.is_some() || ticket.status == TicketStatus::Review {
            ticket_detail(&ticket)
        } else {
            format!(
                "{}; not settled yet: see the ticket and its wallet operations",
                ticket_detail(&ticket)
            )
        };
        report.done("settle", detail, ticket_ids(&ticket));
        Ok(())
    }

    /// Reports the simulated wallet's balance.
    pub(crate) async fn report_balance(
        &self,
        caller: &Principal,
        user: &SimulatedUser,
        report: &mut OperationReport,
    ) -> Result<(), AppError> {
        let balance = self.wallet(caller, &user.external_user_id).await?.balance;
        report.done(
            "wallet",
            format!("the simulated wallet's balance is now {balance}"),
            [("balance", balance.to_string())],
        );
        Ok(())
    }
}

/// A completed step saying the flight crashed before the target: the ticket is lost.
fn crashed_first(report: &mut OperationReport, ticket: &TicketRecord, target: Multiplier, crash: Option<Multiplier>) {
    let at = crash.map(|crash| format!(" at {crash}x")).unwrap_or_default();
    report.done(
        "crashed",
        format!("the flight crashed{at} before {target}x: the ticket is lost"),
        [
            ("ticketId", ticket.id.to_string()),
            ("flightId", ticket.flight_id.to_string()),
        ],
    );
}

fn ticket_detail(ticket: &TicketRecord) -> String {
    let mut detail = format!("ticket of {} IDR: {}", ticket.stake, ticket.status.as_str());
    if let (Some(at), Some(payout)) = (ticket.cash_out, ticket.payout) {
        detail.push_str(&format!(", cashed out at {at}x for {payout} IDR"));
    }
    if let Some(reason) = &ticket.failure_reason {
        detail.push_str(&format!(" ({reason})"));
    }
    detail
}

/// The ticket's ids and values to look up with the operator API and the wallet log.
fn ticket_ids(ticket: &TicketRecord) -> Vec<(&'static str, String)> {
    let purchase = IdempotencyKey::for_action(BusinessAction::FlightTicketPurchase(ticket.id));
    let mut ids = vec![
        ("ticketId", ticket.id.to_string()),
        ("flightId", ticket.flight_id.to_string()),
        ("clientTicketId", ticket.client_ticket_id.clone()),
        ("status", ticket.status.as_str().to_owned()),
        ("stake", ticket.stake.to_string()),
        ("idempotencyKey", purchase.to_string()),
    ];
    if let Some(auto) = ticket.auto_cash_out {
        ids.push(("autoCashOut", auto.to_string()));
    }
    if let (Some(at), Some(payout)) = (ticket.cash_out, ticket.payout) {
        let key = IdempotencyKey::for_action(BusinessAction::FlightTicketPayout(ticket.id));
        ids.extend([
            ("cashOut", at.to_string()),
            ("payout", payout.to_string()),
            ("payoutIdempotencyKey", key.to_string()),
        ]);
    }
    if matches!(ticket.status, TicketStatus::Refunding | TicketStatus::Refunded) {
        let key = IdempotencyKey::for_action(BusinessAction::FlightTicketRefund(ticket.id));
        ids.push(("refundIdempotencyKey", key.to_string()));
    }
    ids
}
