//! Production authorization (FLIGHT.md §3, the contract's 2026-09-16 entry): in the
//! production environment, flight for an operator needs a separate authorization that
//! platform staff record (who, when, the reference of the signed-off change, an optional
//! expiry) and may revoke. Records are never edited: a revocation stamps one, a renewal
//! is a new one, so the audit trail stays whole. This file holds the one rule "is this
//! operator authorized at instant t": some record is valid at t, where a record is valid
//! from its recording, until it is revoked or expires (both exclusive ends).

use std::fmt;

use opinion_core::{OperatorId, ProductionAuthorizationId};
use time::OffsetDateTime;

/// Whether flight in this environment needs a production authorization: only the
/// production environment does; staging and development need none.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AuthorizationRequirement {
    /// Production: enablement and every ticket purchase need a valid authorization.
    Required,
    /// Staging and development: nothing is needed.
    NotRequired,
}

/// The reference of the signed-off change an authorization rests on (a change ticket, a
/// sign-off document): 1 to 200 characters, no control characters, not blank.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuthorizationReference(String);

/// Why a reference was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the reference must be 1 to 200 characters, not blank, without control characters")]
pub struct AuthorizationReferenceError;

impl AuthorizationReference {
    /// The most characters a reference holds.
    pub const MAX_CHARS: usize = 200;

    /// Checks `text` (kept as written).
    pub fn new(text: &str) -> Result<Self, AuthorizationReferenceError> {
        let chars = text.chars().count();
        let blank = text.trim().is_empty();
        if blank || chars > Self::MAX_CHARS || text.chars().any(char::is_control) {
            return Err(AuthorizationReferenceError);
        }
        Ok(Self(text.to_owned()))
    }

    /// The reference as written.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for AuthorizationReference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Platform staff revoking an authorization: from `at` on it authorizes nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Revocation {
    /// The instant it stopped.
    pub at: OffsetDateTime,
    /// The platform staff member who revoked it.
    pub by: String,
}

/// One production authorization as platform staff recorded it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProductionAuthorization {
    /// Its id.
    pub id: ProductionAuthorizationId,
    /// The operator it authorizes.
    pub operator_id: OperatorId,
    /// The signed-off change it rests on.
    pub reference: AuthorizationReference,
    /// When it was recorded; it authorizes from this instant.
    pub recorded_at: OffsetDateTime,
    /// The platform staff member who recorded it.
    pub recorded_by: String,
    /// The instant it stops authorizing, if it expires.
    pub expires_at: Option<OffsetDateTime>,
    /// Its revocation, once revoked.
    pub revocation: Option<Revocation>,
}

/// What an authorization is at an instant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AuthorizationState {
    /// Not yet recorded at that instant.
    NotYetRecorded,
    /// It authorizes flight.
    Valid,
    /// It was revoked at or before that instant.
    Revoked,
    /// It expired at or before that instant (and was not revoked earlier).
    Expired,
}

impl ProductionAuthorization {
    /// What it is at `instant`: valid from `recorded_at` (inclusive) until the earlier of
    /// its revocation and its expiry (exclusive).
    pub fn state_at(&self, instant: OffsetDateTime) -> AuthorizationState {
        let revoked_at = self.revocation.as_ref().map(|revocation| revocation.at);
        let ended = |end: Option<OffsetDateTime>| end.is_some_and(|end| end <= instant);
        if instant < self.recorded_at {
            AuthorizationState::NotYetRecorded
        } else if ended(revoked_at) && !(ended(self.expires_at) && self.expires_at < revoked_at) {
            AuthorizationState::Revoked
        } else if ended(self.expires_at) {
            AuthorizationState::Expired
        } else {
            AuthorizationState::Valid
        }
    }

    /// Whether it authorizes flight at `instant`.
    pub fn is_valid_at(&self, instant: OffsetDateTime) -> bool {
        self.state_at(instant) == AuthorizationState::Valid
    }
}

/// An operator's production authorization at an instant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AuthorizationStatus<'a> {
    /// The environment needs none.
    NotRequired,
    /// Authorized by this record (of several valid ones, the latest recorded).
    Authorized(&'a ProductionAuthorization),
    /// Required and missing; the latest record, if any, says why (revoked or expired).
    Missing(Option<&'a ProductionAuthorization>),
}

impl AuthorizationStatus<'_> {
    /// Whether flight may go ahead: enablement, a ticket's purchase debit.
    pub fn allows(&self) -> bool {
        !matches!(self, Self::Missing(_))
    }
}

