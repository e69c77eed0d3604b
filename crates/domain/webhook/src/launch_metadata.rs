//! Which events echo the operator's launch metadata, and from which launch. An operator
//! attaches an opaque object to a launch (its own session or campaign ids) to recognise
//! the player's events later; the object travels in `data.metadata` of every event about
//! that player.
//!
//! | events | `metadata` is the object of the launch behind … |
//! |---|---|
//! | login, logout, session expiry | the event's own session (`playerSessionId`) |
//! | trades, redemptions, payouts, a wallet operation needing review | the player's most recent session (`externalUserId`) |
//! | markets, review outcomes, endpoints | none: not about one player, no `metadata` field |
//!
//! A player event always has the field: `null` when that launch carried no object.

use crate::event_type::EventType;

/// The `data` field that carries the launch's object.
pub const METADATA_FIELD: &str = "metadata";

/// The `data` field naming the session a session event is about.
pub const PLAYER_SESSION_FIELD: &str = "playerSessionId";

/// The `data` field naming the player an event is about.
pub const PLAYER_FIELD: &str = "externalUserId";

/// Where an event's `metadata` comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MetadataSource {
    /// The event is not about one player and has no `metadata`.
    None,
    /// The launch that opened the session named by [`PLAYER_SESSION_FIELD`].
    OwnSession,
    /// The launch that opened the most recent session of the player named by
    /// [`PLAYER_FIELD`]: the session a trade was placed in, unless the player logged in
    /// again since; for a payout days later, the player's latest visit.
    LatestSession,
}

impl EventType {
    /// Where this type's `metadata` comes from.
    pub const fn metadata_source(self) -> MetadataSource {
        match self {
            Self::LoginSucceeded | Self::LogoutRequested | Self::SessionExpired => MetadataSource::OwnSession,
            Self::TradeSubmitted
            | Self::TradeProcessed
            | Self::TradeFailed
            | Self::TradeCompensationRequired
            | Self::RedemptionProcessed
            | Self::RedemptionFailed
            | Self::PayoutPending
            | Self::WalletOperationManualReviewRequired
            | Self::FlightTicketPurchased
            | Self::FlightTicketCashedOut
            | Self::FlightTicketLost
            | Self::FlightTicketRefunded => MetadataSource::LatestSession,
            Self::MarketResolved
            | Self::MarketVisibilityChanged
            | Self::WalletOperationManualReviewResolved
            | Self::WebhookEndpointDisabled
            | Self::FlightTermsScheduled
            | Self::FlightSettlementReportFinalized
            | Self::FlightStatementCorrectionIssued
            | Self::FlightPaymentRecorded => MetadataSource::None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_event_about_one_player_echoes_and_nothing_else_does() {
        for event in EventType::ALL {
            let source = event.metadata_source();
            let session_event = matches!(
                event,
                EventType::LoginSucceeded | EventType::LogoutRequested | EventType::SessionExpired
            );
            assert_eq!(source == MetadataSource::OwnSession, session_event, "{event}");
            let about_a_player = !matches!(
                event,
                EventType::MarketResolved
                    | EventType::MarketVisibilityChanged
                    | EventType::WalletOperationManualReviewResolved
                    | EventType::WebhookEndpointDisabled
                    | EventType::FlightTermsScheduled
                    | EventType::FlightSettlementReportFinalized
                    | EventType::FlightStatementCorrectionIssued
                    | EventType::FlightPaymentRecorded
            );
            assert_eq!(source != MetadataSource::None, about_a_player, "{event}");
        }
    }
}
