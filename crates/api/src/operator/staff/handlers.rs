//! `/api/operator/staff`: dashboard staff management (staff sessions only).

use actix_web::{HttpRequest, HttpResponse, web};
use opinion_access::RouteId;
use opinion_app::access::{NewStaff, OwnPasswordChange, StaffChange};

use crate::http::auth::Caller;
use crate::http::client::request_client;
use crate::http::error::ApiError;
use crate::http::extract::{Json, OptionalJson, path_id};
use crate::http::problem::{PROBLEM_JSON, Problem};
use crate::http::problem_responses::{
    InvalidRequest, NotFound, PayloadTooLarge, ScopeEscalation, UnsupportedMediaType,
};
use crate::operator::staff::dto::{
    CreateStaffBody, OwnPasswordBody, ResetPasswordBody, StaffBody, StaffWithPasswordBody, UpdateStaffBody,
};
use crate::shared::list::ListBody;
use crate::shared::page_query::PageQuery;
use crate::state::ApiState;

/// Lists the operator's staff, newest first.
#[utoipa::path(
    get,
    path = RouteId::StaffList.spec().path,
    params(PageQuery),
    responses(
        (status = 200, description = "one page of members, newest first", body = ListBody<StaffBody>),
        InvalidRequest,
    ),
)]
pub async fn list(
    state: web::Data<ApiState>,
    caller: Caller,
    query: web::Query<PageQuery>,
) -> Result<HttpResponse, ApiError> {
    let page = state.access.list_staff(&caller.0, query.page()?).await?;
    Ok(HttpResponse::Ok().json(ListBody::from_page(page, StaffBody::from)))
}

/// Adds a member.
#[utoipa::path(
    post,
    path = RouteId::StaffCreate.spec().path,
    request_body = CreateStaffBody,
    responses(
        (status = 201, description = "the member, with the password when the service chose it", body = StaffWithPasswordBody),
        InvalidRequest,
        ScopeEscalation,
        (status = 409, description = "`staff_email_taken`: a member with this e-mail address exists", body = Problem, content_type = PROBLEM_JSON),
        PayloadTooLarge,
        UnsupportedMediaType,
    ),
)]
pub async fn create(
    state: web::Data<ApiState>,
    caller: Caller,
    body: Json<CreateStaffBody>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let request = NewStaff {
        email: body.email,
        name: body.name,
        scopes: body.scopes,
        password: body.password,
    };
    let created = state.access.create_staff(&caller.0, request).await?;
    Ok(HttpResponse::Created().json(StaffWithPasswordBody::from(created)))
}

/// Changes a member's name, scopes or status.
#[utoipa::path(
    patch,
    path = RouteId::StaffUpdate.spec().path,
    params(("id" = String, Path, description = "`stf_…`")),
    request_body = UpdateStaffBody,
    responses(
        (status = 200, description = "the changed member", body = StaffBody),
        InvalidRequest,
        ScopeEscalation,
        NotFound,
        PayloadTooLarge,
        UnsupportedMediaType,
    ),
)]
pub async fn update(
    state: web::Data<ApiState>,
    caller: Caller,
    id: web::Path<String>,
    body: Json<UpdateStaffBody>,
) -> Result<HttpResponse, ApiError> {
    let id = path_id(&id)?;
    let body = body.into_inner();
    let change = StaffChange {
        name: body.name,
        scopes: body.scopes,
        disabled: body.disabled,
    };
    let member = state.access.update_staff(&caller.0, id, change).await?;
    Ok(HttpResponse::Ok().json(StaffBody::from(member)))
}

/// Sets a new password and ends the member's sessions.
#[utoipa::path(
    post,
    path = RouteId::StaffPasswordReset.spec().path,
    params(("id" = String, Path, description = "`stf_…`")),
    request_body(content = ResetPasswordBody, description = "An empty body also does: the service then generates the password."),
    responses(
        (status = 200, description = "the member, with the password when the service chose it", body = StaffWithPasswordBody),
        InvalidRequest,
        NotFound,
        PayloadTooLarge,
    ),
)]
pub async fn reset_password(
    state: web::Data<ApiState>,
    caller: Caller,
    id: web::Path<String>,
    OptionalJson(body): OptionalJson<ResetPasswordBody>,
) -> Result<HttpResponse, ApiError> {
    let id = path_id(&id)?;
    let reset = state.access.reset_staff_password(&caller.0, id, body.password).await?;
    Ok(HttpResponse::Ok().json(StaffWithPasswordBody::from(reset)))
}

/// Changes the signed-in member's own password. The current password is required and
/// counts against the login throttle; every other session of the member ends, the one
/// the change is made in stays.
#[utoipa::path(
    post,
    path = RouteId::StaffOwnPasswordChange.spec().path,
    request_body = OwnPasswordBody,
    responses(
        (status = 204, description = "the password is changed; the member's other sessions have ended"),
        InvalidRequest,
        (status = 403, description = "`current_password_wrong`: the current password is wrong (the attempt counts against the login throttle); `staff_session_required` for an API key", body = Problem, content_type = PROBLEM_JSON),
        PayloadTooLarge,
        UnsupportedMediaType,
        (status = 429, description = "`rate_limited`: too many password attempts for this member or from this address (nothing was checked), or the operator's request rate limit", body = Problem, content_type = PROBLEM_JSON, headers(("Retry-After" = u64, description = "Seconds until an attempt is allowed."))),
    ),
)]
pub async fn change_own_password(
    state: web::Data<ApiState>,
    caller: Caller,
    request: HttpRequest,
    body: Json<OwnPasswordBody>,
) -> Result<HttpResponse, ApiError> {
    let address = request_client(&request, &state.trusted_proxies).address;
    let body = body.into_inner();
    let change = OwnPasswordChange {
        current_password: body.current_password,
        new_password: body.new_password,
    };
    state.access.change_own_password(&caller.0, change, address).await?;
    Ok(HttpResponse::NoContent().finish())
}
