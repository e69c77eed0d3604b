//! `/api/operator/flight/terms/…`: the operator's flight terms versions, as platform staff
//! set and scheduled them: the version in force, the scheduled ones and the history
//! (superseded and cancelled versions). An operator has a handful, so each list is
//! answered whole.

use actix_web::{HttpResponse, web};
use opinion_access::RouteId;
use opinion_app::error::AppError;
use opinion_app::flight::model::TermsRecord;
use serde::Serialize;
use time::OffsetDateTime;
use utoipa::ToSchema;

use crate::http::auth::Caller;
use crate::http::error::ApiError;
use crate::http::problem_responses::NotFound;
use crate::operator::flight::dto::TermsSummaryBody;
use crate::state::ApiState;

/// One terms version.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TermsVersionBody {
    /// The version's terms and the instant it takes (or took) effect.
    #[serde(flatten)]
    pub terms: TermsSummaryBody,
    /// When platform staff created it (UTC).
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
    /// When it was cancelled before taking effect; null unless cancelled.
    #[serde(with = "time::serde::rfc3339::option")]
    pub cancelled_at: Option<OffsetDateTime>,
}

impl From<&TermsRecord> for TermsVersionBody {
    fn from(record: &TermsRecord) -> Self {
        Self {
            terms: TermsSummaryBody::from(record),
            created_at: record.created_at,
            cancelled_at: record.cancelled.as_ref().map(|cancellation| cancellation.at),
        }
    }
}

/// Terms versions, whole.
#[derive(Debug, Serialize, ToSchema)]
pub struct TermsVersionsBody {
    /// The versions, in the order the route names.
    pub data: Vec<TermsVersionBody>,
}

impl TermsVersionsBody {
    fn of(records: &[TermsRecord]) -> Self {
        Self {
            data: records.iter().map(TermsVersionBody::from).collect(),
        }
    }
}

/// The terms version in force now; 404 while the operator has none.
#[utoipa::path(
    get,
    path = RouteId::FlightTermsCurrent.spec().path,
    responses(
        (status = 200, description = "the version in force", body = TermsVersionBody),
        NotFound,
    ),
)]
pub async fn current(state: web::Data<ApiState>, caller: Caller) -> Result<HttpResponse, ApiError> {
    let book = state.flight.terms_book(caller.0.operator_id).await?;
    let current = book.current.ok_or(AppError::NotFound("flight terms in force"))?;
    Ok(HttpResponse::Ok().json(TermsVersionBody::from(&current)))
}

/// The versions scheduled to take effect later, soonest first.
#[utoipa::path(
    get,
    path = RouteId::FlightTermsScheduled.spec().path,
    responses((status = 200, description = "the scheduled versions, soonest first", body = TermsVersionsBody)),
)]
pub async fn scheduled(state: web::Data<ApiState>, caller: Caller) -> Result<HttpResponse, ApiError> {
    let book = state.flight.terms_book(caller.0.operator_id).await?;
    Ok(HttpResponse::Ok().json(TermsVersionsBody::of(&book.scheduled)))
}

/// Versions no longer in force and cancelled ones, newest first.
#[utoipa::path(
    get,
    path = RouteId::FlightTermsHistory.spec().path,
    responses((status = 200, description = "superseded and cancelled versions, newest first", body = TermsVersionsBody)),
)]
pub async fn history(state: web::Data<ApiState>, caller: Caller) -> Result<HttpResponse, ApiError> {
    let book = state.flight.terms_book(caller.0.operator_id).await?;
    Ok(HttpResponse::Ok().json(TermsVersionsBody::of(&book.history)))
}
