//! What must be true before platform staff may enable the flight product for an operator
//! (FLIGHT.md §3), and what only earns a warning. Every blocker is reported at once, so
//! staff fix them all in one go instead of discovering them one refusal at a time.

use std::fmt;

/// What the platform knows about an operator when staff ask to enable flight.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EnablementFacts {
    /// The operator has a wallet adapter configured.
    pub has_wallet_adapter: bool,
    /// The latest full-contract wallet test of the adapter as configured now passed its
    /// flight checks (the three flight reasons, in IDR).
    pub flight_wallet_test_passed: bool,
    /// A terms version is in force now.
    pub has_current_terms: bool,
    /// At least one of the operator's enabled webhook endpoints subscribes to a
    /// `mini_app.flight.*` event.
    pub subscribes_to_flight_events: bool,
    /// The operator holds a valid production authorization, or the environment needs
    /// none (`authorization_at(…).allows()`).
    pub production_authorized: bool,
}

/// A reason enabling is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum EnablementBlocker {
    /// No wallet adapter: nothing could take the ticket debits.
    NoWalletAdapter,
    /// The wallet test has not passed with the flight reasons in IDR since the adapter
    /// was last changed: the wallet may not take IDR or may refuse the new reasons.
    FlightWalletTestNotPassed,
    /// No terms in force: a ticket could not freeze a share or its limits.
    NoCurrentTerms,
    /// In production, no valid production authorization: the service may make no flight
    /// wallet call for the operator.
    ProductionAuthorizationMissing,
}

/// Something staff should know but that does not block enabling.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum EnablementWarning {
    /// No webhook endpoint subscribes to a flight event: the operator will not hear of
    /// its players' tickets (the contract asks operators to subscribe first).
    NoFlightWebhookSubscription,
}

/// What enabling would meet: every blocker, then every warning, each in a fixed order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EnablementCheck {
    /// Reasons enabling is refused; empty when it may go ahead.
    pub blockers: Vec<EnablementBlocker>,
    /// Things to tell staff either way.
    pub warnings: Vec<EnablementWarning>,
}

impl EnablementCheck {
    /// Whether nothing blocks enabling.
    pub fn allows(&self) -> bool {
        self.blockers.is_empty()
    }
}

/// Checks the facts against the enablement rule.
pub fn check_enablement(facts: EnablementFacts) -> EnablementCheck {
    let mut blockers = Vec::new();
    if !facts.has_wallet_adapter {
        blockers.push(EnablementBlocker::NoWalletAdapter);
    } else if !facts.flight_wallet_test_passed {
        blockers.push(EnablementBlocker::FlightWalletTestNotPassed);
    }
    if !facts.has_current_terms {
        blockers.push(EnablementBlocker::NoCurrentTerms);
    }
    if !facts.production_authorized {
        blockers.push(EnablementBlocker::ProductionAuthorizationMissing);
    }
    let mut warnings = Vec::new();
    if !facts.subscribes_to_flight_events {
        warnings.push(EnablementWarning::NoFlightWebhookSubscription);
    }
    EnablementCheck { blockers, warnings }
}

impl EnablementBlocker {
    /// Stable snake_case code, for the admin command's output and problem bodies.
    pub const fn code(self) -> &'static str {
        match self {
            Self::NoWalletAdapter => "no_wallet_adapter",
            Self::FlightWalletTestNotPassed => "flight_wallet_test_not_passed",
            Self::NoCurrentTerms => "no_current_terms",
            Self::ProductionAuthorizationMissing => "production_authorization_missing",
        }
    }
}

impl fmt::Display for EnablementBlocker {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::NoWalletAdapter => "the operator has no wallet adapter configured",
            Self::FlightWalletTestNotPassed => {
                "the wallet test has not passed with the flight reasons in IDR since the adapter was last changed"
            }
            Self::NoCurrentTerms => "the operator has no flight terms in force",
            Self::ProductionAuthorizationMissing => {
                "in production the operator needs a valid production authorization (record one with `opinion admin flight authorize-production`)"
            }
        })
    }
}

impl fmt::Display for EnablementWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::NoFlightWebhookSubscription => {
                "no enabled webhook endpoint of the operator subscribes to a mini_app.flight.* event"
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const READY: EnablementFacts = EnablementFacts {
        has_wallet_adapter: true,
        flight_wallet_test_passed: true,
        has_current_terms: true,
        subscribes_to_flight_events: true,
        production_authorized: true,
    };

    #[test]
    fn an_operator_with_everything_in_place_may_be_enabled_without_warning() {
        let check = check_enablement(READY);
        assert!(check.allows());
        assert_eq!(check.warnings, []);
    }

    #[test]
    fn every_blocker_is_listed_at_once() {
        let check = check_enablement(EnablementFacts {
            has_wallet_adapter: true,
            flight_wallet_test_passed: false,
            has_current_terms: false,
            subscribes_to_flight_events: false,
            production_authorized: false,
        });
        assert!(!check.allows());
        assert_eq!(
            check.blockers,
            [
                EnablementBlocker::FlightWalletTestNotPassed,
                EnablementBlocker::NoCurrentTerms,
                EnablementBlocker::ProductionAuthorizationMissing,
            ]
        );
        assert_eq!(check.warnings, [EnablementWarning::NoFlightWebhookSubscription]);
    }

    #[test]
    fn without_an_adapter_the_missing_adapter_is_the_blocker_not_its_test() {
        let check = check_enablement(EnablementFacts {
            has_wallet_adapter: false,
            flight_wallet_test_passed: false,
            ..READY
        });
        assert_eq!(check.blockers, [EnablementBlocker::NoWalletAdapter]);
    }

    #[test]
    fn a_missing_production_authorization_alone_blocks() {
        let check = check_enablement(EnablementFacts {
            production_authorized: false,
            ..READY
        });
        assert_eq!(check.blockers, [EnablementBlocker::ProductionAuthorizationMissing]);
    }

    #[test]
    fn a_missing_webhook_subscription_only_warns() {
        let check = check_enablement(EnablementFacts {
            subscribes_to_flight_events: false,
            ..READY
        });
        assert!(check.allows());
        assert_eq!(check.warnings, [EnablementWarning::NoFlightWebhookSubscription]);
    }

    #[test]
    fn blocker_codes_are_stable() {
        let codes = [
            EnablementBlocker::NoWalletAdapter,
            EnablementBlocker::FlightWalletTestNotPassed,
            EnablementBlocker::NoCurrentTerms,
            EnablementBlocker::ProductionAuthorizationMissing,
        ]
        .map(EnablementBlocker::code);
        assert_eq!(
            codes,
            [
                "no_wallet_adapter",
                "flight_wallet_test_not_passed",
                "no_current_terms",
                "production_authorization_missing"
            ]
        );
    }
}
