//! The flight product's read bodies and queries. A flight shows its crash point, seed and
//! crash instant only once crashed (`FlightView`); the field names are the ones
//! `docs/flight/verify_flight.py` reads (`number`, `seed`, `crashPoint`, `commitment`,
//! `salt`), so a page or an export of flights pipes straight into it.

use std::collections::BTreeMap;

use opinion_app::flight::model::{TermsRecord, TicketRecord};
use opinion_app::flight::reads::ports::TicketTotals;
use opinion_app::flight::reads::{
    AuthorizationSummary, FlightDetail, FlightOperation, FlightOperationQuery, FlightQuery, FlightView, Overview,
    OverviewQuery, TicketDetail, TicketQuery,
};
use opinion_flight::{Multiplier, Rupiah};
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use utoipa::{IntoParams, ToSchema};

use crate::operator::balance_operations::dto::StepBody;
use crate::operator::flight::settlement::standing::SettlementStandingBody;
use crate::shared::page_query::page_of;

/// The currency of every flight amount.
const IDR: &str = "IDR";

fn multiplier(value: Multiplier) -> String {
    value.to_string()
}

fn rupiah(value: Rupiah) -> String {
    value.to_string()
}

/// One flight (round) as anyone may see it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FlightBody {
    /// `flt_…`
    pub id: String,
    /// The seed chain it plays in.
    pub chain_id: String,
    /// Its place `k` in the chain: it plays `seed[k]`.
    pub number: u32,
    /// `boarding`, `in_flight`, `crashed` or `cancelled`.
    pub phase: String,
    /// The chain's public salt.
    pub salt: String,
    /// The chain's commitment, `hex(seed[0])`, published before its first flight.
    pub commitment: String,
    /// How many flights the chain plays.
    pub chain_length: u32,
    /// `hex(seed[k])`, null until the flight crashed.
    pub seed: Option<String>,
    /// The crash point with two decimals (`"3.46"`), null until the flight crashed.
    #[schema(example = "3.46")]
    pub crash_point: Option<String>,
    /// When boarding opened (UTC).
    #[serde(with = "time::serde::rfc3339")]
    pub boarding_at: OffsetDateTime,
    /// The take-off, planned when boarding opened.
    #[serde(with = "time::serde::rfc3339")]
    pub take_off_at: OffsetDateTime,
    /// The crash instant, null until the flight crashed.
    #[serde(with = "time::serde::rfc3339::option")]
    pub crashed_at: Option<OffsetDateTime>,
    /// When it was cancelled (every ticket refunded), if it was.
    #[serde(with = "time::serde::rfc3339::option")]
    pub cancelled_at: Option<OffsetDateTime>,
}

impl From<FlightView> for FlightBody {
    fn from(flight: FlightView) -> Self {
        Self {
            id: flight.id.to_string(),
            chain_id: flight.chain_id.to_string(),
            number: flight.number,
            phase: flight.phase.as_str().to_owned(),
            salt: flight.salt.as_str().to_owned(),
            commitment: flight.commitment.to_hex(),
            chain_length: flight.chain_length.get(),
            seed: flight.seed.map(|seed| seed.to_hex()),
            crash_point: flight.crash.map(multiplier),
            boarding_at: flight.boarding_at,
            take_off_at: flight.take_off_at,
            crashed_at: flight.crashed_at,
            cancelled_at: flight.cancelled_at,
        }
    }
}

/// The money of a set of the operator's tickets, in whole rupiah.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TotalsBody {
    /// Tickets, whatever their status.
    pub tickets: i64,
    /// Distinct players among them.
    pub players: i64,
    /// Tickets whose money is not decided yet (`pending`, `active`, `review`).
    pub unsettled_tickets: i64,
    /// Stakes taken (tickets whose debit went through), an integer string.
    #[schema(example = "912500000")]
    pub stakes: String,
    /// What cashed-out tickets pay.
    pub payouts: String,
    /// Stakes given back or owed back (`refunding`, `refunded`).
    pub refunds: String,
    /// Gross gaming revenue, `stakes − payouts − refunds`; may be negative.
    #[schema(example = "51000000")]
    pub ggr: String,
    /// Always `IDR`.
    pub currency: String,
}

impl From<TicketTotals> for TotalsBody {
    fn from(totals: TicketTotals) -> Self {
        Self {
            tickets: totals.tickets,
            players: totals.players,
            unsettled_tickets: totals.unsettled,
            stakes: rupiah(totals.stakes),
            payouts: rupiah(totals.payouts),
            refunds: rupiah(totals.refunds),
            ggr: totals.ggr().to_string(),
            currency: IDR.into(),
        }
    }
}

