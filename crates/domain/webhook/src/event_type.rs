//! The event catalog: every webhook event type and its stable dotted name. Every name
//! lives in one namespace, `mini_app.`, then the thing that changed and what happened to
//! it (`mini_app.trade.processed`); the flight product's eight types add the product
//! between them (`mini_app.flight.ticket.purchased`). New types are new variants (and new
//! rows in [`EventType::ALL`]) that change no byte of the existing ones; the test below
//! pins every name. An
//! endpoint only receives the types it lists (see `subscription.rs`), so adding a type
//! never sends anything new to an existing endpoint.
//!
//! The `data` object of each type (camelCase field names; ids are prefixed ids; amounts
//! and shares integer strings of minor units; times RFC 3339 UTC):
//!
//! | type | `data` fields |
//! |---|---|
//! | `mini_app.login.succeeded` | `externalUserId`, `playerSessionId`, `launchId`, `loggedInAt`, `expiresAt` |
//! | `mini_app.logout.requested` | `externalUserId`, `playerSessionId`, `loggedOutAt` |
//! | `mini_app.session.expired` | `externalUserId`, `playerSessionId`, `expiredAt` |
//! | `mini_app.trade.submitted` | `tradeId`, `marketId`, `externalUserId`, `side`, `outcome`, `shares`, `amount`, `currency`, `submittedAt` |
//! | `mini_app.trade.processed` | `tradeId`, `marketId`, `externalUserId`, `side`, `outcome`, `shares`, `amount`, `currency`, `processedAt` |
//! | `mini_app.trade.failed` | `tradeId`, `marketId`, `externalUserId`, `side`, `reason`, `failedAt` |
//! | `mini_app.trade.compensation_required` | `tradeId`, `marketId`, `externalUserId`, `walletOperationId`, `compensatedOperationId`, `amount`, `currency`, `reason`, `requiredAt` |
//! | `mini_app.redemption.processed` | `redemptionId`, `marketId`, `externalUserId`, `amount`, `currency`, `processedAt` |
//! | `mini_app.redemption.failed` | `redemptionId`, `marketId`, `externalUserId`, `amount`, `currency`, `reason`, `failedAt` |
//! | `mini_app.payout.pending` | `redemptionId`, `marketId`, `externalUserId`, `walletOperationId`, `amount`, `currency`, `reason`, `pendingSince` |
//! | `mini_app.market.resolved` | `marketId`, `winningOutcome`, `resolvedAt` |
//! | `mini_app.market.visibility_changed` | `marketId`, `visible`, `cause` (`switch` or `mode`), `changedAt` |
//! | `mini_app.wallet_operation.manual_review_required` | `walletOperationId`, `flow`, `externalUserId`, `amount`, `currency`, `reason`, `reviewReason` |
//! | `mini_app.wallet_operation.manual_review_resolved` | `walletOperationId`, `flow`, `resolution`, `resolvedAt` |
//! | `mini_app.webhook_endpoint.disabled` | `webhookEndpointId`, `url`, `reason` (`failing`, `gone`, `operator`), `failingSince` (null unless failing), `disabledAt` |
//! | `mini_app.flight.ticket.purchased` | `ticketId`, `flightId`, `externalUserId`, `stake`, `currency` (`IDR`), `autoCashOut` (null when none), `shareBps`, `walletOperationId`, `purchasedAt` |
//! | `mini_app.flight.ticket.cashed_out` | `ticketId`, `flightId`, `externalUserId`, `stake`, `multiplier`, `payout`, `currency`, `auto`, `cashedOutAt` |
//! | `mini_app.flight.ticket.lost` | `ticketId`, `flightId`, `externalUserId`, `stake`, `crashPoint`, `currency`, `lostAt` |
//! | `mini_app.flight.ticket.refunded` | `ticketId`, `flightId`, `externalUserId`, `amount`, `currency`, `reason` (`flight_cancelled`, `boarding_closed`, `review`), `walletOperationId`, `refundedAt` |
//! | `mini_app.flight.terms.scheduled` | `termsId`, `effectiveFrom`, `shareBps`, `minStake`, `maxStake`, `maxPayout`, `ticketsPerFlight`, `settlementPeriod`, `paymentDueDays`, `currency`, `scheduledAt` |
//! | `mini_app.flight.settlement_report.finalized` | `reportId`, `periodStart`, `periodEnd`, `ticketCount`, `stakes`, `payouts`, `refunds`, `ggr`, `share`, `amountDue`, `direction`, `dueDate`, `currency`, `statementHash`, `finalizedAt` |
//! | `mini_app.flight.statement_correction.issued` | `correctionId`, `reportId`, `statementHash`, `amountChange`, `currency`, `reason`, `issuedAt` |
//! | `mini_app.flight.payment.recorded` | `paymentId`, `reportId`, `amount`, `currency`, `direction`, `paidOn`, `reference`, `remainingDue`, `recordedAt` |
//!
//! Every type about one player (those with `externalUserId`) also carries `metadata`, the
//! operator's object from a launch (see `launch_metadata.rs`).

