//! The flight product's rules, pure: no I/O, no clock reads, no randomness (times and
//! random bytes are the caller's). Every rule of the published fairness formula
//! (`docs/operator/flight.md`) lives here once; `tests/vectors.rs` checks the published test
//! vectors byte for byte.
//!
//! | rule | file |
//! |---|---|
//! | a seed is 32 raw bytes, secret until revealed; `seed[i-1] = SHA-256(seed[i])` | `seed.rs` |
//! | the seed chain: its length, each flight's seed, the commitment, verifying revealed seeds | `chain.rs` |
//! | a chain's public salt | `salt.rs` |
//! | the crash point: HMAC-SHA256, 52 bits, `max(100, floor(99·2^52 / (2^52 − X)))` | `crash_point.rs` |
//! | a multiplier is hundredths, written with two decimals | `multiplier.rs` |
//! | the curve `floor(100·e^(0.00006·t))` and the first millisecond it reaches a value | `curve.rs` |
//! | auto and manual cash-outs, decided by the server's clock | `cash_out.rs` |
//! | what blocks enabling the product for an operator, what only warns | `enablement.rs` |
//! | production authorization: required in production only, valid from its recording until revoked or expired | `production_authorization.rs` |
//! | IDR money is whole rupiah | `rupiah.rs` |
//! | gross gaming revenue, `stakes − payouts − refunds` | `ggr.rs` |
//! | a payout is `floor(stake · multiplier / 100)`, capped | `payout.rs` |
//! | the coarse 1-2-5 band the live feed shows of another player's payout | `payout_band.rs` |
//! | stake limits, auto cash-out bounds, tickets per flight | `ticket_rules.rs` |
//! | a ticket's statuses and the events that move it | `ticket_status.rs` |
//! | a flight's phases | `phase.rs` |
//! | boarding and pause lengths | `timing.rs` |
//! | a flight's timeline: take-off, crash, next boarding, elapsed time | `schedule.rs` |
//! | what a new driver does with the flight it finds | `recovery.rs` |
//! | the platform's share in basis points | `share_bps.rs` |
//! | settlement periods (calendar months, UTC) | `period.rs` |
//! | an operator's terms | `terms.rs` |
//! | versions of terms: which is in force, when one may be scheduled | `terms_version.rs` |
//! | a settlement report's lines and totals, the share's rounding rule, who pays | `report.rs` |
//! | when a report may be finalized, and its due date | `finalization.rs` |
//! | a finalized report's balance: corrections, payments, what remains due, no overpayment | `balance.rs` |

#![warn(missing_docs)]

mod balance;
mod cash_out;
mod chain;
mod crash_point;
mod curve;
mod enablement;
mod finalization;
mod ggr;
mod multiplier;
mod payout;
mod payout_band;
mod period;
mod phase;
mod production_authorization;
mod recovery;
mod report;
mod rupiah;
mod salt;
mod schedule;
mod seed;
mod share_bps;
mod terms;
mod terms_version;
mod ticket_rules;
mod ticket_status;
mod timing;

pub use balance::{PaymentRefusal, SettlementBalance, payment_direction};
pub use cash_out::{ManualCashOut, auto_cash_out_ms, auto_cash_out_wins, decide_manual_cash_out};
pub use chain::{ChainError, ChainLength, commitment, seed_of_flight, verifies, verify_chain};
pub use crash_point::crash_point;
pub use curve::{GROWTH_PER_MS, crash_instant_ms, first_ms_at, multiplier_at};
pub use enablement::{EnablementBlocker, EnablementCheck, EnablementFacts, EnablementWarning, check_enablement};
pub use finalization::{FinalizationBlocker, PeriodState, due_date, finalization_blockers};
pub use ggr::gross_gaming_revenue;
pub use multiplier::{Multiplier, MultiplierTextError};
pub use payout::payout;
pub use payout_band::payout_band;
pub use period::{PeriodLabelError, SettlementPeriod, UnknownSettlementPeriod};
pub use phase::{FlightPhase, UnknownFlightPhase};
pub use production_authorization::{
    AuthorizationReference, AuthorizationReferenceError, AuthorizationRefusal, AuthorizationRequirement,
    AuthorizationState, AuthorizationStatus, ProductionAuthorization, Revocation, authorization_at,
    authorizes_purchase, check_new_authorization,
};
pub use recovery::{Recovery, recover};
pub use report::{PaymentDirection, ReportLine, ReportTotals, share_of};
pub use rupiah::{Rupiah, RupiahError, RupiahTextError};
pub use salt::{Salt, SaltError};
pub use schedule::{FlightPlan, elapsed_ms, next_boarding_at, phase_at};
pub use seed::{Seed, SeedError};
pub use share_bps::{ShareBps, ShareBpsError};
pub use terms::{Terms, TermsError};
pub use terms_version::{ScheduleRefusal, TermsVersion, check_schedule, in_force_at};
pub use ticket_rules::{
    MAX_AUTO_CASH_OUT, TicketLimits, TicketLimitsError, TicketRefusal, check_order, check_ticket, may_hold_another,
};
pub use ticket_status::{IllegalTicketTransition, TicketEvent, TicketStatus, UnknownTicketStatus};
pub use timing::{FlightTiming, FlightTimingError};
