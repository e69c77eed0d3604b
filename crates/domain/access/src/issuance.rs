//! Who may hand out which scopes. A credential can never mint a credential stronger
//! than itself, and an API key can never carry a staff scope.

use crate::credential::CredentialKind;
use crate::grant::Grant;
use crate::scope::Scope;

/// Why a requested grant may not be issued.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IssuanceError {
    /// Staff scopes are assignable only to dashboard staff (contract rule 1).
    #[error("API keys cannot hold staff scopes: {0:?}")]
    StaffScopeOnApiKey(Vec<Scope>),
    /// The issuer would hand out scopes it does not hold itself.
    #[error("the request grants scopes the caller does not hold")]
    ExceedsIssuer {
        /// The scopes that go beyond the issuer's own grant (empty when `*` is requested).
        beyond: Vec<Scope>,
    },
}

/// Checks a grant meant for an API key against the API-key rules alone.
pub fn check_api_key_grant(grant: &Grant) -> Result<(), IssuanceError> {
    let staff: Vec<Scope> = grant.explicit_scopes().filter(|s| s.is_staff_only()).collect();
    if staff.is_empty() {
        Ok(())
    } else {
        Err(IssuanceError::StaffScopeOnApiKey(staff))
    }
}

/// Checks that a caller (of `issuer_kind` holding `issuer`) may hand out `requested`
/// to a credential of `target_kind`.
pub fn check_issuance(
    issuer_kind: CredentialKind,
    issuer: &Grant,
    target_kind: CredentialKind,
    requested: &Grant,
) -> Result<(), IssuanceError> {
    if target_kind == CredentialKind::ApiKey {
        check_api_key_grant(requested)?;
    }
    match requested {
        Grant::All => {
            let issuer_is_at_least_as_broad = *issuer == Grant::All
                && (issuer_kind == CredentialKind::StaffSession || target_kind == CredentialKind::ApiKey);
            if issuer_is_at_least_as_broad {
                Ok(())
            } else {
                Err(IssuanceError::ExceedsIssuer { beyond: Vec::new() })
            }
        }
        Grant::Scopes(scopes) => {
            let beyond: Vec<Scope> = scopes
                .iter()
                .copied()
                .filter(|s| !issuer.holds(issuer_kind, *s))
                .collect();
            if beyond.is_empty() {
                Ok(())
            } else {
                Err(IssuanceError::ExceedsIssuer { beyond })
            }
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
    fn api_keys_never_get_staff_scopes() {
        assert_eq!(
            check_issuance(
                StaffSession,
                &Grant::All,
                ApiKey,
                &grant(&["staffs:read", "users:read"])
            ),
            Err(IssuanceError::StaffScopeOnApiKey(vec![Scope::StaffsRead]))
        );
        assert_eq!(
            check_api_key_grant(&grant(&["staffs:write"])),
            Err(IssuanceError::StaffScopeOnApiKey(vec![Scope::StaffsWrite]))
        );
        assert_eq!(check_api_key_grant(&Grant::All), Ok(()));
    }

    #[test]
    fn a_wildcard_key_may_issue_any_api_key() {
        assert_eq!(check_issuance(ApiKey, &Grant::All, ApiKey, &Grant::All), Ok(()));
        assert_eq!(
            check_issuance(ApiKey, &Grant::All, ApiKey, &grant(&["flight:read"])),
            Ok(())
        );
    }

    #[test]
    fn a_restricted_key_cannot_escalate() {
        let issuer = grant(&["api_keys:write", "users:read"]);
        assert_eq!(check_issuance(ApiKey, &issuer, ApiKey, &grant(&["users:read"])), Ok(()));
        assert_eq!(
            check_issuance(ApiKey, &issuer, ApiKey, &grant(&["users:read", "trades:read"])),
            Err(IssuanceError::ExceedsIssuer {
                beyond: vec![Scope::TradesRead]
            })
        );
        assert_eq!(
            check_issuance(ApiKey, &issuer, ApiKey, &Grant::All),
            Err(IssuanceError::ExceedsIssuer { beyond: Vec::new() })
        );
    }

    #[test]
    fn a_wildcard_api_key_cannot_mint_full_staff_access() {
        assert_eq!(
            check_issuance(ApiKey, &Grant::All, StaffSession, &Grant::All),
            Err(IssuanceError::ExceedsIssuer { beyond: Vec::new() })
        );
    }

    #[test]
    fn full_staff_may_grant_anything_to_staff() {
        assert_eq!(
            check_issuance(StaffSession, &Grant::All, StaffSession, &Grant::All),
            Ok(())
        );
        assert_eq!(
            check_issuance(StaffSession, &Grant::All, StaffSession, &grant(&["staffs:write"])),
            Ok(())
        );
    }

    #[test]
    fn restricted_staff_grants_only_what_it_holds() {
        let issuer = grant(&["staffs:write", "users:read"]);
        assert_eq!(
            check_issuance(
                StaffSession,
                &issuer,
                StaffSession,
                &grant(&["users:read", "staffs:write"])
            ),
            Ok(())
        );
        assert_eq!(
            check_issuance(StaffSession, &issuer, StaffSession, &grant(&["flight:read"])),
            Err(IssuanceError::ExceedsIssuer {
                beyond: vec![Scope::FlightRead]
            })
        );
    }
}
