//! The idempotency key of a wallet mutation (contract rules 2, 5 and 6): exactly one per
//! business action, derived from the action's identity and nothing else (no clock, no
//! randomness, no attempt number), so every retry of an action carries the same key and
//! no action can ever be given a second one. Written `<flow>:<subject id>`, e.g.
//! `buy:trd_01j…`, `redemption:red_01j…` or `flight_ticket_refund:tkt_01j…`; subject ids
//! are globally unique ULIDs.

use std::fmt;
use std::str::FromStr;

use serde_with::{DeserializeFromStr, SerializeDisplay};

use crate::action::BusinessAction;

/// A deduplication key the operator's wallet stores durably: same key, same outcome.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, SerializeDisplay, DeserializeFromStr)]
pub struct IdempotencyKey(String);

/// Why a text is not an idempotency key.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IdempotencyKeyError {
    /// The text is empty.
    #[error("an idempotency key must not be empty")]
    Empty,
    /// The text is longer than [`IdempotencyKey::MAX_LEN`].
    #[error("an idempotency key must be at most {max} characters", max = IdempotencyKey::MAX_LEN)]
    TooLong,
    /// The text has a character outside `[A-Za-z0-9:_-]`.
    #[error("an idempotency key may only contain letters, digits, `:`, `_` and `-`")]
    BadCharacter,
}

impl IdempotencyKey {
    /// Longest key, in bytes; operators size their key columns by it.
    pub const MAX_LEN: usize = 128;

    /// The one key of a business action.
    pub fn for_action(action: BusinessAction) -> Self {
        Self(format!("{}:{}", action.flow().as_str(), action.subject()))
    }

    /// Checks a stored or received key against the format every key obeys.
    pub fn parse(text: &str) -> Result<Self, IdempotencyKeyError> {
        if text.is_empty() {
            Err(IdempotencyKeyError::Empty)
        } else if text.len() > Self::MAX_LEN {
            Err(IdempotencyKeyError::TooLong)
        } else if !text.bytes().all(is_key_byte) {
            Err(IdempotencyKeyError::BadCharacter)
        } else {
            Ok(Self(text.to_owned()))
        }
    }

    /// The key as sent.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

fn is_key_byte(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || matches!(byte, b':' | b'_' | b'-')
}

impl fmt::Display for IdempotencyKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl FromStr for IdempotencyKey {
    type Err = IdempotencyKeyError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Self::parse(text)
    }
}

#[cfg(test)]
mod tests {
    use opinion_core::{RedemptionId, TicketId, TradeId};
    use proptest::prelude::*;

    use super::*;

    fn all_actions(trade: u128, redemption: u128) -> [BusinessAction; 7] {
        let ticket = TicketId::from_u128(trade);
        let trade = TradeId::from_u128(trade);
        [
            BusinessAction::Buy(trade),
            BusinessAction::Sell(trade),
            BusinessAction::BuyCompensation(trade),
            BusinessAction::Redemption(RedemptionId::from_u128(redemption)),
            BusinessAction::FlightTicketPurchase(ticket),
            BusinessAction::FlightTicketPayout(ticket),
            BusinessAction::FlightTicketRefund(ticket),
        ]
    }

    #[test]
    fn keys_have_the_documented_shape() {
        let keys: Vec<_> = all_actions(1, 2)
            .into_iter()
            .map(|action| IdempotencyKey::for_action(action).to_string())
            .collect();
        assert_eq!(
            keys,
            [
                "buy:trd_00000000000000000000000001",
                "sell:trd_00000000000000000000000001",
                "buy_compensation:trd_00000000000000000000000001",
                "redemption:red_00000000000000000000000002",
                "flight_ticket_purchase:tkt_00000000000000000000000001",
                "flight_ticket_payout:tkt_00000000000000000000000001",
                "flight_ticket_refund:tkt_00000000000000000000000001",
            ]
        );
    }

    #[test]
    fn parse_enforces_length_and_charset() {
        assert_eq!(IdempotencyKey::parse(""), Err(IdempotencyKeyError::Empty));
        assert!(IdempotencyKey::parse(&"a".repeat(128)).is_ok());
        assert_eq!(
            IdempotencyKey::parse(&"a".repeat(129)),
            Err(IdempotencyKeyError::TooLong)
        );
        for bad in ["buy trd", "buy/trd", "buy:trd\n", "ключ", "a.b"] {
            assert_eq!(
                IdempotencyKey::parse(bad),
                Err(IdempotencyKeyError::BadCharacter),
                "{bad}"
            );
        }
        assert!(IdempotencyKey::parse("Az09:_-").is_ok());
    }

    #[test]
    fn serde_refuses_malformed_keys() {
        assert!(serde_json::from_str::<IdempotencyKey>("\"buy:trd_1\"").is_ok());
        assert!(serde_json::from_str::<IdempotencyKey>("\"buy trd\"").is_err());
    }

    proptest! {
        /// Rule 5: deriving the key again for the same action can never give a new key.
        #[test]
        fn the_same_action_always_gets_the_same_key(trade in any::<u128>(), redemption in any::<u128>()) {
            for action in all_actions(trade, redemption) {
                prop_assert_eq!(IdempotencyKey::for_action(action), IdempotencyKey::for_action(action));
            }
        }

        /// Every derived key is a valid key and reads back unchanged.
        #[test]
        fn derived_keys_round_trip(trade in any::<u128>(), redemption in any::<u128>()) {
            for action in all_actions(trade, redemption) {
                let key = IdempotencyKey::for_action(action);
                prop_assert_eq!(IdempotencyKey::parse(key.as_str()), Ok(key.clone()));
            }
        }

        /// Different actions (other flow, other trade, other redemption) never share a key.
        #[test]
        fn different_actions_get_different_keys(a in any::<u128>(), b in any::<u128>()) {
            let mut actions = all_actions(a, a).to_vec();
            if a != b {
                actions.extend(all_actions(b, b));
            }
            let keys: std::collections::HashSet<_> =
                actions.iter().map(|action| IdempotencyKey::for_action(*action)).collect();
            prop_assert_eq!(keys.len(), actions.len());
        }
    }
}
