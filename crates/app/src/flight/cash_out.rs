//! A player's cash-out: the server's clock decides (FLIGHT.md §1, "Winning"). The
//! decision is taken at the clock's now by `decide_manual_cash_out`, and stored only if
//! the ticket is still `active` (a compare-and-set): the driver settles the losers only
//! a settle delay after the crash instant, so a cash-out decided before the crash is
//! stored first, and one decided at or after it loses. Whichever is stored first, the
//! ticket is decided once.

use opinion_core::TicketId;
use opinion_flight::{FlightPhase, ManualCashOut, TicketStatus, decide_manual_cash_out, first_ms_at};

use crate::error::{AppError, ProblemCode};
use crate::flight::FlightGame;
use crate::flight::engine::{ms, ms_since_take_off};
use crate::flight::model::TicketRecord;
use crate::flight::ports::FlightChange;
use crate::model::rfc3339;
use crate::players::PlayerPrincipal;

impl FlightGame {
    /// Cashes the player's ticket out now; the answer is the ticket as cashed out (or as
    /// its auto cash-out already left it).
    #[tracing::instrument(skip_all, fields(operator_id = %player.operator_id, ticket_id = %id))]
    pub async fn cash_out(&self, player: &PlayerPrincipal, id: TicketId) -> Result<TicketRecord, AppError> {
        let ticket = self.player_ticket(player, id).await?;
        if ticket.status == TicketStatus::CashedOut {
            return Ok(ticket);
        }
        if ticket.status != TicketStatus::Active {
            return Err(not_active(&ticket));
        }
        let flight = self
            .ports
            .store
            .find_flight(ticket.flight_id)
            .await?
            .ok_or_else(|| AppError::Internal(format!("ticket {id} names an unknown flight")))?;
        if flight.phase != FlightPhase::InFlight && flight.phase != FlightPhase::Crashed {
            return Err(AppError::Conflict {
                code: ProblemCode::CashOutTooEarly,
                detail: "the flight has not taken off yet".into(),
            });
        }
        let now = self.ports.clock.now();
        let elapsed = ms_since_take_off(&flight, now);
        match decide_manual_cash_out(elapsed, flight.crash, ticket.auto_cash_out) {
            ManualCashOut::Won(at) => {
                let mut change = FlightChange::default();
                self.cash_out_into(&mut change, ticket.clone(), at, now, now)?;
                if self.ports.store.apply_flight_change(&change).await? {
                    return Ok(change.tickets.remove(0).ticket);
                }
                // The driver moved the ticket first (an auto cash-out or the settlement).
                let settled = self.player_ticket(player, id).await?;
                match settled.status {
                    TicketStatus::CashedOut => Ok(settled),
                    _ => Err(crashed()),
                }
            }
            ManualCashOut::AlreadyAuto(target) => {
                // The auto cash-out came first; the driver stores it within a tick.
                let reached_at = flight.take_off_at + ms(first_ms_at(target));
                Err(AppError::Conflict {
                    code: ProblemCode::TicketNotActive,
                    detail: format!(
                        "the ticket was cashed out automatically at {target}x, at {}",
                        rfc3339(reached_at)
                    ),
                })
            }
            ManualCashOut::TooEarly => Err(AppError::Conflict {
                code: ProblemCode::CashOutTooEarly,
                detail: "the lowest cash-out is 1.01x; try again in a moment".into(),
            }),
            ManualCashOut::Crashed => Err(crashed()),
        }
    }

    /// The player's own ticket, or 404.
    pub(crate) async fn player_ticket(&self, player: &PlayerPrincipal, id: TicketId) -> Result<TicketRecord, AppError> {
        self.ports
            .store
            .find_ticket(player.operator_id, id)
            .await?
            .filter(|ticket| ticket.user_id == player.user.id)
            .ok_or(AppError::NotFound("ticket"))
    }
}

fn not_active(ticket: &TicketRecord) -> AppError {
    let code = if ticket.status == TicketStatus::Lost {
        ProblemCode::FlightCrashed
    } else {
        ProblemCode::TicketNotActive
    };
    AppError::Conflict {
        code,
        detail: format!("the ticket is {}, not flying", ticket.status.as_str()),
    }
}

fn crashed() -> AppError {
    AppError::Conflict {
        code: ProblemCode::FlightCrashed,
        detail: "the flight crashed before the cash-out was decided".into(),
    }
}
