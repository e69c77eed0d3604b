//! `/api/operator/webhooks/deliveries`: the delivery log and replays.

use std::fmt::Display;
use std::str::FromStr;

use actix_web::{HttpResponse, web};
use opinion_access::RouteId;
use opinion_app::error::AppError;
use opinion_app::model::DeliveryFilter;
use opinion_core::PageRequest;
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use crate::http::auth::Caller;
use crate::http::error::ApiError;
use crate::http::extract::path_id;
use crate::http::problem::{PROBLEM_JSON, Problem};
use crate::http::problem_responses::{InvalidRequest, NotFound};
use crate::operator::webhooks::deliveries::dto::{DeliveryQuery, WebhookDeliveryBody};
use crate::shared::list::ListBody;
use crate::shared::page_query::PageQuery;
use crate::state::ApiState;

/// A query parameter parsed by its type, or a 400 naming it.
fn parsed<T: FromStr>(field: &'static str, text: Option<&str>) -> Result<Option<T>, ApiError>
where
    T::Err: Display,
{
    text.map(|text| text.parse().map_err(|e| AppError::invalid(field, e).into()))
        .transpose()
}

/// A query parameter holding an RFC 3339 time, or a 400 naming it.
fn time_of(field: &'static str, text: Option<&str>) -> Result<Option<OffsetDateTime>, ApiError> {
    text.map(|text| {
        OffsetDateTime::parse(text, &Rfc3339).map_err(|_| AppError::invalid(field, "must be an RFC 3339 time").into())
    })
    .transpose()
}

/// The delivery log's filters, each refusal naming its parameter.
pub(crate) fn filter_of(query: &DeliveryQuery) -> Result<DeliveryFilter, ApiError> {
    Ok(DeliveryFilter {
        endpoint_id: parsed("endpointId", query.endpoint_id.as_deref())?,
        event_type: parsed("eventType", query.event_type.as_deref())?,
        status: parsed("status", query.status.as_deref())?,
        created_from: time_of("createdFrom", query.created_from.as_deref())?,
        created_before: time_of("createdBefore", query.created_before.as_deref())?,
        event_types: None,
    })
}

/// Lists deliveries with their attempts, newest first, filtered.
#[utoipa::path(
    get,
    path = RouteId::WebhookDeliveriesList.spec().path,
    params(DeliveryQuery),
    responses(
        (status = 200, description = "one page of deliveries with their attempts, newest first", body = ListBody<WebhookDeliveryBody>),
        InvalidRequest,
    ),
)]
pub async fn list(
    state: web::Data<ApiState>,
    caller: Caller,
    query: web::Query<DeliveryQuery>,
) -> Result<HttpResponse, ApiError> {
    let filter = filter_of(&query)?;
    let page: PageRequest<_> = PageQuery {
        limit: query.limit,
        cursor: query.cursor.clone(),
    }
    .page()?;
    let page = state.webhooks.list_deliveries(&caller.0, filter, page).await?;
    Ok(HttpResponse::Ok().json(ListBody::from_page(page, WebhookDeliveryBody::from)))
}

/// Sends a delivery again now as a manual attempt of the same event (never a new one)
/// and returns it with the attempt; a dead letter is replayed like any other delivery.
#[utoipa::path(
    post,
    path = RouteId::WebhookDeliveryReplay.spec().path,
    params(("id" = String, Path, description = "`whd_…`")),
    responses(
        (status = 200, description = "the delivery with the new attempt", body = WebhookDeliveryBody),
        InvalidRequest,
        NotFound,
        (status = 409, description = "`webhook_endpoint_disabled`: the delivery's endpoint is disabled or deleted", body = Problem, content_type = PROBLEM_JSON),
        (status = 429, description = "`rate_limited`: the endpoint's rate limit allows no attempt now", body = Problem, content_type = PROBLEM_JSON, headers(("Retry-After" = u64, description = "Seconds until an attempt is allowed."))),
    ),
)]
pub async fn replay(
    state: web::Data<ApiState>,
    caller: Caller,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let id = path_id(&id)?;
    let delivery = state.webhooks.replay_delivery(&caller.0, id).await?;
    Ok(HttpResponse::Ok().json(WebhookDeliveryBody::from(delivery)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filters_name_the_bad_field() {
        let cases = [
            (
                DeliveryQuery {
                    endpoint_id: Some("whd_01jdz3qv6mz8x5c0a2t5d4e7f9".into()),
                    ..DeliveryQuery::default()
                },
                "endpointId",
            ),
            (
                DeliveryQuery {
                    event_type: Some("trade.*".into()),
                    ..DeliveryQuery::default()
                },
                "eventType",
            ),
            (
                DeliveryQuery {
                    status: Some("sent".into()),
                    ..DeliveryQuery::default()
                },
                "status",
            ),
            (
                DeliveryQuery {
                    created_from: Some("yesterday".into()),
                    ..DeliveryQuery::default()
                },
                "createdFrom",
            ),
        ];
        for (query, field) in cases {
            let error = filter_of(&query).expect_err("refused");
            assert!(
                matches!(&error, ApiError::App(AppError::Invalid { field: f, .. }) if *f == field),
                "{error:?}"
            );
        }
    }
}