/// One flight with the operator's own tickets' totals on it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FlightDetailBody {
    #[serde(flatten)]
    pub flight: FlightBody,
    /// The operator's tickets on this flight.
    pub operator_totals: TotalsBody,
}

impl From<FlightDetail> for FlightDetailBody {
    fn from(detail: FlightDetail) -> Self {
        Self {
            flight: detail.flight.into(),
            operator_totals: detail.totals.into(),
        }
    }
}

/// One ticket: one stake of one player on one flight.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TicketBody {
    /// `tkt_…`
    pub id: String,
    /// `flt_…`
    pub flight_id: String,
    /// `usr_…`
    pub user_id: String,
    /// The operator's id of the player.
    pub external_user_id: String,
    /// The player's own id of the purchase.
    pub client_ticket_id: String,
    /// Whole rupiah, an integer string.
    #[schema(example = "50000")]
    pub stake: String,
    /// Always `IDR`.
    pub currency: String,
    /// The auto cash-out target (`"2.00"`), null when none.
    pub auto_cash_out: Option<String>,
    /// `pending`, `active`, `cashed_out`, `lost`, `refunding`, `refunded`, `review` or
    /// `rejected`.
    pub status: String,
    /// The platform's share in basis points, frozen when the ticket was bought.
    #[schema(example = 1500)]
    pub share_bps: u16,
    /// The terms version in force when it was bought.
    pub terms_id: String,
    /// The maximum payout, frozen when it was bought.
    pub max_payout: String,
    /// The multiplier it was cashed out at (`"2.00"`), null unless cashed out.
    pub cash_out_multiplier: Option<String>,
    /// What the cash-out pays, null unless cashed out.
    pub payout: Option<String>,
    /// Why its stake is given back (`flight_cancelled`, `boarding_closed`, `review`).
    pub refund_reason: Option<String>,
    /// The wallet's code when its debit was refused.
    pub failure_reason: Option<String>,
    /// Its purchase debit (`wop_…`).
    pub purchase_operation_id: String,
    /// When it was bought (UTC).
    #[serde(with = "time::serde::rfc3339")]
    pub purchased_at: OffsetDateTime,
    /// When it was cashed out.
    #[serde(with = "time::serde::rfc3339::option")]
    pub cashed_out_at: Option<OffsetDateTime>,
    /// When its status last changed.
    #[serde(with = "time::serde::rfc3339")]
    pub updated_at: OffsetDateTime,
    /// When nothing more could happen to it.
    #[serde(with = "time::serde::rfc3339::option")]
    pub settled_at: Option<OffsetDateTime>,
}

impl From<TicketRecord> for TicketBody {
    fn from(ticket: TicketRecord) -> Self {
        Self {
            id: ticket.id.to_string(),
            flight_id: ticket.flight_id.to_string(),
            user_id: ticket.user_id.to_string(),
            external_user_id: ticket.external_user_id,
            client_ticket_id: ticket.client_ticket_id,
            stake: rupiah(ticket.stake),
            currency: IDR.into(),
            auto_cash_out: ticket.auto_cash_out.map(multiplier),
            status: ticket.status.as_str().to_owned(),
            share_bps: ticket.share_bps.get(),
            terms_id: ticket.terms_id.to_string(),
            max_payout: rupiah(ticket.max_payout),
            cash_out_multiplier: ticket.cash_out.map(multiplier),
            payout: ticket.payout.map(rupiah),
            refund_reason: ticket.refund_reason.map(|reason| reason.as_str().to_owned()),
            failure_reason: ticket.failure_reason,
            purchase_operation_id: ticket.purchase_operation_id.to_string(),
            purchased_at: ticket.created_at,
            cashed_out_at: ticket.cashed_out_at,
            updated_at: ticket.updated_at,
            settled_at: ticket.settled_at,
        }
    }
}

/// One ticket with its flight.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TicketDetailBody {
    #[serde(flatten)]
    pub ticket: TicketBody,
    /// Its flight, as anyone may see it.
    pub flight: FlightBody,
}

impl From<TicketDetail> for TicketDetailBody {
    fn from(detail: TicketDetail) -> Self {
        Self {
            ticket: detail.ticket.into(),
            flight: detail.flight.into(),
        }
    }
}