use std::fmt;
use std::str::FromStr;

use serde_with::{DeserializeFromStr, SerializeDisplay};

/// The type of a webhook event. Names are never renamed or reused; new ones are only
/// ever added.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, SerializeDisplay, DeserializeFromStr)]
pub enum EventType {
    /// `mini_app.login.succeeded`: a player redeemed a launch token and has a session in
    /// the hosted app (making the launch URL is not a login).
    LoginSucceeded,
    /// `mini_app.logout.requested`: a player logged out; the session is ended.
    LogoutRequested,
    /// `mini_app.session.expired`: a player session reached its end of life without a
    /// logout. Every session ends with exactly one of this and `mini_app.logout.requested`.
    SessionExpired,
    /// `mini_app.trade.submitted`: an order was accepted and stored; its wallet call is
    /// about to be made.
    TradeSubmitted,
    /// `mini_app.trade.processed`: a buy or sell went through and the wallet was charged or paid.
    TradeProcessed,
    /// `mini_app.trade.failed`: a buy or sell was refused or could not complete.
    TradeFailed,
    /// `mini_app.trade.compensation_required`: a buy's debit went through but the buy could
    /// not be placed, so the debit is given back by a compensation (sent with its own key).
    TradeCompensationRequired,
    /// `mini_app.redemption.processed`: a winning position was paid out to the player's wallet.
    RedemptionProcessed,
    /// `mini_app.redemption.failed`: the wallet refused a payout (it is still owed and
    /// settled with the operator outside the platform).
    RedemptionFailed,
    /// `mini_app.payout.pending`: whether a payout reached the wallet is unknown; it waits
    /// for manual review and is never sent again automatically.
    PayoutPending,
    /// `mini_app.market.resolved`: a market's winning outcome was fixed.
    MarketResolved,
    /// `mini_app.market.visibility_changed`: a market was shown to or hidden from players.
    MarketVisibilityChanged,
    /// `mini_app.wallet_operation.manual_review_required`: a wallet mutation's outcome is
    /// unknown and waits for staff (it is never replayed automatically).
    WalletOperationManualReviewRequired,
    /// `mini_app.wallet_operation.manual_review_resolved`: staff settled a wallet mutation
    /// under review.
    WalletOperationManualReviewResolved,
    /// `mini_app.webhook_endpoint.disabled`: an endpoint was disabled, after failing for
    /// days, answering 410 Gone, or by the operator; sent to the operator's endpoints that
    /// subscribe to it (never to the disabled one itself).
    WebhookEndpointDisabled,
    /// `mini_app.flight.ticket.purchased`: a flight ticket's debit went through; the ticket
    /// flies (or is refunded when boarding closed first).
    FlightTicketPurchased,
    /// `mini_app.flight.ticket.cashed_out`: a ticket was cashed out before the crash, by
    /// the player or at its auto target; its payout is owed to the player.
    FlightTicketCashedOut,
    /// `mini_app.flight.ticket.lost`: a ticket was still flying at the crash.
    FlightTicketLost,
    /// `mini_app.flight.ticket.refunded`: a ticket's stake was given back to the wallet.
    FlightTicketRefunded,
    /// `mini_app.flight.terms.scheduled`: platform staff scheduled a new version of the
    /// operator's flight terms.
    FlightTermsScheduled,
    /// `mini_app.flight.settlement_report.finalized`: a period's settlement report was
    /// finalized into a signed statement.
    FlightSettlementReportFinalized,
    /// `mini_app.flight.statement_correction.issued`: a signed correction amends a statement.
    FlightStatementCorrectionIssued,
    /// `mini_app.flight.payment.recorded`: platform staff recorded a payment against a report.
    FlightPaymentRecorded,
}

