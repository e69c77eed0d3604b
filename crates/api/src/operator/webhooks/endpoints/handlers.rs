//! `/api/operator/webhooks/endpoints`: register, list, change (rotate the secret), delete.

use actix_web::{HttpResponse, web};
use opinion_access::RouteId;
use opinion_app::error::AppError;
use opinion_app::webhooks::{NewWebhookEndpoint, WebhookEndpointChange};

use crate::http::auth::Caller;
use crate::http::error::ApiError;
use crate::http::extract::{Json, path_id};
use crate::http::problem::{PROBLEM_JSON, Problem};
use crate::http::problem_responses::{InvalidRequest, NotFound, PayloadTooLarge, UnsupportedMediaType};
use crate::operator::webhooks::endpoints::dto::{
    CreateWebhookEndpointBody, UpdateWebhookEndpointBody, WebhookEndpointBody, WebhookEndpointWithSecretBody,
};
use crate::shared::list::ListBody;
use crate::shared::page_query::PageQuery;
use crate::state::ApiState;

/// Lists the operator's endpoints, newest first.
#[utoipa::path(
    get,
    path = RouteId::WebhookEndpointsList.spec().path,
    params(PageQuery),
    responses(
        (status = 200, description = "one page of endpoints, newest first", body = ListBody<WebhookEndpointBody>),
        InvalidRequest,
    ),
)]
pub async fn list(
    state: web::Data<ApiState>,
    caller: Caller,
    query: web::Query<PageQuery>,
) -> Result<HttpResponse, ApiError> {
    let page = state.webhooks.list_endpoints(&caller.0, query.page()?).await?;
    Ok(HttpResponse::Ok().json(ListBody::from_page(page, WebhookEndpointBody::from)))
}

/// Registers an endpoint; a generated signing secret is in this response only.
#[utoipa::path(
    post,
    path = RouteId::WebhookEndpointCreate.spec().path,
    request_body = CreateWebhookEndpointBody,
    responses(
        (status = 201, description = "the endpoint, with its generated signing secret shown this once (none when the request supplied its own)", body = WebhookEndpointWithSecretBody),
        InvalidRequest,
        PayloadTooLarge,
        UnsupportedMediaType,
    ),
)]
pub async fn create(
    state: web::Data<ApiState>,
    caller: Caller,
    body: Json<CreateWebhookEndpointBody>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let request = NewWebhookEndpoint {
        url: body.url,
        event_types: body.event_types,
        enabled: body.enabled,
        description: body.description,
        rate_limit_per_minute: body.rate_limit_per_minute,
        max_attempts: body.max_attempts,
        timeout_seconds: body.timeout_seconds,
        secret: body.secret,
    };
    let created = state.webhooks.create_endpoint(&caller.0, request).await?;
    Ok(HttpResponse::Created().json(WebhookEndpointWithSecretBody::from(created)))
}

/// Changes an endpoint; with `rotateSecret: true` the new secret is in this response only.
#[utoipa::path(
    patch,
    path = RouteId::WebhookEndpointUpdate.spec().path,
    params(("id" = String, Path, description = "`whe_…`")),
    request_body = UpdateWebhookEndpointBody,
    responses(
        (status = 200, description = "the changed endpoint, with the new secret when rotating to a generated one", body = WebhookEndpointWithSecretBody),
        InvalidRequest,
        NotFound,
        (status = 409, description = "`webhook_endpoint_changed`: it changed while this request was applied; read it again and retry", body = Problem, content_type = PROBLEM_JSON),
        PayloadTooLarge,
        UnsupportedMediaType,
    ),
)]
pub async fn update(
    state: web::Data<ApiState>,
    caller: Caller,
    id: web::Path<String>,
    body: Json<UpdateWebhookEndpointBody>,
) -> Result<HttpResponse, ApiError> {
    let id = path_id(&id)?;
    let body = body.into_inner();
    let change = WebhookEndpointChange {
        url: body.url,
        event_types: body.event_types,
        enabled: body.enabled,
        description: body.description,
        rate_limit_per_minute: body.rate_limit_per_minute,
        max_attempts: not_cleared("maxAttempts", body.max_attempts)?,
        timeout_seconds: not_cleared("timeoutSeconds", body.timeout_seconds)?,
        rotate_secret: body.rotate_secret,
        secret: body.secret,
    };
    let changed = state.webhooks.update_endpoint(&caller.0, id, change).await?;
    Ok(HttpResponse::Ok().json(WebhookEndpointWithSecretBody::from(changed)))
}

/// A setting that a change may replace but not clear: `null` is refused naming it.
fn not_cleared(field: &'static str, value: Option<Option<i64>>) -> Result<Option<i64>, ApiError> {
    match value {
        Some(None) => Err(AppError::invalid(field, "cannot be cleared; send a number in its range").into()),
        Some(Some(value)) => Ok(Some(value)),
        None => Ok(None),
    }
}

/// Deletes an endpoint.
#[utoipa::path(
    delete,
    path = RouteId::WebhookEndpointDelete.spec().path,
    params(("id" = String, Path, description = "`whe_…`")),
    responses(
        (status = 204, description = "deleted"),
        InvalidRequest,
        NotFound,
    ),
)]
pub async fn delete(
    state: web::Data<ApiState>,
    caller: Caller,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let id = path_id(&id)?;
    state.webhooks.delete_endpoint(&caller.0, id).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// Deletes an endpoint, for clients that cannot send `DELETE`.
#[utoipa::path(
    post,
    path = RouteId::WebhookEndpointDeleteByPost.spec().path,
    params(("id" = String, Path, description = "`whe_…`")),
    responses(
        (status = 204, description = "deleted"),
        InvalidRequest,
        NotFound,
    ),
)]
pub async fn delete_by_post(
    state: web::Data<ApiState>,
    caller: Caller,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    delete(state, caller, id).await
}