/// The operator's production authorization at `instant`, from all its records (in any
/// order; records of other operators must not be passed).
pub fn authorization_at(
    requirement: AuthorizationRequirement,
    records: &[ProductionAuthorization],
    instant: OffsetDateTime,
) -> AuthorizationStatus<'_> {
    if requirement == AuthorizationRequirement::NotRequired {
        return AuthorizationStatus::NotRequired;
    }
    let latest = |valid: bool| {
        records
            .iter()
            .filter(|record| record.recorded_at <= instant && (!valid || record.is_valid_at(instant)))
            .max_by_key(|record| (record.recorded_at, record.id))
    };
    match latest(true) {
        Some(record) => AuthorizationStatus::Authorized(record),
        None => AuthorizationStatus::Missing(latest(false)),
    }
}

/// Whether a ticket purchase whose clock read `read_at` may store its debit, judged in
/// the transaction that stores it against every record that transaction sees: as
/// `authorization_at` at `read_at`, except that every revocation seen counts even when
/// it names a later instant. The purchase read its clock a moment before that
/// revocation committed, so a purchase never slips past a revocation it could see.
pub fn authorizes_purchase(
    requirement: AuthorizationRequirement,
    records: &[ProductionAuthorization],
    read_at: OffsetDateTime,
) -> bool {
    let at = records
        .iter()
        .filter_map(|record| record.revocation.as_ref().map(|revocation| revocation.at))
        .fold(read_at, OffsetDateTime::max);
    authorization_at(requirement, records, at).allows()
}

/// Why an authorization cannot be recorded as asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum AuthorizationRefusal {
    /// The expiry is not after the instant of recording: it would authorize nothing.
    #[error("the authorization must expire after it is recorded; {expires_at} is not after now")]
    ExpiresAtNotInFuture {
        /// The refused expiry.
        expires_at: OffsetDateTime,
    },
}

impl AuthorizationRefusal {
    /// A stable snake_case code for the broken rule.
    pub const fn code(&self) -> &'static str {
        match self {
            Self::ExpiresAtNotInFuture { .. } => "expires_at_not_in_future",
        }
    }
}

