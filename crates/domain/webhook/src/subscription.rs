//! What an endpoint subscribes to: an explicit list of event types. There is no wildcard
//! and no "all types", so a type added later (the flight product's `mini_app.flight.*`)
//! reaches an endpoint only once its operator lists it, as the contract requires.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use crate::event_type::EventType;

/// The event types one endpoint receives; non-empty and without duplicates. Since the
/// types are a closed catalog and none may repeat, the list is bounded by the catalog's
/// size (fifteen today) with no separate limit to keep in step.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "Vec<EventType>", into = "Vec<EventType>")]
pub struct Subscription(BTreeSet<EventType>);

/// Why a list of event types is not a valid subscription.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SubscriptionError {
    /// An endpoint receiving nothing is a mistake, not a configuration.
    #[error("a webhook endpoint must subscribe to at least one event type")]
    Empty,
    /// A type listed twice is almost certainly a typo for another type.
    #[error("event type `{0}` is listed more than once")]
    Duplicate(EventType),
}

impl Subscription {
    /// Validates an operator's list of event types.
    pub fn new(types: impl IntoIterator<Item = EventType>) -> Result<Self, SubscriptionError> {
        let mut set = BTreeSet::new();
        for event_type in types {
            if !set.insert(event_type) {
                return Err(SubscriptionError::Duplicate(event_type));
            }
        }
        if set.is_empty() {
            return Err(SubscriptionError::Empty);
        }
        Ok(Self(set))
    }

    /// Whether an event of this type is delivered to the endpoint.
    pub fn matches(&self, event_type: EventType) -> bool {
        self.0.contains(&event_type)
    }

    /// The subscribed types, in catalog order.
    pub fn types(&self) -> impl Iterator<Item = EventType> + '_ {
        self.0.iter().copied()
    }
}

impl TryFrom<Vec<EventType>> for Subscription {
    type Error = SubscriptionError;

    fn try_from(types: Vec<EventType>) -> Result<Self, Self::Error> {
        Self::new(types)
    }
}

impl From<Subscription> for Vec<EventType> {
    fn from(subscription: Subscription) -> Self {
        subscription.0.into_iter().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_only_listed_types() {
        let subscription = Subscription::new([EventType::TradeProcessed, EventType::MarketResolved]);
        let Ok(subscription) = subscription else {
            panic!("valid subscription refused");
        };
        for event_type in EventType::ALL {
            let listed = matches!(event_type, EventType::TradeProcessed | EventType::MarketResolved);
            assert_eq!(subscription.matches(event_type), listed, "{event_type}");
        }
    }

    #[test]
    fn whole_catalog_is_accepted() {
        let subscription = Subscription::new(EventType::ALL);
        assert_eq!(subscription.map(|s| s.types().count()), Ok(EventType::ALL.len()));
    }

    #[test]
    fn refuses_empty_and_duplicates() {
        assert_eq!(Subscription::new([]), Err(SubscriptionError::Empty));
        assert_eq!(
            Subscription::new([
                EventType::TradeFailed,
                EventType::LoginSucceeded,
                EventType::TradeFailed
            ]),
            Err(SubscriptionError::Duplicate(EventType::TradeFailed))
        );
    }

    #[test]
    fn serde_is_a_list_of_names_and_validates() {
        let parsed: Result<Subscription, _> =
            serde_json::from_str(r#"["mini_app.trade.failed","mini_app.login.succeeded"]"#);
        let json = parsed.as_ref().ok().and_then(|s| serde_json::to_string(s).ok());
        assert_eq!(
            json.as_deref(),
            Some(r#"["mini_app.login.succeeded","mini_app.trade.failed"]"#)
        );
        for bad in [
            "[]",
            r#"["*"]"#,
            r#"["mini_app.*"]"#,
            r#"["trade.failed"]"#,
            r#"["mini_app.trade.failed","mini_app.trade.failed"]"#,
            r#""mini_app.trade.failed""#,
        ] {
            assert!(serde_json::from_str::<Subscription>(bad).is_err(), "{bad}");
        }
    }
}