/// An event type name that this version of the platform does not know.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown webhook event type `{0}`")]
pub struct UnknownEventType(pub String);

impl EventType {
    /// Every known type, in catalog order.
    pub const ALL: [EventType; 23] = [
        Self::LoginSucceeded,
        Self::LogoutRequested,
        Self::SessionExpired,
        Self::TradeSubmitted,
        Self::TradeProcessed,
        Self::TradeFailed,
        Self::TradeCompensationRequired,
        Self::RedemptionProcessed,
        Self::RedemptionFailed,
        Self::PayoutPending,
        Self::MarketResolved,
        Self::MarketVisibilityChanged,
        Self::WalletOperationManualReviewRequired,
        Self::WalletOperationManualReviewResolved,
        Self::WebhookEndpointDisabled,
        Self::FlightTicketPurchased,
        Self::FlightTicketCashedOut,
        Self::FlightTicketLost,
        Self::FlightTicketRefunded,
        Self::FlightTermsScheduled,
        Self::FlightSettlementReportFinalized,
        Self::FlightStatementCorrectionIssued,
        Self::FlightPaymentRecorded,
    ];

    /// The namespace every name starts with.
    pub const NAMESPACE: &'static str = "mini_app.";

    /// Whether the event belongs to the flight product (`mini_app.flight.*`): the
    /// flight's delivery evidence lists only these, and enabling flight warns when no
    /// endpoint subscribes to any of them.
    pub const fn is_flight(self) -> bool {
        matches!(
            self,
            Self::FlightTicketPurchased
                | Self::FlightTicketCashedOut
                | Self::FlightTicketLost
                | Self::FlightTicketRefunded
                | Self::FlightTermsScheduled
                | Self::FlightSettlementReportFinalized
                | Self::FlightStatementCorrectionIssued
                | Self::FlightPaymentRecorded
        )
    }

    /// The name on the wire (the envelope's `type`, the subscription list's entries).
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::LoginSucceeded => "mini_app.login.succeeded",
            Self::LogoutRequested => "mini_app.logout.requested",
            Self::SessionExpired => "mini_app.session.expired",
            Self::TradeSubmitted => "mini_app.trade.submitted",
            Self::TradeProcessed => "mini_app.trade.processed",
            Self::TradeFailed => "mini_app.trade.failed",
            Self::TradeCompensationRequired => "mini_app.trade.compensation_required",
            Self::RedemptionProcessed => "mini_app.redemption.processed",
            Self::RedemptionFailed => "mini_app.redemption.failed",
            Self::PayoutPending => "mini_app.payout.pending",
            Self::MarketResolved => "mini_app.market.resolved",
            Self::MarketVisibilityChanged => "mini_app.market.visibility_changed",
            Self::WalletOperationManualReviewRequired => "mini_app.wallet_operation.manual_review_required",
            Self::WalletOperationManualReviewResolved => "mini_app.wallet_operation.manual_review_resolved",
            Self::WebhookEndpointDisabled => "mini_app.webhook_endpoint.disabled",
            Self::FlightTicketPurchased => "mini_app.flight.ticket.purchased",
            Self::FlightTicketCashedOut => "mini_app.flight.ticket.cashed_out",
            Self::FlightTicketLost => "mini_app.flight.ticket.lost",
            Self::FlightTicketRefunded => "mini_app.flight.ticket.refunded",
            Self::FlightTermsScheduled => "mini_app.flight.terms.scheduled",
            Self::FlightSettlementReportFinalized => "mini_app.flight.settlement_report.finalized",
            Self::FlightStatementCorrectionIssued => "mini_app.flight.statement_correction.issued",
            Self::FlightPaymentRecorded => "mini_app.flight.payment.recorded",
        }
    }
}

