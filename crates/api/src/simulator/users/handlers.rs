//! `/api/operator/simulator/users`: simulated users (development and staging only;
//! production answers 404, see `simulator_gate`).

use actix_web::{HttpResponse, web};
use opinion_access::RouteId;
use opinion_app::simulator::{NewSimulatedUser, SimulatedUserChange};

use crate::http::auth::Caller;
use crate::http::error::ApiError;
use crate::http::extract::{Json, path_id};
use crate::http::problem::{PROBLEM_JSON, Problem};
use crate::http::problem_responses::{
    InvalidRequest, NoSimulator, PayloadTooLarge, SimulatorNotFound, UnsupportedMediaType,
};
use crate::shared::list::ListBody;
use crate::shared::minor_units::minor_units;
use crate::shared::page_query::PageQuery;
use crate::simulator::available::simulator;
use crate::simulator::users::dto::{CreateSimulatedUserBody, SimulatedUserBody, UpdateSimulatedUserBody};
use crate::state::ApiState;

/// Lists the operator's simulated users, newest first.
#[utoipa::path(
    get,
    path = RouteId::SimulatorUsersList.spec().path,
    params(PageQuery),
    responses(
        (status = 200, description = "one page of simulated users, newest first", body = ListBody<SimulatedUserBody>),
        InvalidRequest,
        NoSimulator,
    ),
)]
pub async fn list(
    state: web::Data<ApiState>,
    caller: Caller,
    query: web::Query<PageQuery>,
) -> Result<HttpResponse, ApiError> {
    let page = simulator(&state)?.list_users(&caller.0, query.page()?).await?;
    Ok(HttpResponse::Ok().json(ListBody::from_page(page, SimulatedUserBody::from)))
}

/// Creates a simulated user and its wallet.
#[utoipa::path(
    post,
    path = RouteId::SimulatorUserCreate.spec().path,
    request_body = CreateSimulatedUserBody,
    responses(
        (status = 201, description = "the simulated user, its wallet funded", body = SimulatedUserBody),
        InvalidRequest,
        NoSimulator,
        (status = 409, description = "`simulated_user_exists`: a simulated user with this id exists", body = Problem, content_type = PROBLEM_JSON),
        PayloadTooLarge,
        UnsupportedMediaType,
    ),
)]
pub async fn create(
    state: web::Data<ApiState>,
    caller: Caller,
    body: Json<CreateSimulatedUserBody>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let new = NewSimulatedUser {
        external_user_id: body.external_user_id,
        display_name: body.display_name,
        currency: body.currency,
        starting_balance: body
            .starting_balance
            .as_deref()
            .map(|text| minor_units("startingBalance", text))
            .transpose()?,
    };
    let user = simulator(&state)?.create_user(&caller.0, new).await?;
    Ok(HttpResponse::Created().json(SimulatedUserBody::from(user)))
}

/// One simulated user.
#[utoipa::path(
    get,
    path = RouteId::SimulatorUserGet.spec().path,
    params(("id" = String, Path, description = "`smu_…`")),
    responses(
        (status = 200, description = "the simulated user", body = SimulatedUserBody),
        InvalidRequest,
        SimulatorNotFound,
    ),
)]
pub async fn get(state: web::Data<ApiState>, caller: Caller, id: web::Path<String>) -> Result<HttpResponse, ApiError> {
    let user = simulator(&state)?.user(&caller.0, path_id(&id)?).await?;
    Ok(HttpResponse::Ok().json(SimulatedUserBody::from(user)))
}

/// Changes a simulated user's display name or disables it.
#[utoipa::path(
    patch,
    path = RouteId::SimulatorUserUpdate.spec().path,
    params(("id" = String, Path, description = "`smu_…`")),
    request_body = UpdateSimulatedUserBody,
    responses(
        (status = 200, description = "the changed simulated user", body = SimulatedUserBody),
        InvalidRequest,
        SimulatorNotFound,
        PayloadTooLarge,
        UnsupportedMediaType,
    ),
)]
pub async fn update(
    state: web::Data<ApiState>,
    caller: Caller,
    id: web::Path<String>,
    body: Json<UpdateSimulatedUserBody>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let change = SimulatedUserChange {
        display_name: body.display_name,
        disabled: body.disabled,
    };
    let user = simulator(&state)?.update_user(&caller.0, path_id(&id)?, change).await?;
    Ok(HttpResponse::Ok().json(SimulatedUserBody::from(user)))
}
