//! The webhook delivery log: the API's filters and keyset pages, each delivery with every
//! attempt (when, how long, what was sent: the URL and signed headers; the receiver's
//! status and the start of its answer, or why it failed), a delivery's own page with the
//! body its attempts send, and a replay. Mirrors `/api/operator/webhooks/deliveries` and calls the same
//! use cases, through the API's own reading of the filters.

use actix_web::http::StatusCode;
use actix_web::web::Bytes;
use actix_web::{HttpResponse, web};
use maud::{Markup, html};
use opinion_access::RouteId;
use opinion_app::model::{AttemptRequest, DeliveryDetail, DeliveryRecord};
use opinion_core::{Page, WebhookDeliveryKind};
use opinion_webhook::{DeliveryStatus, EventType};
use serde::Deserialize;

use crate::dashboard::error::DashboardError;
use crate::dashboard::form::{FormData, FormView, token_field};
use crate::dashboard::format::{at, maybe_at};
use crate::dashboard::layout::document;
use crate::dashboard::page::{html as respond, see_other};
use crate::dashboard::paging::{Cursor, pager};
use crate::dashboard::session::SignedIn;
use crate::http::extract::path_id;
use crate::operator::webhooks::deliveries::dto::DeliveryQuery;
use crate::operator::webhooks::deliveries::handlers::filter_of;
use crate::state::ApiState;

const PATH: &str = "/dashboard/deliveries";

/// The log's filters as the filter form sends them (dates as days, UTC).
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LogQuery {
    endpoint_id: Option<String>,
    event_type: Option<String>,
    status: Option<String>,
    created_from: Option<String>,
    created_before: Option<String>,
    cursor: Option<String>,
    replayed: Option<String>,
}

fn blank_is_none(value: &Option<String>) -> Option<String> {
    value.clone().filter(|text| !text.trim().is_empty())
}

/// A day from the date field as the start of that day in UTC; anything else as typed, so
/// the API's reading refuses it by name.
fn day_start(value: &Option<String>) -> Option<String> {
    blank_is_none(value).map(|text| {
        if text.len() == 10 {
            format!("{text}T00:00:00Z")
        } else {
            text
        }
    })
}

impl LogQuery {
    fn api_query(&self) -> DeliveryQuery {
        DeliveryQuery {
            endpoint_id: blank_is_none(&self.endpoint_id),
            event_type: blank_is_none(&self.event_type),
            status: blank_is_none(&self.status),
            created_from: day_start(&self.created_from),
            created_before: day_start(&self.created_before),
            limit: None,
            cursor: None,
        }
    }

    fn pairs(&self) -> Vec<(&'static str, String)> {
        [
            ("endpointId", &self.endpoint_id),
            ("eventType", &self.event_type),
            ("status", &self.status),
            ("createdFrom", &self.created_from),
            ("createdBefore", &self.created_before),
        ]
        .into_iter()
        .map(|(name, value)| (name, value.clone().unwrap_or_default()))
        .collect()
    }
}

fn filters(query: &LogQuery, view: &FormView) -> Markup {
    let events: Vec<(&str, &str)> = std::iter::once(("", "Any event"))
        .chain(EventType::ALL.iter().map(|e| (e.as_str(), e.as_str())))
        .collect();
    let statuses: Vec<(&str, &str)> = std::iter::once(("", "Any status"))
        .chain(DeliveryStatus::ALL.iter().map(|s| (s.as_str(), s.as_str())))
        .collect();
    html! {
        form.filters method="get" action=(PATH) {
            (view.input("endpointId", "Endpoint (whe_…)", "text", query.endpoint_id.as_deref().unwrap_or(""), None))
            (view.select("eventType", "Event type", &events, query.event_type.as_deref().unwrap_or("")))
            (view.select("status", "Status", &statuses, query.status.as_deref().unwrap_or("")))
            (view.input("createdFrom", "From (UTC day)", "date", query.created_from.as_deref().unwrap_or(""), None))
            (view.input("createdBefore", "Before (UTC day)", "date", query.created_before.as_deref().unwrap_or(""), None))
            button type="submit" { "Filter" }
            " " a href=(PATH) { "Clear" }
        }
    }
}

fn status_badge(status: DeliveryStatus) -> Markup {
    let class = match status {
        DeliveryStatus::Delivered => "good",
        DeliveryStatus::Pending => "warn",
        _ => "bad",
    };
    html! { span class=(format!("badge {class}")) { (status.as_str()) } }
}

fn request_of(request: Option<&AttemptRequest>) -> Markup {
    html! {
        @if let Some(request) = request {
            code { "POST " (request.url) } br;
            span.muted { "webhook-id " } code { (request.headers.webhook_id) } br;
            span.muted { "webhook-timestamp " } code { (request.headers.webhook_timestamp) } br;
            span.muted { "webhook-signature " } code { (request.headers.webhook_signature) }
        } @else {
            span.muted { "—" }
        }
    }
}

fn attempts(delivery: &DeliveryRecord) -> Markup {
    html! {
        @if delivery.attempts.is_empty() {
            p.empty { "No attempt yet." }
        } @else {
            div.scroll {
                table {
                    thead { tr { th { "#" } th { "Trigger" } th { "Started" } th.num { "Took" } th { "Request" } th { "Answer" } th { "Response body" } } }
                    tbody {
                        @for attempt in &delivery.attempts {
                            tr {
                                td.num { (attempt.number) }
                                td { (attempt.trigger.as_str()) }
                                td { (at(attempt.started_at)) }
                                td.num { (attempt.duration_ms) " ms" }
                                td.request { (request_of(attempt.request.as_ref())) }
                                td {
                                    @if let Some(code) = attempt.status_code { strong { (code) } }
                                    @if let Some(error) = &attempt.error { br; span.error { (error) } }
                                }
                                td { @if let Some(body) = &attempt.response_body { pre.body { (body) } } @else { span.muted { "—" } } }
                            }
                        }
                    }
                }
            }
        }
    }
}