impl fmt::Display for EventType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for EventType {
    type Err = UnknownEventType;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|kind| kind.as_str() == text)
            .ok_or_else(|| UnknownEventType(text.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_flight_events_are_exactly_the_mini_app_flight_namespace() {
        for kind in EventType::ALL {
            assert_eq!(
                kind.is_flight(),
                kind.as_str().starts_with("mini_app.flight."),
                "{kind}"
            );
        }
        assert_eq!(EventType::ALL.into_iter().filter(|kind| kind.is_flight()).count(), 8);
    }

    /// Operators route on these exact strings: changing one breaks every integration.
    #[test]
    fn existing_names_never_change() {
        let names: Vec<_> = EventType::ALL.into_iter().map(EventType::as_str).collect();
        assert_eq!(
            names,
            [
                "mini_app.login.succeeded",
                "mini_app.logout.requested",
                "mini_app.session.expired",
                "mini_app.trade.submitted",
                "mini_app.trade.processed",
                "mini_app.trade.failed",
                "mini_app.trade.compensation_required",
                "mini_app.redemption.processed",
                "mini_app.redemption.failed",
                "mini_app.payout.pending",
                "mini_app.market.resolved",
                "mini_app.market.visibility_changed",
                "mini_app.wallet_operation.manual_review_required",
                "mini_app.wallet_operation.manual_review_resolved",
                "mini_app.webhook_endpoint.disabled",
                "mini_app.flight.ticket.purchased",
                "mini_app.flight.ticket.cashed_out",
                "mini_app.flight.ticket.lost",
                "mini_app.flight.ticket.refunded",
                "mini_app.flight.terms.scheduled",
                "mini_app.flight.settlement_report.finalized",
                "mini_app.flight.statement_correction.issued",
                "mini_app.flight.payment.recorded",
            ]
        );
    }

    #[test]
    fn names_round_trip_and_unknown_ones_are_refused() {
        for kind in EventType::ALL {
            assert_eq!(kind.as_str().parse::<EventType>(), Ok(kind));
        }
        for unknown in [
            "mini_app.trade.Processed",
            "mini_app.trade",
            "mini_app.trade.processed ",
            "trade.processed",
            "trade.executed",
            "user.launched",
            "redemption.paid",
            "mini_app.flight.booked",
            "mini_app.flight.ticket",
            "mini_app.flight.*",
            "mini_app.*",
            "*",
            "",
        ] {
            assert_eq!(unknown.parse::<EventType>(), Err(UnknownEventType(unknown.into())));
        }
    }

    #[test]
    fn serde_uses_the_wire_name() {
        let json = serde_json::to_string(&EventType::MarketVisibilityChanged).ok();
        assert_eq!(json.as_deref(), Some("\"mini_app.market.visibility_changed\""));
        let back: Result<EventType, _> = serde_json::from_str("\"mini_app.redemption.processed\"");
        assert_eq!(back.ok(), Some(EventType::RedemptionProcessed));
        assert!(serde_json::from_str::<EventType>("\"redemption.paid\"").is_err());
    }

    /// One namespace for every product: `mini_app.`, the flight product's `flight.`, then
    /// a subject and a happening.
    #[test]
    fn every_name_is_in_the_one_namespace() {
        for kind in EventType::ALL {
            let name = kind.as_str();
            let rest = name.strip_prefix(EventType::NAMESPACE);
            let rest = rest.map(|rest| rest.strip_prefix("flight.").unwrap_or(rest));
            assert!(rest.is_some_and(|rest| rest.split('.').count() == 2), "{name}");
            assert!(
                name.bytes().all(|b| b.is_ascii_lowercase() || b == b'_' || b == b'.'),
                "{name}"
            );
        }
    }

    /// The flight product has exactly eight types, all under `mini_app.flight.`.
    #[test]
    fn the_flight_product_has_eight_types() {
        let flight = EventType::ALL
            .iter()
            .filter(|kind| kind.as_str().starts_with("mini_app.flight."))
            .count();
        assert_eq!(flight, 8);
    }
}
