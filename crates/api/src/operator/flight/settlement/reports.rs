//! The operator's settlement reports: a keyset page newest period first, and one report
//! addressed by its `fsr_…` id (finalized) or its period's label (`2026-10`, open or
//! finalized).

use actix_web::{HttpResponse, web};
use opinion_access::RouteId;
use opinion_app::error::ProblemCode;
use opinion_app::flight::office::{PERIOD, ReportAddress};

use crate::http::auth::Caller;
use crate::http::error::ApiError;
use crate::http::problem_responses::{InvalidRequest, NotFound};
use crate::operator::flight::settlement::dto::{ReportsParams, SettlementReportBody, SettlementReportDetailBody};
use crate::shared::list::ListBody;
use crate::state::ApiState;

/// The report a path names: a period label or a report id.
pub fn address_of(text: &str) -> Result<ReportAddress, ApiError> {
    if let Ok(start) = PERIOD.parse_label(text) {
        return Ok(ReportAddress::Period(start));
    }
    text.parse().map(ReportAddress::Id).map_err(|_| {
        ApiError::bad_request(
            ProblemCode::InvalidId,
            format!("`{text}` is neither a settlement report id (`fsr_…`) nor a period (`YYYY-MM`)"),
        )
    })
}

/// Lists the operator's settlement reports, newest period first: finalized ones and an
/// open one for every other period in which it sold a ticket.
#[utoipa::path(
    get,
    path = RouteId::FlightSettlementReportsList.spec().path,
    params(ReportsParams),
    responses(
        (status = 200, description = "one page of reports, newest period first", body = ListBody<SettlementReportBody>),
        InvalidRequest,
    ),
)]
pub async fn list(
    state: web::Data<ApiState>,
    caller: Caller,
    query: web::Query<ReportsParams>,
) -> Result<HttpResponse, ApiError> {
    let page = query.page_query().page()?;
    let reports = state.office.list_reports(caller.0.operator_id, page).await?;
    Ok(HttpResponse::Ok().json(ListBody::from_page(reports, |report| {
        SettlementReportBody::from(&report)
    })))
}

/// One settlement report: finalized with its signed statement, or open with its totals so
/// far and what keeps it from being finalized.
#[utoipa::path(
    get,
    path = RouteId::FlightSettlementReportGet.spec().path,
    params(("id" = String, Path, description = "`fsr_…`, or the period `YYYY-MM`")),
    responses(
        (status = 200, description = "the report", body = SettlementReportDetailBody),
        InvalidRequest,
        NotFound,
    ),
)]
pub async fn get(state: web::Data<ApiState>, caller: Caller, id: web::Path<String>) -> Result<HttpResponse, ApiError> {
    let report = state.office.report(caller.0.operator_id, address_of(&id)?).await?;
    Ok(HttpResponse::Ok().json(SettlementReportDetailBody::from(&report)))
}
