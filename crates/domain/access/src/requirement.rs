//! What a route demands of its caller, and the decision for one credential.

use crate::credential::CredentialKind;
use crate::grant::Grant;
use crate::scope::Scope;

/// Which kinds of credential a route accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CredentialRule {
    /// An API key or a staff session.
    Any,
    /// Staff sessions only (contract rules 2 and 7); an API key is refused even with `*`.
    StaffSessionOnly,
}

/// Which scopes a route demands of an accepted credential.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScopeRule {
    /// Being authenticated is enough.
    None,
    /// Every one of these (the flight compound requirements, contract rules 3 to 5).
    AllOf(&'static [Scope]),
    /// At least one of these.
    AnyOf(&'static [Scope]),
}

/// The requirement of one route.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Requirement {
    /// Anyone may call it, authenticated or not.
    Public,
    /// A credential is required, of an accepted kind, holding the scopes.
    Authenticated {
        /// Accepted kinds of credential.
        credential: CredentialRule,
        /// Scopes the credential must hold.
        scopes: ScopeRule,
    },
}

/// Why an authenticated caller is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Denial {
    /// The route takes staff sessions only and an API key was presented.
    StaffSessionRequired,
    /// The credential lacks scopes: all of `missing`, or (when `any_of`) any one of them.
    MissingScopes {
        /// The scopes that would let the call through.
        missing: Vec<Scope>,
        /// Whether one of `missing` is enough.
        any_of: bool,
    },
}

impl Requirement {
    /// A route that needs every one of `scopes`, from any kind of credential.
    pub const fn all_of(scopes: &'static [Scope]) -> Self {
        Self::Authenticated {
            credential: CredentialRule::Any,
            scopes: ScopeRule::AllOf(scopes),
        }
    }

    /// A route that needs any one of `scopes`, from any kind of credential.
    pub const fn any_of(scopes: &'static [Scope]) -> Self {
        Self::Authenticated {
            credential: CredentialRule::Any,
            scopes: ScopeRule::AnyOf(scopes),
        }
    }

    /// A staff-session route that needs every one of `scopes` (none for e.g. ending one's own session).
    pub const fn staff(scopes: &'static [Scope]) -> Self {
        Self::Authenticated {
            credential: CredentialRule::StaffSessionOnly,
            scopes: ScopeRule::AllOf(scopes),
        }
    }

    /// Whether the route can be called without a credential.
    pub const fn is_public(&self) -> bool {
        matches!(self, Self::Public)
    }

    /// Decides whether a caller of `kind` holding `grant` may call the route.
    /// The kind of credential is checked before scopes, so an API key on a staff route
    /// always learns that it needs a staff session.
    pub fn check(&self, kind: CredentialKind, grant: &Grant) -> Result<(), Denial> {
        let Self::Authenticated { credential, scopes } = self else {
            return Ok(());
        };
        if *credential == CredentialRule::StaffSessionOnly && kind != CredentialKind::StaffSession {
            return Err(Denial::StaffSessionRequired);
        }
        match scopes {
            ScopeRule::None => Ok(()),
            ScopeRule::AllOf(needed) => {
                let missing: Vec<Scope> = needed.iter().copied().filter(|s| !grant.holds(kind, *s)).collect();
                if missing.is_empty() {
                    Ok(())
                } else {
                    Err(Denial::MissingScopes { missing, any_of: false })
                }
            }
            ScopeRule::AnyOf(options) => {
                if options.iter().any(|s| grant.holds(kind, *s)) {
                    Ok(())
                } else {
                    Err(Denial::MissingScopes {
                        missing: options.to_vec(),
                        any_of: true,
                    })
                }
            }
        }
    }

    /// The scopes a credential must hold to pass, all of them or (for any-of rules) each alone.
    pub fn scopes(&self) -> &'static [Scope] {
        match self {
            Self::Public => &[],
            Self::Authenticated { scopes, .. } => match scopes {
                ScopeRule::None => &[],
                ScopeRule::AllOf(s) | ScopeRule::AnyOf(s) => s,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use CredentialKind::{ApiKey, StaffSession};

    fn grant(scopes: &[&str]) -> Grant {
        Grant::parse(scopes).expect("valid grant")
    }

    #[test]
    fn public_routes_pass_everyone() {
        assert_eq!(Requirement::Public.check(ApiKey, &grant(&["users:read"])), Ok(()));
    }

    #[test]
    fn all_of_names_exactly_the_missing_scopes() {
        let tickets = Requirement::all_of(&[Scope::FlightRead, Scope::FlightTermsRead]);
        assert_eq!(
            tickets.check(ApiKey, &grant(&["flight:read", "flight_terms:read"])),
            Ok(())
        );
        assert_eq!(
            tickets.check(ApiKey, &grant(&["flight:read"])),
            Err(Denial::MissingScopes {
                missing: vec![Scope::FlightTermsRead],
                any_of: false
            })
        );
        assert_eq!(
            tickets.check(StaffSession, &grant(&["users:read"])),
            Err(Denial::MissingScopes {
                missing: vec![Scope::FlightRead, Scope::FlightTermsRead],
                any_of: false
            })
        );
    }

    #[test]
    fn any_of_passes_with_one_and_names_all_options_otherwise() {
        let rule = Requirement::any_of(&[Scope::LaunchWrite, Scope::UsersRead]);
        assert_eq!(rule.check(ApiKey, &grant(&["users:read"])), Ok(()));
        assert_eq!(rule.check(ApiKey, &grant(&["launch:write"])), Ok(()));
        assert_eq!(
            rule.check(ApiKey, &grant(&["trades:read"])),
            Err(Denial::MissingScopes {
                missing: vec![Scope::LaunchWrite, Scope::UsersRead],
                any_of: true
            })
        );
    }

    #[test]
    fn staff_routes_refuse_api_keys_even_with_the_wildcard() {
        let rule = Requirement::staff(&[Scope::StaffsRead]);
        assert_eq!(rule.check(ApiKey, &Grant::All), Err(Denial::StaffSessionRequired));
        assert_eq!(
            rule.check(ApiKey, &grant(&["staffs:read"])),
            Err(Denial::StaffSessionRequired)
        );
        assert_eq!(rule.check(StaffSession, &Grant::All), Ok(()));
        assert_eq!(rule.check(StaffSession, &grant(&["staffs:read"])), Ok(()));
        assert_eq!(
            rule.check(StaffSession, &grant(&["users:read"])),
            Err(Denial::MissingScopes {
                missing: vec![Scope::StaffsRead],
                any_of: false
            })
        );
    }

    #[test]
    fn staff_route_without_scopes_needs_only_a_session() {
        let rule = Requirement::staff(&[]);
        assert_eq!(rule.check(StaffSession, &grant(&["users:read"])), Ok(()));
        assert_eq!(rule.check(ApiKey, &Grant::All), Err(Denial::StaffSessionRequired));
    }
}
