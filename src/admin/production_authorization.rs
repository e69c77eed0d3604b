//! `opinion admin flight authorize-production | revoke-production`, and the production
//! authorization part of `opinion admin flight status`: every record with who recorded
//! and revoked it (staff see names; operators never do).

use anyhow::Context;
use opinion_app::flight::{AuthorizationBook, FlightGame, NewProductionAuthorization};
use opinion_core::OperatorId;
use opinion_flight::{AuthorizationRequirement, AuthorizationState, AuthorizationStatus, ProductionAuthorization};
use serde_json::{Value, json};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use crate::admin::rfc3339;

/// Records a production authorization; prints it and the operator's status after it.
pub async fn authorize(
    flight: &FlightGame,
    operator: OperatorId,
    reference: String,
    expires_at: Option<String>,
    by: &str,
) -> anyhow::Result<Value> {
    let expires_at = expires_at
        .map(|text| OffsetDateTime::parse(&text, &Rfc3339))
        .transpose()
        .context("--expires-at must be an RFC 3339 instant, e.g. 2027-06-30T00:00:00Z")?;
    let new = NewProductionAuthorization { reference, expires_at };
    let recorded = flight.authorize_production(operator, &new, by).await?;
    let book = flight.production_authorization(operator).await?;
    Ok(json!({
        "authorization": record_json(&recorded, book.at),
        "productionAuthorization": status_json(&book),
    }))
}

/// Revokes every authorization of the operator in force now; prints how many and the
/// operator's status after it.
pub async fn revoke(flight: &FlightGame, operator: OperatorId, by: &str) -> anyhow::Result<Value> {
    let revoked = flight.revoke_production(operator, by).await?;
    let book = flight.production_authorization(operator).await?;
    Ok(json!({
        "revoked": revoked,
        "productionAuthorization": status_json(&book),
    }))
}

/// The operator's production authorization as staff read it.
pub async fn status(flight: &FlightGame, operator: OperatorId) -> anyhow::Result<Value> {
    Ok(status_json(&flight.production_authorization(operator).await?))
}

fn status_json(book: &AuthorizationBook) -> Value {
    let status = book.status();
    let (state, current) = match status {
        AuthorizationStatus::NotRequired => ("not_required", None),
        AuthorizationStatus::Authorized(record) => ("authorized", Some(record)),
        AuthorizationStatus::Missing(_) => ("missing", None),
    };
    json!({
        "required": book.requirement == AuthorizationRequirement::Required,
        "authorized": status.allows(),
        "state": state,
        "currentAuthorizationId": current.map(|record| record.id),
        "records": book.records.iter().rev().map(|record| record_json(record, book.at)).collect::<Vec<_>>(),
    })
}

fn record_json(record: &ProductionAuthorization, at: OffsetDateTime) -> Value {
    let state = match record.state_at(at) {
        AuthorizationState::NotYetRecorded => "not_yet_recorded",
        AuthorizationState::Valid => "valid",
        AuthorizationState::Revoked => "revoked",
        AuthorizationState::Expired => "expired",
    };
    json!({
        "authorizationId": record.id,
        "reference": record.reference.as_str(),
        "recordedAt": rfc3339(record.recorded_at),
        "recordedBy": record.recorded_by,
        "expiresAt": record.expires_at.map(rfc3339),
        "revokedAt": record.revocation.as_ref().map(|revocation| rfc3339(revocation.at)),
        "revokedBy": record.revocation.as_ref().map(|revocation| revocation.by.clone()),
        "state": state,
    })
}
