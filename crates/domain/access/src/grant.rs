//! What a credential holds: a set of scopes, or the wildcard `*`.

use std::collections::BTreeSet;

use crate::credential::CredentialKind;
use crate::scope::{Scope, UnknownScope};

/// The scopes held by an API key or a staff membership.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Grant {
    /// `*`: full API-key access for an API key, full dashboard access for a staff session.
    All,
    /// Exactly these scopes. Flight scopes are never added implicitly (contract rule 6).
    Scopes(BTreeSet<Scope>),
}

/// Why a list of grant strings is not a valid grant.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GrantError {
    /// A string outside the contract's scope list.
    #[error(transparent)]
    Unknown(#[from] UnknownScope),
    /// No scope at all: such a credential could do nothing.
    #[error("at least one scope is required")]
    Empty,
    /// `*` together with other scopes is ambiguous.
    #[error("`*` must be the only scope when present")]
    WildcardWithOthers,
    /// A scope listed twice is almost certainly a typo for another one.
    #[error("lists `{0}` twice")]
    Repeated(Scope),
}

impl Grant {
    /// The wildcard string.
    pub const WILDCARD: &'static str = "*";

    /// Parses grant strings as clients and the store write them.
    pub fn parse<S: AsRef<str>>(strings: &[S]) -> Result<Self, GrantError> {
        if strings.is_empty() {
            return Err(GrantError::Empty);
        }
        if strings.iter().any(|s| s.as_ref() == Self::WILDCARD) {
            return if strings.len() == 1 {
                Ok(Grant::All)
            } else {
                Err(GrantError::WildcardWithOthers)
            };
        }
        let mut scopes = BTreeSet::new();
        for string in strings {
            let scope = string.as_ref().parse::<Scope>()?;
            if !scopes.insert(scope) {
                return Err(GrantError::Repeated(scope));
            }
        }
        Ok(Grant::Scopes(scopes))
    }

    /// The grant as strings, for storage and for the wire.
    pub fn to_strings(&self) -> Vec<String> {
        match self {
            Grant::All => vec![Self::WILDCARD.to_owned()],
            Grant::Scopes(scopes) => scopes.iter().map(|s| s.as_str().to_owned()).collect(),
        }
    }

    /// Whether a credential of `kind` holding this grant holds `scope`.
    /// An API key never holds a staff-only scope, not even through `*`.
    pub fn holds(&self, kind: CredentialKind, scope: Scope) -> bool {
        if kind == CredentialKind::ApiKey && scope.is_staff_only() {
            return false;
        }
        match self {
            Grant::All => true,
            Grant::Scopes(scopes) => scopes.contains(&scope),
        }
    }

    /// The explicit scopes of a restricted grant; empty for `*`.
    pub fn explicit_scopes(&self) -> impl Iterator<Item = Scope> + '_ {
        let scopes = match self {
            Grant::All => None,
            Grant::Scopes(scopes) => Some(scopes.iter().copied()),
        };
        scopes.into_iter().flatten()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_wildcard_alone() {
        assert_eq!(Grant::parse(&["*"]), Ok(Grant::All));
        assert_eq!(Grant::parse(&["*", "users:read"]), Err(GrantError::WildcardWithOthers));
    }

    #[test]
    fn refuses_empty_and_unknown() {
        assert_eq!(Grant::parse::<&str>(&[]), Err(GrantError::Empty));
        assert_eq!(
            Grant::parse(&["users:read", "users:write"]),
            Err(GrantError::Unknown(UnknownScope("users:write".into())))
        );
    }

    #[test]
    fn a_repeated_scope_is_refused_and_strings_round_trip() {
        assert_eq!(
            Grant::parse(&["users:read", "launch:write", "users:read"]),
            Err(GrantError::Repeated(Scope::UsersRead))
        );
        let grant = Grant::parse(&["users:read", "launch:write"]).expect("valid");
        assert_eq!(grant.to_strings(), ["launch:write", "users:read"]);
        assert_eq!(Grant::parse(&grant.to_strings()), Ok(grant));
    }

    #[test]
    fn wildcard_means_every_non_staff_scope_for_an_api_key() {
        for scope in Scope::ALL {
            assert_eq!(
                Grant::All.holds(CredentialKind::ApiKey, *scope),
                !scope.is_staff_only(),
                "{scope}"
            );
        }
    }

    #[test]
    fn wildcard_means_everything_for_a_staff_session() {
        assert!(
            Scope::ALL
                .iter()
                .all(|s| Grant::All.holds(CredentialKind::StaffSession, *s))
        );
    }

    #[test]
    fn a_stored_staff_scope_on_an_api_key_still_grants_nothing() {
        let grant = Grant::Scopes([Scope::StaffsRead].into());
        assert!(!grant.holds(CredentialKind::ApiKey, Scope::StaffsRead));
        assert!(grant.holds(CredentialKind::StaffSession, Scope::StaffsRead));
    }

    #[test]
    fn flight_scopes_are_never_implied_by_a_restricted_grant() {
        let reporting =
            Grant::parse(&["users:read", "trades:read", "balance_operations:read", "webhooks:read"]).expect("valid");
        for flight in [Scope::FlightRead, Scope::FlightTermsRead, Scope::FlightSettlementsRead] {
            assert!(!reporting.holds(CredentialKind::ApiKey, flight));
            assert!(!reporting.holds(CredentialKind::StaffSession, flight));
        }
    }
}
