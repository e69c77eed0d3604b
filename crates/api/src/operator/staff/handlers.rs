//! `/api/operator/staff`: dashboard staff management (staff sessions only).

use actix_web::{HttpResponse, web};
use opinion_app::access::{NewStaff, StaffChange};

use crate::http::auth::Caller;
use crate::http::error::ApiError;
use crate::http::extract::{optional_json, path_id};
use crate::operator::staff::dto::{
    CreateStaffBody, ResetPasswordBody, StaffBody, StaffWithPasswordBody, UpdateStaffBody,
};
use crate::shared::list::ListBody;
use crate::shared::page_query::PageQuery;
use crate::state::ApiState;

/// Lists the operator's staff, newest first.
pub async fn list(
    state: web::Data<ApiState>,
    caller: Caller,
    query: web::Query<PageQuery>,
) -> Result<HttpResponse, ApiError> {
    let page = state.access.list_staff(&caller.0, query.page()?).await?;
    Ok(HttpResponse::Ok().json(ListBody::from_page(page, StaffBody::from)))
}

/// Adds a member.
pub async fn create(
    state: web::Data<ApiState>,
    caller: Caller,
    body: web::Json<CreateStaffBody>,
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
pub async fn update(
    state: web::Data<ApiState>,
    caller: Caller,
    id: web::Path<String>,
    body: web::Json<UpdateStaffBody>,
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
pub async fn reset_password(
    state: web::Data<ApiState>,
    caller: Caller,
    id: web::Path<String>,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let id = path_id(&id)?;
    let body: ResetPasswordBody = optional_json(&body)?;
    let reset = state.access.reset_staff_password(&caller.0, id, body.password).await?;
    Ok(HttpResponse::Ok().json(StaffWithPasswordBody::from(reset)))
}
