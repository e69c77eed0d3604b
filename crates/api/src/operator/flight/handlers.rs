//! `/api/operator/flight/…`: the overview, flights, the operator's tickets, its flight
//! wallet operations and the delivery evidence of its flight events, as JSON pages, and
//! the flights' and tickets' exports as streamed CSV.

use actix_web::{HttpResponse, web};
use opinion_access::{RouteId, Scope};

use crate::http::auth::Caller;
use crate::http::error::ApiError;
use crate::http::extract::path_id;
use crate::http::problem_responses::{InvalidRequest, NotFound};
use crate::operator::flight::csv::{self, CsvRow, TEXT_CSV};
use crate::operator::flight::dto::{
    FlightBody, FlightDetailBody, FlightOperationBody, FlightOperationsParams, FlightsExportParams, FlightsParams,
    OverviewBody, OverviewParams, TicketBody, TicketDetailBody, TicketsExportParams, TicketsParams,
};
use crate::operator::webhooks::deliveries::dto::{DeliveryQuery, WebhookDeliveryBody};
use crate::operator::webhooks::deliveries::handlers::filter_of;
use crate::shared::list::ListBody;
use crate::shared::page_query::PageQuery;
use crate::state::ApiState;

impl CsvRow for FlightBody {
    const COLUMNS: &'static [&'static str] = &[
        "id",
        "chainId",
        "number",
        "phase",
        "salt",
        "commitment",
        "chainLength",
        "seed",
        "crashPoint",
        "boardingAt",
        "takeOffAt",
        "crashedAt",
        "cancelledAt",
    ];
}

impl CsvRow for TicketBody {
    const COLUMNS: &'static [&'static str] = &[
        "id",
        "flightId",
        "userId",
        "externalUserId",
        "clientTicketId",
        "stake",
        "currency",
        "autoCashOut",
        "status",
        "shareBps",
        "termsId",
        "maxPayout",
        "cashOutMultiplier",
        "payout",
        "refundReason",
        "failureReason",
        "purchaseOperationId",
        "purchasedAt",
        "cashedOutAt",
        "updatedAt",
        "settledAt",
    ];
}

/// The operator's flight overview: enablement, terms in force, the money of its tickets
/// over a window and the live flight.
#[utoipa::path(
    get,
    path = RouteId::FlightOverview.spec().path,
    params(OverviewParams),
    responses(
        (status = 200, description = "the overview", body = OverviewBody),
        InvalidRequest,
    ),
)]
pub async fn overview(
    state: web::Data<ApiState>,
    caller: Caller,
    query: web::Query<OverviewParams>,
) -> Result<HttpResponse, ApiError> {
    let overview = state
        .flight_reads
        .overview(caller.0.operator_id, &(&*query).into())
        .await?;
    let mut body = OverviewBody::from(overview);
    if caller.0.grant.holds(caller.0.kind(), Scope::FlightSettlementsRead) {
        let standing = state.office.settlement_standing(caller.0.operator_id).await?;
        body.settlement = Some(standing.into());
    }
    Ok(HttpResponse::Ok().json(body))
}

/// Lists flights (platform-wide), newest first; a page pipes into
/// `docs/flight/verify_flight.py`.
#[utoipa::path(
    get,
    path = RouteId::FlightFlightsList.spec().path,
    params(FlightsParams),
    responses(
        (status = 200, description = "one page of flights, newest first", body = ListBody<FlightBody>),
        InvalidRequest,
    ),
)]
pub async fn flights(
    state: web::Data<ApiState>,
    _caller: Caller,
    query: web::Query<FlightsParams>,
) -> Result<HttpResponse, ApiError> {
    let page = query.page_query().page()?;
    let flights = state.flight_reads.list_flights(&(&*query).into(), page).await?;
    Ok(HttpResponse::Ok().json(ListBody::from_page(flights, FlightBody::from)))
}

/// One flight, with the operator's own tickets' totals on it.
#[utoipa::path(
    get,
    path = RouteId::FlightFlightGet.spec().path,
    params(("id" = String, Path, description = "`flt_…`")),
    responses(
        (status = 200, description = "the flight", body = FlightDetailBody),
        InvalidRequest,
        NotFound,
    ),
)]
pub async fn flight(
    state: web::Data<ApiState>,
    caller: Caller,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let detail = state.flight_reads.flight(caller.0.operator_id, path_id(&id)?).await?;
    Ok(HttpResponse::Ok().json(FlightDetailBody::from(detail)))
}

/// Every flight matching the filters, newest first, as streamed CSV with the list's fields.
#[utoipa::path(
    get,
    path = RouteId::FlightFlightsExport.spec().path,
    params(FlightsExportParams),
    responses(
        (status = 200, description = "CSV (RFC 4180, a header row) of the list's fields, newest first", body = String, content_type = TEXT_CSV),
        InvalidRequest,
    ),
)]
pub async fn export_flights(
    state: web::Data<ApiState>,
    _caller: Caller,
    query: web::Query<FlightsExportParams>,
) -> Result<HttpResponse, ApiError> {
    let export = state.flight_reads.export_flights(&(&*query).into())?;
    csv::stream(export, "flights.csv", FlightBody::from).await
}

/// Lists the operator's tickets, newest first.
#[utoipa::path(
    get,
    path = RouteId::FlightTicketsList.spec().path,
    params(TicketsParams),
    responses(
        (status = 200, description = "one page of tickets, newest first", body = ListBody<TicketBody>),
        InvalidRequest,
    ),
)]
pub async fn tickets(
    state: web::Data<ApiState>,
    caller: Caller,
    query: web::Query<TicketsParams>,
) -> Result<HttpResponse, ApiError> {
    let page = query.page_query().page()?;
    let tickets = state
        .flight_reads
        .list_tickets(caller.0.operator_id, &(&*query).into(), page)
        .await?;
    Ok(HttpResponse::Ok().json(ListBody::from_page(tickets, TicketBody::from)))
}

