//! `/api/operator/api-keys`: create, list, revoke.

use actix_web::{HttpResponse, web};
use opinion_access::RouteId;
use opinion_app::access::NewApiKey;

use crate::http::auth::Caller;
use crate::http::error::ApiError;
use crate::http::extract::{Json, path_id};
use crate::http::problem_responses::{
    InvalidRequest, NotFound, PayloadTooLarge, ScopeEscalation, UnsupportedMediaType,
};
use crate::operator::api_keys::dto::{ApiKeyBody, CreateApiKeyBody, CreatedApiKeyBody};
use crate::shared::list::ListBody;
use crate::shared::page_query::PageQuery;
use crate::state::ApiState;

/// Lists the operator's API keys, newest first.
#[utoipa::path(
    get,
    path = RouteId::ApiKeysList.spec().path,
    params(PageQuery),
    responses(
        (status = 200, description = "one page of keys, newest first", body = ListBody<ApiKeyBody>),
        InvalidRequest,
    ),
)]
pub async fn list(
    state: web::Data<ApiState>,
    caller: Caller,
    query: web::Query<PageQuery>,
) -> Result<HttpResponse, ApiError> {
    let page = state.access.list_api_keys(&caller.0, query.page()?).await?;
    Ok(HttpResponse::Ok().json(ListBody::from_page(page, ApiKeyBody::from)))
}

/// Creates a key; its secret is in this response only.
#[utoipa::path(
    post,
    path = RouteId::ApiKeyCreate.spec().path,
    request_body = CreateApiKeyBody,
    responses(
        (status = 201, description = "the key, with its secret shown this once", body = CreatedApiKeyBody),
        InvalidRequest,
        ScopeEscalation,
        PayloadTooLarge,
        UnsupportedMediaType,
    ),
)]
pub async fn create(
    state: web::Data<ApiState>,
    caller: Caller,
    body: Json<CreateApiKeyBody>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let request = NewApiKey {
        name: body.name,
        scopes: body.scopes,
        expires_at: body.expires_at,
    };
    let created = state.access.create_api_key(&caller.0, request).await?;
    Ok(HttpResponse::Created().json(CreatedApiKeyBody::from(created)))
}

/// Revokes a key at once, on every instance.
#[utoipa::path(
    post,
    path = RouteId::ApiKeyRevoke.spec().path,
    params(("id" = String, Path, description = "`key_…`")),
    responses(
        (status = 200, description = "the revoked key", body = ApiKeyBody),
        InvalidRequest,
        NotFound,
    ),
)]
pub async fn revoke(
    state: web::Data<ApiState>,
    caller: Caller,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let id = path_id(&id)?;
    let record = state.access.revoke_api_key(&caller.0, id).await?;
    Ok(HttpResponse::Ok().json(ApiKeyBody::from(record)))
}