/// The terms in force, as the overview summarises them.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TermsSummaryBody {
    /// `ftv_…`
    pub id: String,
    /// In force since (UTC).
    #[serde(with = "time::serde::rfc3339")]
    pub effective_from: OffsetDateTime,
    /// The platform's share of GGR in basis points.
    pub share_bps: u16,
    /// The smallest stake, whole rupiah.
    pub min_stake: String,
    /// The largest stake.
    pub max_stake: String,
    /// The largest payout of one ticket.
    pub max_payout: String,
    /// Tickets a player may hold on one flight.
    pub tickets_per_flight: u8,
    /// `calendar_month`.
    pub settlement_period: String,
    /// Days after a period's end that its amount is due.
    pub payment_due_days: u16,
    /// Always `IDR`.
    pub currency: String,
}

impl From<&TermsRecord> for TermsSummaryBody {
    fn from(record: &TermsRecord) -> Self {
        let version = &record.version;
        let limits = version.terms.limits();
        Self {
            id: version.id.to_string(),
            effective_from: version.effective_from,
            share_bps: version.terms.share_bps().get(),
            min_stake: rupiah(limits.min_stake()),
            max_stake: rupiah(limits.max_stake()),
            max_payout: rupiah(limits.max_payout()),
            tickets_per_flight: limits.tickets_per_flight(),
            settlement_period: version.terms.period().as_str().to_owned(),
            payment_due_days: version.terms.payment_due_days(),
            currency: IDR.into(),
        }
    }
}

/// The window the overview's totals cover: `[from, to)`, either end open (null).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct WindowBody {
    /// Tickets bought at or after (UTC).
    #[serde(with = "time::serde::rfc3339::option")]
    pub from: Option<OffsetDateTime>,
    /// Tickets bought before.
    #[serde(with = "time::serde::rfc3339::option")]
    pub to: Option<OffsetDateTime>,
}

/// Whether the operator may have flight in production: platform staff record a production
/// authorization per operator (the reference of the signed-off change, an optional
/// expiry) and may revoke it. Staging and development need none. Who recorded or revoked
/// it is not shown.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProductionAuthorizationBody {
    /// Whether this environment needs one: true in production only.
    pub required: bool,
    /// Whether enabling and ticket purchases may go ahead now (always true when not
    /// required). False: every purchase is refused with `production_authorization_missing`.
    pub authorized: bool,
    /// The reference of the signed-off change of the authorization in force, or of the
    /// latest one when none is (null when none was ever recorded or none is required).
    pub reference: Option<String>,
    /// When that authorization was recorded (UTC).
    #[serde(with = "time::serde::rfc3339::option")]
    pub authorized_at: Option<OffsetDateTime>,
    /// When it expires, null if it does not.
    #[serde(with = "time::serde::rfc3339::option")]
    pub expires_at: Option<OffsetDateTime>,
    /// When it was revoked, null if it was not.
    #[serde(with = "time::serde::rfc3339::option")]
    pub revoked_at: Option<OffsetDateTime>,
}

impl From<AuthorizationSummary> for ProductionAuthorizationBody {
    fn from(summary: AuthorizationSummary) -> Self {
        let latest = summary.latest.as_ref();
        Self {
            required: summary.required,
            authorized: summary.authorized,
            reference: latest.map(|record| record.reference.as_str().to_owned()),
            authorized_at: latest.map(|record| record.recorded_at),
            expires_at: latest.and_then(|record| record.expires_at),
            revoked_at: latest.and_then(|record| record.revocation.as_ref().map(|revocation| revocation.at)),
        }
    }
}

/// What an operator's flight dashboard shows first.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OverviewBody {
    /// Whether the operator's players may buy tickets.
    pub enabled: bool,
    /// When platform staff last enabled or disabled the product, null if never.
    #[serde(with = "time::serde::rfc3339::option")]
    pub enablement_changed_at: Option<OffsetDateTime>,
    /// The production authorization (needed in production only).
    pub production_authorization: ProductionAuthorizationBody,
    /// The terms in force now, null when the operator has none.
    pub terms: Option<TermsSummaryBody>,
    /// The window of `totals` (the current calendar month, UTC, unless asked).
    pub window: WindowBody,
    /// The operator's tickets bought in the window.
    pub totals: TotalsBody,
    /// The newest flight (its crash point only once crashed), null before the first.
    pub live_flight: Option<FlightBody>,
    /// The running period's figures so far (share included) and what remains due on
    /// finalized reports; null unless the caller holds `flight_settlements:read`.
    pub settlement: Option<SettlementStandingBody>,
    /// When this overview was read (UTC).
    #[serde(with = "time::serde::rfc3339")]
    pub generated_at: OffsetDateTime,
}

