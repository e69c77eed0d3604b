//! `POST /api/operator/wallet-adapter/test`: the full-contract test of the configured
//! wallet adapter.

use actix_web::{HttpResponse, web};
use opinion_access::RouteId;
use opinion_app::wallet::WalletTestRequest;

use crate::http::auth::Caller;
use crate::http::error::ApiError;
use crate::http::extract::OptionalJson;
use crate::http::problem::{PROBLEM_JSON, Problem};
use crate::http::problem_responses::{InvalidRequest, PayloadTooLarge};
use crate::operator::wallet_adapter::wallet_test::dto::{WalletTestBody, WalletTestReportBody};
use crate::shared::minor_units::minor_units;
use crate::state::ApiState;

/// Runs the full-contract test against the configured adapter and answers its report.
///
/// Opinion's section runs first, then the flight product's in IDR; the run is kept with
/// its verdicts.
#[utoipa::path(
    post,
    path = RouteId::WalletAdapterTest.spec().path,
    request_body(content = WalletTestBody, description = "An empty body also does: every field has a default."),
    responses(
        (status = 200, description = "the report, failing checks included", body = WalletTestReportBody),
        InvalidRequest,
        (status = 409, description = "`wallet_adapter_not_configured`: configure the wallet adapter first", body = Problem, content_type = PROBLEM_JSON),
        PayloadTooLarge,
    ),
)]
pub async fn test(
    state: web::Data<ApiState>,
    caller: Caller,
    OptionalJson(body): OptionalJson<WalletTestBody>,
) -> Result<HttpResponse, ApiError> {
    let request = WalletTestRequest {
        external_user_id: body.external_user_id,
        amount: body
            .amount
            .as_deref()
            .map(|text| minor_units("amount", text))
            .transpose()?,
        flight_external_user_id: body.flight_external_user_id,
        flight_amount: body
            .flight_amount
            .as_deref()
            .map(|text| minor_units("flightAmount", text))
            .transpose()?,
    };
    let report = state.wallet_test.run(&caller.0, request).await?;
    Ok(HttpResponse::Ok().json(WalletTestReportBody::from(report)))
}