fn replay_form(member: &SignedIn, delivery: &DeliveryRecord) -> Markup {
    html! {
        @if member.may(RouteId::WebhookDeliveryReplay) {
            form method="post" action=(format!("{PATH}/{}/replay", delivery.id)) {
                (token_field(&member.form_token))
                button.small type="submit" { "Replay now" }
                span.muted { " Sends the same event again (same id), as one more attempt." }
            }
        }
    }
}

fn facts(delivery: &DeliveryRecord) -> Markup {
    html! {
        dl.facts {
            dt { "Delivery" } dd { code { (delivery.id) } }
            dt { "Endpoint" } dd { a href=(format!("/dashboard/webhooks/{}", delivery.endpoint_id)) { code { (delivery.endpoint_id) } } }
            dt { "Event" } dd { code { (delivery.event_id) } " (the " code { "webhook-id" } " header and the envelope's " code { "id" } ")" }
            dt { "Next attempt" } dd { (maybe_at(delivery.next_attempt_at)) }
        }
    }
}

fn delivery(member: &SignedIn, delivery: &DeliveryRecord, open: bool) -> Markup {
    html! {
        article.delivery id=(delivery.id) {
            details open[open] {
                summary {
                    (status_badge(delivery.status)) " "
                    code { (delivery.event_type.as_str()) } " "
                    span.muted { (delivery.attempts.len()) " attempt(s) · " (at(delivery.created_at)) }
                }
                (facts(delivery))
                p { a href=(format!("{PATH}/{}", delivery.id)) { "The request body and every attempt" } }
                (attempts(delivery))
                (replay_form(member, delivery))
            }
        }
    }
}

fn log(member: &SignedIn, page: &Page<DeliveryRecord, WebhookDeliveryKind>, replayed: Option<&str>) -> Markup {
    html! {
        @if page.items.is_empty() {
            p.empty { "No delivery matches." }
        }
        @for item in &page.items {
            (delivery(member, item, replayed == Some(item.id.to_string().as_str())))
        }
    }
}

/// `GET /dashboard/deliveries`.
pub async fn page(
    state: web::Data<ApiState>,
    member: SignedIn,
    query: web::Query<LogQuery>,
) -> Result<HttpResponse, DashboardError> {
    member.require(RouteId::WebhookDeliveriesList)?;
    let cursor = Cursor {
        cursor: query.cursor.clone(),
    };
    let listed = async {
        let filter = filter_of(&query.api_query()).map_err(DashboardError::from)?;
        Ok::<_, DashboardError>(
            state
                .webhooks
                .list_deliveries(&member.principal, filter, cursor.page()?)
                .await?,
        )
    };
    let (status, view, body) = match listed.await {
        Ok(found) => (
            StatusCode::OK,
            FormView::default(),
            html! {
                (log(&member, &found, query.replayed.as_deref()))
                (pager(PATH, &found, &query.pairs(), cursor.cursor.is_some()))
            },
        ),
        Err(error) => {
            let (view, status) = FormView::refused(FormData::from_pairs(query.pairs()), error)?;
            (status, view, html! {})
        }
    };
    let content = html! {
        @if let Some(id) = &query.replayed { p.notice role="status" { "Delivery " code { (id) } " replayed; its new attempt is listed below." } }
        (filters(&query, &view))
        (body)
    };
    Ok(respond(status, document(&member, PATH, "Webhook deliveries", content)))
}

/// `GET /dashboard/deliveries/{id}`: one delivery, the body its attempts send (once: the
/// same bytes at every attempt) and each attempt's request beside its answer.
pub async fn detail(
    state: web::Data<ApiState>,
    member: SignedIn,
    id: web::Path<String>,
) -> Result<HttpResponse, DashboardError> {
    member.require(RouteId::WebhookDeliveriesList)?;
    let DeliveryDetail { delivery, body } = state.webhooks.delivery(&member.principal, path_id(&id)?).await?;
    let content = html! {
        p { a href=(format!("{PATH}?endpointId={}", delivery.endpoint_id)) { "← The endpoint's deliveries" } }
        p { (status_badge(delivery.status)) " " code { (delivery.event_type.as_str()) } " " span.muted { "created " (at(delivery.created_at)) } }
        (facts(&delivery))
        section {
            h2 { "Request body" }
            p.muted { "Every attempt sends these bytes, signed afresh: " code { "content-type: application/json" } " and the headers listed with each attempt." }
            pre.body.request-body { (body) }
        }
        section {
            h2 { "Attempts" }
            (attempts(&delivery))
            (replay_form(&member, &delivery))
        }
    };
    Ok(respond(
        StatusCode::OK,
        document(&member, PATH, "Webhook delivery", content),
    ))
}

/// `POST /dashboard/deliveries/{id}/replay`: one more attempt now, then back to the log.
pub async fn replay(
    state: web::Data<ApiState>,
    member: SignedIn,
    id: web::Path<String>,
    body: Bytes,
) -> Result<HttpResponse, DashboardError> {
    member.require(RouteId::WebhookDeliveryReplay)?;
    member.check_form(&state, &FormData::parse(&body))?;
    let delivery = state.webhooks.replay_delivery(&member.principal, path_id(&id)?).await?;
    Ok(see_other(&format!(
        "{PATH}?endpointId={}&replayed={}#{}",
        delivery.endpoint_id, delivery.id, delivery.id
    )))
}