impl From<Overview> for OverviewBody {
    fn from(overview: Overview) -> Self {
        let terms = overview.terms.as_ref().map(TermsSummaryBody::from);
        Self {
            enabled: overview
                .enablement
                .as_ref()
                .is_some_and(|enablement| enablement.enabled),
            enablement_changed_at: overview.enablement.map(|enablement| enablement.changed_at),
            production_authorization: overview.production_authorization.into(),
            terms,
            window: WindowBody {
                from: overview.window.from,
                to: overview.window.to,
            },
            totals: overview.totals.into(),
            live_flight: overview.live.map(FlightBody::from),
            settlement: None,
            generated_at: overview.generated_at,
        }
    }
}

/// One wallet call for the operator's players' flight money.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FlightOperationBody {
    /// `wop_…`
    pub id: String,
    /// `usr_…`
    pub user_id: String,
    /// The operator's id of the player, as sent.
    pub external_user_id: String,
    /// `flight_ticket_purchase`, `flight_ticket_payout` or `flight_ticket_refund`.
    pub flow: String,
    /// The reason key sent (the flow's name).
    pub reason: String,
    /// Whole rupiah moved (or to be moved), an integer string.
    pub amount: String,
    /// Always `IDR`.
    pub currency: String,
    /// The action's one idempotency key.
    pub idempotency_key: String,
    /// The metadata sent, camelCase keys.
    pub metadata: BTreeMap<String, String>,
    /// `flt_…`
    pub flight_id: Option<String>,
    /// `tkt_…`
    pub ticket_id: Option<String>,
    /// The operation's state (`applied`, `manual_review`, …).
    pub state: String,
    /// How many times it was sent.
    pub attempts: u32,
    /// The HTTP status of the wallet's last answer.
    pub http_status: Option<u16>,
    /// What the last answer meant.
    pub detail: Option<String>,
    /// The wallet's reference of the applied mutation (the contract's own name).
    #[serde(rename = "remote_reference")]
    pub remote_reference: Option<String>,
    /// The player's balance after it, as the wallet reported.
    pub balance_after: Option<String>,
    /// When it was prepared (UTC).
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
    /// When it was last sent.
    #[serde(with = "time::serde::rfc3339::option")]
    pub sent_at: Option<OffsetDateTime>,
    /// When the last answer came.
    #[serde(with = "time::serde::rfc3339::option")]
    pub answered_at: Option<OffsetDateTime>,
    /// When platform staff settled it after manual review.
    #[serde(with = "time::serde::rfc3339::option")]
    pub resolved_at: Option<OffsetDateTime>,
    /// Every step, in order, when asked for (`includeSteps=true`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub steps: Option<Vec<StepBody>>,
}

impl From<FlightOperation> for FlightOperationBody {
    fn from(operation: FlightOperation) -> Self {
        let steps = operation
            .steps
            .map(|steps| steps.into_iter().map(StepBody::from).collect());
        let record = operation.operation;
        Self {
            id: record.id.to_string(),
            user_id: record.user_id.to_string(),
            external_user_id: record.external_user_id,
            flow: record.flow.as_str().to_owned(),
            reason: record.reason.as_str().to_owned(),
            amount: record.amount.to_string(),
            currency: record.currency.as_str().to_owned(),
            idempotency_key: record.idempotency_key.as_str().to_owned(),
            metadata: record.metadata,
            flight_id: record.flight_id.map(|id| id.to_string()),
            ticket_id: record.ticket_id.map(|id| id.to_string()),
            state: record.state.as_str().to_owned(),
            attempts: record.attempts,
            http_status: record.http_status,
            detail: record.detail,
            remote_reference: record.remote_reference,
            balance_after: record.balance_after.map(|balance| balance.to_string()),
            created_at: record.created_at,
            sent_at: record.sent_at,
            answered_at: record.answered_at,
            resolved_at: record.resolved_at,
            steps,
        }
    }
}

/// `GET /flight/overview`.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct OverviewParams {
    /// Totals of tickets bought at or after this time (RFC 3339); without `from` and
    /// `to`, the current calendar month (UTC).
    pub from: Option<String>,
    /// Totals of tickets bought before this time (RFC 3339).
    pub to: Option<String>,
}

impl From<&OverviewParams> for OverviewQuery {
    fn from(params: &OverviewParams) -> Self {
        Self {
            from: params.from.clone(),
            to: params.to.clone(),
        }
    }
}

