//! The operator's flight terms: platform staff set the first version, in force at once;
//! every ticket freezes the share and the maximum payout of the version in force when it
//! is bought; the terms routes read the versions as current, scheduled and history.
//! Scheduling later versions at a period boundary is `terms_schedule.rs`.

use opinion_core::{FlightTermsId, OperatorId};
use opinion_flight::{Terms, TermsVersion, in_force_at};
use time::OffsetDateTime;

use crate::error::{AppError, ProblemCode};
use crate::flight::FlightGame;
use crate::flight::model::TermsRecord;

impl FlightGame {
    /// Sets the operator's first terms, in force from now. Refused once the operator has
    /// terms: a change of terms is scheduled at a period boundary instead, so that no
    /// period is settled under two versions unannounced.
    pub async fn set_first_terms(&self, operator: OperatorId, terms: Terms, by: &str) -> Result<TermsRecord, AppError> {
        let by = staff_name(by)?;
        let existing = self.ports.store.terms_versions(operator).await?;
        if existing.iter().any(|record| record.cancelled.is_none()) {
            return Err(AppError::Conflict {
                code: ProblemCode::Conflict,
                detail: "the operator already has flight terms; schedule a new version at a period boundary".into(),
            });
        }
        let now = self.ports.clock.now();
        let record = TermsRecord {
            operator_id: operator,
            version: TermsVersion {
                id: FlightTermsId::from_ulid(self.ports.random.ulid()),
                effective_from: now,
                terms,
            },
            created_at: now,
            created_by: by.to_owned(),
            cancelled: None,
        };
        self.ports.store.add_terms(&record).await?;
        Ok(record)
    }

    /// The operator's terms in force now, if any.
    pub async fn current_terms(&self, operator: OperatorId) -> Result<Option<TermsRecord>, AppError> {
        let now = self.ports.clock.now();
        let records = self.ports.store.terms_versions(operator).await?;
        Ok(terms_in_force(records, now))
    }
}

/// An operator's terms versions as they stand at one instant.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TermsBook {
    /// The version in force.
    pub current: Option<TermsRecord>,
    /// Versions that take effect later, soonest first.
    pub scheduled: Vec<TermsRecord>,
    /// Versions superseded by a later one, and cancelled ones, newest first.
    pub history: Vec<TermsRecord>,
}

impl FlightGame {
    /// The operator's terms versions as they stand now.
    pub async fn terms_book(&self, operator: OperatorId) -> Result<TermsBook, AppError> {
        let records = self.ports.store.terms_versions(operator).await?;
        Ok(terms_book_at(records, self.ports.clock.now()))
    }
}

/// Sorts `records` into the book at `at`.
pub(crate) fn terms_book_at(records: Vec<TermsRecord>, at: OffsetDateTime) -> TermsBook {
    let current = terms_in_force(records.clone(), at);
    let current_id = current.as_ref().map(|record| record.version.id);
    let (mut scheduled, mut history): (Vec<_>, Vec<_>) = records
        .into_iter()
        .filter(|record| Some(record.version.id) != current_id)
        .partition(|record| record.cancelled.is_none() && record.version.effective_from > at);
    scheduled.sort_by_key(|record| (record.version.effective_from, record.version.id));
    history.sort_by_key(|record| std::cmp::Reverse((record.version.effective_from, record.version.id)));
    TermsBook {
        current,
        scheduled,
        history,
    }
}

/// Of an operator's terms versions, the one in force at `at`: cancelled versions never
/// take effect, and the domain picks among the rest.
pub(crate) fn terms_in_force(records: Vec<TermsRecord>, at: OffsetDateTime) -> Option<TermsRecord> {
    let live: Vec<_> = records
        .into_iter()
        .filter(|record| record.cancelled.is_none())
        .collect();
    let versions: Vec<_> = live.iter().map(|record| record.version).collect();
    let in_force = in_force_at(&versions, at).map(|version| version.id);
    live.into_iter().find(|record| Some(record.version.id) == in_force)
}

/// The platform staff member named on a change: 1 to 200 characters.
pub(crate) fn staff_name(by: &str) -> Result<&str, AppError> {
    let by = by.trim();
    if (1..=200).contains(&by.chars().count()) {
        Ok(by)
    } else {
        Err(AppError::invalid(
            "by",
            "name the staff member making the change (1 to 200 characters)",
        ))
    }
}