/// Checks an authorization about to be recorded at `recorded_at`.
pub fn check_new_authorization(
    recorded_at: OffsetDateTime,
    expires_at: Option<OffsetDateTime>,
) -> Result<(), AuthorizationRefusal> {
    match expires_at {
        Some(expires_at) if expires_at <= recorded_at => Err(AuthorizationRefusal::ExpiresAtNotInFuture { expires_at }),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use time::Duration;
    use time::macros::datetime;

    use super::*;

    const T0: OffsetDateTime = datetime!(2026-12-01 10:00 UTC);

    fn record(n: u128, recorded_at: OffsetDateTime, expires_at: Option<OffsetDateTime>) -> ProductionAuthorization {
        ProductionAuthorization {
            id: ProductionAuthorizationId::from_u128(n),
            operator_id: OperatorId::from_u128(1),
            reference: AuthorizationReference::new("CHG-1042").expect("reference"),
            recorded_at,
            recorded_by: "compliance@platform.example".into(),
            expires_at,
            revocation: None,
        }
    }

    fn revoked(mut record: ProductionAuthorization, at: OffsetDateTime) -> ProductionAuthorization {
        record.revocation = Some(Revocation {
            at,
            by: "ops@platform.example".into(),
        });
        record
    }

    #[test]
    fn staging_and_development_need_nothing() {
        let status = authorization_at(AuthorizationRequirement::NotRequired, &[], T0);
        assert_eq!(status, AuthorizationStatus::NotRequired);
        assert!(status.allows());
    }

    #[test]
    fn production_without_any_record_is_missing() {
        let status = authorization_at(AuthorizationRequirement::Required, &[], T0);
        assert_eq!(status, AuthorizationStatus::Missing(None));
        assert!(!status.allows());
    }

    #[test]
    fn a_record_authorizes_from_the_instant_it_was_recorded() {
        let records = [record(1, T0, None)];
        let before = authorization_at(
            AuthorizationRequirement::Required,
            &records,
            T0 - Duration::nanoseconds(1),
        );
        assert_eq!(before, AuthorizationStatus::Missing(None));
        let at = authorization_at(AuthorizationRequirement::Required, &records, T0);
        assert_eq!(at, AuthorizationStatus::Authorized(&records[0]));
    }

    #[test]
    fn expiry_is_exclusive_the_last_valid_instant_is_just_before_it() {
        let expires = T0 + Duration::days(30);
        let authorization = record(1, T0, Some(expires));
        assert!(authorization.is_valid_at(expires - Duration::nanoseconds(1)));
        assert_eq!(authorization.state_at(expires), AuthorizationState::Expired);
        let records = [authorization];
        assert_eq!(
            authorization_at(AuthorizationRequirement::Required, &records, expires),
            AuthorizationStatus::Missing(Some(&records[0]))
        );
    }

    #[test]
    fn revocation_stops_it_at_once_and_is_what_the_state_says() {
        let revoked_at = T0 + Duration::hours(2);
        let authorization = revoked(record(1, T0, Some(T0 + Duration::days(1))), revoked_at);
        assert!(authorization.is_valid_at(revoked_at - Duration::nanoseconds(1)));
        assert_eq!(authorization.state_at(revoked_at), AuthorizationState::Revoked);
        assert_eq!(
            authorization.state_at(T0 + Duration::days(2)),
            AuthorizationState::Revoked
        );
    }

    #[test]
    fn an_authorization_that_expired_before_its_revocation_reads_expired() {
        let authorization = revoked(record(1, T0, Some(T0 + Duration::hours(1))), T0 + Duration::hours(3));
        assert_eq!(
            authorization.state_at(T0 + Duration::hours(4)),
            AuthorizationState::Expired
        );
    }

    #[test]
    fn a_renewal_authorizes_while_the_older_one_has_expired() {
        let records = [
            record(1, T0, Some(T0 + Duration::days(1))),
            record(2, T0 + Duration::hours(20), Some(T0 + Duration::days(31))),
        ];
        let later = T0 + Duration::days(2);
        assert_eq!(
            authorization_at(AuthorizationRequirement::Required, &records, later),
            AuthorizationStatus::Authorized(&records[1])
        );
    }

    #[test]
    fn a_purchase_never_slips_past_a_revocation_it_sees() {
        let records = [revoked(record(1, T0, None), T0 + Duration::seconds(10))];
        let read_at = T0 + Duration::seconds(9);
        assert!(records[0].is_valid_at(read_at));
        assert!(!authorizes_purchase(
            AuthorizationRequirement::Required,
            &records,
            read_at
        ));
        assert!(authorizes_purchase(
            AuthorizationRequirement::NotRequired,
            &records,
            read_at
        ));
        let open = [record(1, T0, Some(T0 + Duration::seconds(10)))];
        assert!(authorizes_purchase(AuthorizationRequirement::Required, &open, read_at));
        assert!(!authorizes_purchase(
            AuthorizationRequirement::Required,
            &open,
            T0 + Duration::seconds(10)
        ));
    }

    #[test]
    fn expiry_must_be_after_the_recording() {
        assert_eq!(check_new_authorization(T0, None), Ok(()));
        assert_eq!(check_new_authorization(T0, Some(T0 + Duration::seconds(1))), Ok(()));
        let refusal = check_new_authorization(T0, Some(T0)).expect_err("refused");
        assert_eq!(refusal.code(), "expires_at_not_in_future");
    }

    #[test]
    fn references_are_named_changes_not_blank_or_control_text() {
        assert_eq!(
            AuthorizationReference::new("CHG-2026-118 signed off").map(|r| r.to_string()),
            Ok("CHG-2026-118 signed off".to_owned())
        );
        for bad in ["", "   ", "line\nbreak", &"x".repeat(201)] {
            assert_eq!(
                AuthorizationReference::new(bad),
                Err(AuthorizationReferenceError),
                "{bad:?}"
            );
        }
        assert!(AuthorizationReference::new(&"é".repeat(200)).is_ok());
    }

    fn instant() -> impl Strategy<Value = OffsetDateTime> {
        (0i64..10_000).prop_map(|seconds| T0 + Duration::seconds(seconds))
    }

    proptest! {
        #[test]
        fn valid_exactly_between_recording_and_the_earlier_end(
            recorded in instant(),
            expiry in proptest::option::of(instant()),
            revocation in proptest::option::of(instant()),
            at in instant(),
        ) {
            let mut authorization = record(1, recorded, expiry);
            if let Some(revoked_at) = revocation {
                authorization = revoked(authorization, revoked_at);
            }
            let end = match (expiry, revocation) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
            let expected = recorded <= at && end.is_none_or(|end| at < end);
            prop_assert_eq!(authorization.is_valid_at(at), expected);
            let records = [authorization];
            let status = authorization_at(AuthorizationRequirement::Required, &records, at);
            prop_assert_eq!(status.allows(), expected);
            prop_assert!(authorization_at(AuthorizationRequirement::NotRequired, &records, at).allows());
        }

        #[test]
        fn authorized_iff_some_record_is_valid(
            spans in proptest::collection::vec((instant(), proptest::option::of(instant()), proptest::option::of(instant())), 0..5),
            at in instant(),
        ) {
            let records: Vec<_> = spans
                .iter()
                .enumerate()
                .map(|(n, (recorded, expiry, revocation))| {
                    let authorization = record(n as u128 + 1, *recorded, *expiry);
                    match revocation {
                        Some(revoked_at) => revoked(authorization, *revoked_at),
                        None => authorization,
                    }
                })
                .collect();
            let any_valid = records.iter().any(|record| record.is_valid_at(at));
            prop_assert_eq!(authorization_at(AuthorizationRequirement::Required, &records, at).allows(), any_valid);
        }
    }
}
