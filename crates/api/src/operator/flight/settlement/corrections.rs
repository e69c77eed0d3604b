//! `GET /api/operator/flight/statement-corrections`: the operator's statement corrections,
//! newest first, each with its signed document (verified like a statement); `reportId`
//! keeps one report's.

use actix_web::{HttpResponse, web};
use opinion_access::RouteId;
use opinion_app::flight::office::model::Correction;
use opinion_statement::SignedDocument;
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use utoipa::{IntoParams, ToSchema};

use crate::http::auth::Caller;
use crate::http::error::ApiError;
use crate::http::problem_responses::InvalidRequest;
use crate::operator::flight::settlement::dto::IDR;
use crate::shared::list::ListBody;
use crate::shared::page_query::page_of;
use crate::state::ApiState;

/// One signed correction of a finalized report's statement.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CorrectionBody {
    /// `fsc_…`.
    pub id: String,
    /// The corrected report (`fsr_…`).
    pub report_id: String,
    /// The hash of the statement it amends.
    pub statement_hash: String,
    /// The change of what the operator owes the platform, signed whole rupiah (negative:
    /// it owes less, or the platform owes it more).
    pub amount_change: String,
    /// Always `IDR`.
    pub currency: &'static str,
    /// Why.
    pub reason: String,
    /// Its place in the operator's chain of signed documents.
    pub sequence: u64,
    /// The SHA-256 of its signed document's canonical bytes.
    pub document_hash: String,
    /// When it was issued.
    #[serde(with = "time::serde::rfc3339")]
    pub issued_at: OffsetDateTime,
    /// The signed document, `{"document": {...}, "signature": {...}}`: the amounts before
    /// and after it, and its link in the chain.
    #[schema(value_type = Object)]
    pub document: SignedDocument,
}

impl From<Correction> for CorrectionBody {
    fn from(correction: Correction) -> Self {
        Self {
            id: correction.id.to_string(),
            report_id: correction.report_id.to_string(),
            statement_hash: correction.statement_hash.to_string(),
            amount_change: correction.amount_change.to_string(),
            currency: IDR,
            reason: correction.reason,
            sequence: correction.document.sequence,
            document_hash: correction.document.hash.to_string(),
            issued_at: correction.issued_at,
            document: correction.document.signed,
        }
    }
}

/// The corrections list's query.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct CorrectionsParams {
    /// Only this report's (`fsr_…`).
    pub report_id: Option<String>,
    /// Items per page, 1 to 200 (default 50).
    pub limit: Option<u32>,
    /// The `nextCursor` of the previous page.
    pub cursor: Option<String>,
}

page_of!(CorrectionsParams);

/// Lists the operator's statement corrections, newest first.
#[utoipa::path(
    get,
    path = RouteId::FlightStatementCorrectionsList.spec().path,
    params(CorrectionsParams),
    responses(
        (status = 200, description = "one page of corrections, newest first", body = ListBody<CorrectionBody>),
        InvalidRequest,
    ),
)]
pub async fn list(
    state: web::Data<ApiState>,
    caller: Caller,
    query: web::Query<CorrectionsParams>,
) -> Result<HttpResponse, ApiError> {
    let page = query.page_query().page()?;
    let corrections = state
        .office
        .list_corrections(caller.0.operator_id, query.report_id.as_deref(), page)
        .await?;
    Ok(HttpResponse::Ok().json(ListBody::from_page(corrections, CorrectionBody::from)))
}