/// `GET /flight/flights`.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct FlightsParams {
    /// Boarded at or after this time (RFC 3339).
    pub from: Option<String>,
    /// Boarded before this time (RFC 3339).
    pub to: Option<String>,
    /// Items per page, 1 to 200 (default 50).
    pub limit: Option<u32>,
    /// The `nextCursor` of the previous page.
    pub cursor: Option<String>,
}
page_of!(FlightsParams);

impl From<&FlightsParams> for FlightQuery {
    fn from(params: &FlightsParams) -> Self {
        Self {
            from: params.from.clone(),
            to: params.to.clone(),
        }
    }
}

/// `GET /flight/flights/export`: the list's filters, every page.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct FlightsExportParams {
    /// Boarded at or after this time (RFC 3339).
    pub from: Option<String>,
    /// Boarded before this time (RFC 3339).
    pub to: Option<String>,
}

impl From<&FlightsExportParams> for FlightQuery {
    fn from(params: &FlightsExportParams) -> Self {
        Self {
            from: params.from.clone(),
            to: params.to.clone(),
        }
    }
}

/// `GET /flight/tickets`.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct TicketsParams {
    /// Only this flight's (`flt_…`).
    pub flight_id: Option<String>,
    /// Only this player's.
    pub external_user_id: Option<String>,
    /// Only tickets in this status (`active`, `cashed_out`, `lost`, …).
    pub status: Option<String>,
    /// Bought at or after this time (RFC 3339).
    pub from: Option<String>,
    /// Bought before this time (RFC 3339).
    pub to: Option<String>,
    /// Items per page, 1 to 200 (default 50).
    pub limit: Option<u32>,
    /// The `nextCursor` of the previous page.
    pub cursor: Option<String>,
}
page_of!(TicketsParams);

impl From<&TicketsParams> for TicketQuery {
    fn from(params: &TicketsParams) -> Self {
        Self {
            flight_id: params.flight_id.clone(),
            external_user_id: params.external_user_id.clone(),
            status: params.status.clone(),
            from: params.from.clone(),
            to: params.to.clone(),
        }
    }
}

/// `GET /flight/tickets/export`: the list's filters, every page.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct TicketsExportParams {
    /// Only this flight's (`flt_…`).
    pub flight_id: Option<String>,
    /// Only this player's.
    pub external_user_id: Option<String>,
    /// Only tickets in this status.
    pub status: Option<String>,
    /// Bought at or after this time (RFC 3339).
    pub from: Option<String>,
    /// Bought before this time (RFC 3339).
    pub to: Option<String>,
}

impl From<&TicketsExportParams> for TicketQuery {
    fn from(params: &TicketsExportParams) -> Self {
        Self {
            flight_id: params.flight_id.clone(),
            external_user_id: params.external_user_id.clone(),
            status: params.status.clone(),
            from: params.from.clone(),
            to: params.to.clone(),
        }
    }
}

/// `GET /flight/wallet-operations`.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct FlightOperationsParams {
    /// Only this player's.
    pub external_user_id: Option<String>,
    /// Only this flight's (`flt_…`).
    pub flight_id: Option<String>,
    /// Only this ticket's (`tkt_…`).
    pub ticket_id: Option<String>,
    /// `flight_ticket_purchase`, `flight_ticket_payout` or `flight_ticket_refund`.
    pub flow: Option<String>,
    /// One of the operation states (`applied`, `manual_review`, …).
    pub state: Option<String>,
    /// Created at or after this time (RFC 3339).
    pub from: Option<String>,
    /// Created before this time (RFC 3339).
    pub to: Option<String>,
    /// `true` adds every operation's steps.
    pub include_steps: Option<bool>,
    /// Items per page, 1 to 200 (default 50).
    pub limit: Option<u32>,
    /// The `nextCursor` of the previous page.
    pub cursor: Option<String>,
}
page_of!(FlightOperationsParams);

impl From<&FlightOperationsParams> for FlightOperationQuery {
    fn from(params: &FlightOperationsParams) -> Self {
        Self {
            external_user_id: params.external_user_id.clone(),
            flight_id: params.flight_id.clone(),
            ticket_id: params.ticket_id.clone(),
            flow: params.flow.clone(),
            state: params.state.clone(),
            from: params.from.clone(),
            to: params.to.clone(),
            include_steps: params.include_steps.unwrap_or(false),
        }
    }
}
