//! The event catalog: every webhook event type and its stable dotted name. Names are
//! namespaced by the thing that changed (`trade.…`, `market.…`), so the flight product
//! adds its eight `mini_app.flight.*` types as new variants (and new rows in
//! [`EventType::ALL`]) without changing a byte of the existing ones; the test below pins
//! every existing name. An endpoint only receives the types it lists (see
//! `subscription.rs`), so adding a type never sends anything new to an existing endpoint.
//!
//! The `data` object of each type (camelCase field names; ids are prefixed ids):
//!
//! | type | `data` fields |
//! |---|---|
//! | `user.launched` | `externalUserId`, `launchedAt` |
//! | `trade.executed` | `tradeId`, `marketId`, `externalUserId`, `side`, `outcome`, `shares`, `amount`, `currency`, `executedAt` |
//! | `trade.failed` | `tradeId`, `marketId`, `externalUserId`, `side`, `reason`, `failedAt` |
//! | `market.visibility_changed` | `marketId`, `visible`, `cause` (`switch` or `mode`), `changedAt` |
//! | `market.resolved` | `marketId`, `winningOutcome`, `resolvedAt` |
//! | `redemption.paid` | `redemptionId`, `marketId`, `externalUserId`, `amount`, `currency`, `paidAt` |
//! | `wallet_operation.manual_review_required` | `walletOperationId`, `flow`, `externalUserId`, `amount`, `currency`, `reason` |
//! | `wallet_operation.manual_review_resolved` | `walletOperationId`, `flow`, `resolution`, `resolvedAt` |
//! | `webhook_endpoint.disabled` | `webhookEndpointId`, `url`, `reason` (`failing`, `gone`, `operator`), `failingSince` (null unless failing), `disabledAt` |

use std::fmt;
use std::str::FromStr;

use serde_with::{DeserializeFromStr, SerializeDisplay};

/// The type of a webhook event. Names are never renamed or reused; new ones are only
/// ever added.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, SerializeDisplay, DeserializeFromStr)]
pub enum EventType {
    /// `user.launched`: a player opened the product through the operator's launch.
    UserLaunched,
    /// `trade.executed`: a buy or sell went through and the wallet was charged or paid.
    TradeExecuted,
    /// `trade.failed`: a buy or sell was refused or could not complete.
    TradeFailed,
    /// `market.visibility_changed`: a market was shown to or hidden from players.
    MarketVisibilityChanged,
    /// `market.resolved`: a market's winning outcome was fixed.
    MarketResolved,
    /// `redemption.paid`: a winning position was paid out to the player's wallet.
    RedemptionPaid,
    /// `wallet_operation.manual_review_required`: a wallet mutation's outcome is unknown
    /// and waits for staff (it is never replayed automatically).
    WalletOperationManualReviewRequired,
    /// `wallet_operation.manual_review_resolved`: staff settled a wallet mutation under review.
    WalletOperationManualReviewResolved,
    /// `webhook_endpoint.disabled`: an endpoint was disabled, after failing for days,
    /// answering 410 Gone, or by the operator; sent to the operator's endpoints that
    /// subscribe to it (never to the disabled one itself).
    WebhookEndpointDisabled,
}

/// An event type name that this version of the platform does not know.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown webhook event type `{0}`")]
pub struct UnknownEventType(pub String);

impl EventType {
    /// Every known type, in catalog order.
    pub const ALL: [EventType; 9] = [
        Self::UserLaunched,
        Self::TradeExecuted,
        Self::TradeFailed,
        Self::MarketVisibilityChanged,
        Self::MarketResolved,
        Self::RedemptionPaid,
        Self::WalletOperationManualReviewRequired,
        Self::WalletOperationManualReviewResolved,
        Self::WebhookEndpointDisabled,
    ];

    /// The name on the wire (the envelope's `type`, the subscription list's entries).
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::UserLaunched => "user.launched",
            Self::TradeExecuted => "trade.executed",
            Self::TradeFailed => "trade.failed",
            Self::MarketVisibilityChanged => "market.visibility_changed",
            Self::MarketResolved => "market.resolved",
            Self::RedemptionPaid => "redemption.paid",
            Self::WalletOperationManualReviewRequired => "wallet_operation.manual_review_required",
            Self::WalletOperationManualReviewResolved => "wallet_operation.manual_review_resolved",
            Self::WebhookEndpointDisabled => "webhook_endpoint.disabled",
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

    /// Operators route on these exact strings: changing one breaks every integration.
    #[test]
    fn existing_names_never_change() {
        let names: Vec<_> = EventType::ALL.into_iter().map(EventType::as_str).collect();
        assert_eq!(
            names,
            [
                "user.launched",
                "trade.executed",
                "trade.failed",
                "market.visibility_changed",
                "market.resolved",
                "redemption.paid",
                "wallet_operation.manual_review_required",
                "wallet_operation.manual_review_resolved",
                "webhook_endpoint.disabled",
            ]
        );
    }

    #[test]
    fn names_round_trip_and_unknown_ones_are_refused() {
        for kind in EventType::ALL {
            assert_eq!(kind.as_str().parse::<EventType>(), Ok(kind));
        }
        for unknown in [
            "trade.Executed",
            "trade",
            "trade.executed ",
            "mini_app.flight.booked",
            "*",
            "",
        ] {
            assert_eq!(unknown.parse::<EventType>(), Err(UnknownEventType(unknown.into())));
        }
    }

    #[test]
    fn serde_uses_the_wire_name() {
        let json = serde_json::to_string(&EventType::MarketVisibilityChanged).ok();
        assert_eq!(json.as_deref(), Some("\"market.visibility_changed\""));
        let back: Result<EventType, _> = serde_json::from_str("\"redemption.paid\"");
        assert_eq!(back.ok(), Some(EventType::RedemptionPaid));
        assert!(serde_json::from_str::<EventType>("\"redemption.refunded\"").is_err());
    }

    #[test]
    fn flight_names_stay_free() {
        assert!(
            EventType::ALL
                .iter()
                .all(|kind| !kind.as_str().starts_with("mini_app."))
        );
    }
}