/// One ticket of the operator, with its flight.
#[utoipa::path(
    get,
    path = RouteId::FlightTicketGet.spec().path,
    params(("id" = String, Path, description = "`tkt_…`")),
    responses(
        (status = 200, description = "the ticket", body = TicketDetailBody),
        InvalidRequest,
        NotFound,
    ),
)]
pub async fn ticket(
    state: web::Data<ApiState>,
    caller: Caller,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let detail = state.flight_reads.ticket(caller.0.operator_id, path_id(&id)?).await?;
    Ok(HttpResponse::Ok().json(TicketDetailBody::from(detail)))
}

/// Every ticket of the operator matching the filters, newest first, as streamed CSV with
/// the list's fields.
#[utoipa::path(
    get,
    path = RouteId::FlightTicketsExport.spec().path,
    params(TicketsExportParams),
    responses(
        (status = 200, description = "CSV (RFC 4180, a header row) of the list's fields, newest first", body = String, content_type = TEXT_CSV),
        InvalidRequest,
    ),
)]
pub async fn export_tickets(
    state: web::Data<ApiState>,
    caller: Caller,
    query: web::Query<TicketsExportParams>,
) -> Result<HttpResponse, ApiError> {
    let export = state
        .flight_reads
        .export_tickets(caller.0.operator_id, &(&*query).into())?;
    csv::stream(export, "flight-tickets.csv", TicketBody::from).await
}

/// Lists the operator's flight wallet operations (purchases, payouts, refunds), newest first.
#[utoipa::path(
    get,
    path = RouteId::FlightWalletOperationsList.spec().path,
    params(FlightOperationsParams),
    responses(
        (status = 200, description = "one page of flight wallet operations, newest first", body = ListBody<FlightOperationBody>),
        InvalidRequest,
    ),
)]
pub async fn wallet_operations(
    state: web::Data<ApiState>,
    caller: Caller,
    query: web::Query<FlightOperationsParams>,
) -> Result<HttpResponse, ApiError> {
    let page = query.page_query().page()?;
    let operations = state
        .flight_reads
        .list_wallet_operations(caller.0.operator_id, &(&*query).into(), page)
        .await?;
    Ok(HttpResponse::Ok().json(ListBody::from_page(operations, FlightOperationBody::from)))
}

/// Lists the operator's deliveries of `mini_app.flight.*` events with their attempts,
/// newest first, with the delivery log's filters.
#[utoipa::path(
    get,
    path = RouteId::FlightWebhookDeliveriesList.spec().path,
    params(DeliveryQuery),
    responses(
        (status = 200, description = "one page of flight event deliveries with their attempts, newest first", body = ListBody<WebhookDeliveryBody>),
        InvalidRequest,
    ),
)]
pub async fn webhook_deliveries(
    state: web::Data<ApiState>,
    caller: Caller,
    query: web::Query<DeliveryQuery>,
) -> Result<HttpResponse, ApiError> {
    let filter = filter_of(&query)?;
    let page = PageQuery {
        limit: query.limit,
        cursor: query.cursor.clone(),
    }
    .page()?;
    let deliveries = state
        .flight_reads
        .list_webhook_deliveries(caller.0.operator_id, filter, page)
        .await?;
    Ok(HttpResponse::Ok().json(ListBody::from_page(deliveries, WebhookDeliveryBody::from)))
}

#[cfg(test)]
mod tests {
    use serde::Serialize;
    use time::macros::datetime;

    use super::*;

    /// The header `csv` derives from the row's own field names, in serialisation order.
    fn derived_header<R: Serialize>(row: R) -> String {
        let mut writer = ::csv::Writer::from_writer(Vec::new());
        writer.serialize(row).expect("serialised");
        let text = String::from_utf8(writer.into_inner().expect("flushed")).expect("UTF-8");
        text.lines().next().expect("a header").to_owned()
    }

    #[test]
    fn the_export_columns_are_the_list_fields_in_order() {
        let at = datetime!(2026-11-22 10:00 UTC);
        let flight = FlightBody {
            id: "flt_1".into(),
            chain_id: "fch_1".into(),
            number: 1,
            phase: "crashed".into(),
            salt: "salt".into(),
            commitment: "00".into(),
            chain_length: 10,
            seed: None,
            crash_point: None,
            boarding_at: at,
            take_off_at: at,
            crashed_at: None,
            cancelled_at: None,
        };
        assert_eq!(derived_header(flight), FlightBody::COLUMNS.join(","));
        let ticket = TicketBody {
            id: "tkt_1".into(),
            flight_id: "flt_1".into(),
            user_id: "usr_1".into(),
            external_user_id: "player-1".into(),
            client_ticket_id: "c-1".into(),
            stake: "1000".into(),
            currency: "IDR".into(),
            auto_cash_out: None,
            status: "lost".into(),
            share_bps: 1500,
            terms_id: "ftv_1".into(),
            max_payout: "100000".into(),
            cash_out_multiplier: None,
            payout: None,
            refund_reason: None,
            failure_reason: None,
            purchase_operation_id: "wop_1".into(),
            purchased_at: at,
            cashed_out_at: None,
            updated_at: at,
            settled_at: None,
        };
        assert_eq!(derived_header(ticket), TicketBody::COLUMNS.join(","));
    }
}
