//! Manual review, the part every product shares: what staff found in the operator's
//! wallet log, checked, and the operation resolved by it (its record, its stored update
//! with who resolved it and why, and `mini_app.wallet_operation.manual_review_resolved`).
//! What the finding means for the business record (a trade, a redemption, a ticket)
//! stays with the product that owns the operation.

use opinion_core::{EventId, Label, WalletOperationId};
use opinion_wallet::{OperationState, RemoteReference, StaffResolution, WalletLogFinding};
use time::OffsetDateTime;

use crate::error::{AppError, ProblemCode};
use crate::model::{NewEvent, WalletOperationRecord};
use crate::opinion::trading::ports::OperationUpdate;
use crate::opinion::trading::wallet_call::{operation_update, restored};
use crate::wallet::review_event::manual_review_resolved;

/// What staff found in the wallet's log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReviewFinding {
    /// The mutation was applied, under the wallet's reference.
    Applied {
        /// The wallet's reference of the mutation.
        remote_reference: String,
    },
    /// The mutation was not applied.
    NotApplied,
}

/// A staff resolution of one operation under review.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReviewDecision {
    pub operation_id: WalletOperationId,
    /// What the wallet's log shows.
    pub finding: ReviewFinding,
    /// Who resolved it.
    pub resolved_by: String,
    /// What the wallet's log shows, in words (kept with the operation).
    pub note: String,
}

/// An operation resolved by staff, ready to be stored with its product's consequence.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ReviewedOperation {
    /// The operation afterwards.
    pub resolved: WalletOperationRecord,
    /// Its update, from `manual_review`, with the resolution.
    pub update: OperationUpdate,
    /// Whether staff found the mutation applied.
    pub applied: bool,
    /// `mini_app.wallet_operation.manual_review_resolved`.
    pub event: NewEvent,
}

impl ReviewedOperation {
    /// `applied` or `not_applied`, as the event and the log name the finding.
    pub(crate) fn word(&self) -> &'static str {
        if self.applied { "applied" } else { "not_applied" }
    }
}

/// Resolves `record` by `decision` at `now`; refused (`not_in_review`) unless the
/// operation waits for staff, and when the decision's fields are not valid.
pub(crate) fn review_operation(
    record: &WalletOperationRecord,
    decision: &ReviewDecision,
    event_id: EventId,
    now: OffsetDateTime,
) -> Result<ReviewedOperation, AppError> {
    let resolution = staff_resolution(decision)?;
    let state = restored(record)
        .resolve(&resolution)
        .map_err(|e| AppError::Conflict {
            code: ProblemCode::NotInReview,
            detail: e.to_string(),
        })?
        .state();
    let mut resolved = record.clone();
    resolved.state = state;
    resolved.resolved_at = Some(now);
    resolved.detail = Some(resolution.note.as_str().to_owned());
    if let WalletLogFinding::Applied { remote_reference } = &resolution.finding {
        resolved.remote_reference = Some(remote_reference.as_str().to_owned());
    }
    let mut update = operation_update(record.state, resolved.clone(), now);
    update.resolution = Some((
        resolution.resolved_by.as_str().to_owned(),
        resolution.note.as_str().to_owned(),
    ));
    let applied = state == OperationState::ResolvedApplied;
    let word = if applied { "applied" } else { "not_applied" };
    let event = manual_review_resolved(event_id, &resolved, word, now);
    Ok(ReviewedOperation {
        resolved,
        update,
        applied,
        event,
    })
}

fn staff_resolution(decision: &ReviewDecision) -> Result<StaffResolution, AppError> {
    let finding = match &decision.finding {
        ReviewFinding::Applied { remote_reference } => WalletLogFinding::Applied {
            remote_reference: RemoteReference::parse(remote_reference)
                .map_err(|e| AppError::invalid("remote_reference", e))?,
        },
        ReviewFinding::NotApplied => WalletLogFinding::NotApplied,
    };
    Ok(StaffResolution {
        resolved_by: Label::parse(&decision.resolved_by).map_err(|e| AppError::invalid("by", e))?,
        finding,
        note: Label::parse(&decision.note).map_err(|e| AppError::invalid("note", e))?,
    })
}
