//! The export of a finalized report: its signed statement and its ticket-lines CSV, whose
//! SHA-256 is the statement's `linesSha256`. By default one JSON document
//! `{"statement": {...}, "playerKey": "<64 hex>", "exchangeAnswer": "<base64>", "lines":
//! "<the CSV>"}` (the CSV as one JSON string, so decoding it gives back exactly the hashed
//! bytes; the statement's player key, which maps the proof's player tags back to the
//! operator's players, is given to the operator here and nowhere public; the exchange's
//! raw answer, whose SHA-256 the evidence names, or null); `?part=statement` serves the signed statement
//! alone, `?part=lines` the CSV alone. The lines are written by the same function that
//! hashed them at finalization, read in the same order, and streamed chunk by chunk: an
//! export of any size holds one chunk. As with every export, the first chunk is read
//! before the answer starts; a failure after it cuts the chunked body short.

use actix_web::http::header::{CacheControl, CacheDirective, ContentDisposition, DispositionParam, DispositionType};
use actix_web::web::Bytes;
use actix_web::{HttpResponse, web};
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use futures_util::{StreamExt, stream};
use opinion_access::RouteId;
use opinion_app::error::AppError;
use opinion_app::flight::office::lines_csv::{header_row, line_row};
use opinion_app::flight::office::model::ReportLineRecord;
use opinion_app::flight::office::{LinesExport, PERIOD};
use serde_json::json;

use crate::http::auth::Caller;
use crate::http::error::ApiError;
use crate::http::problem_responses::{InvalidRequest, NotFound, ReportNotFinalized};
use crate::operator::flight::csv::TEXT_CSV;
use crate::operator::flight::settlement::dto::{ExportParams, ExportPart};
use crate::operator::flight::settlement::reports::address_of;
use crate::state::ApiState;

/// How the CSV's bytes are written into the body.
#[derive(Clone, Copy)]
enum LinesIn {
    /// As they are (`text/csv`).
    Csv,
    /// Escaped as the content of a JSON string.
    JsonString,
}

impl LinesIn {
    fn write(self, csv: Vec<u8>) -> Result<Bytes, AppError> {
        match self {
            Self::Csv => Ok(Bytes::from(csv)),
            Self::JsonString => {
                let text = String::from_utf8(csv).map_err(|e| AppError::Internal(e.to_string()))?;
                let quoted = serde_json::to_string(&text).map_err(|e| AppError::Internal(e.to_string()))?;
                Ok(Bytes::from(quoted[1..quoted.len() - 1].to_owned()))
            }
        }
    }
}

/// The CSV rows of one chunk, after the header row when `header`.
fn rows(header: bool, chunk: &[ReportLineRecord]) -> Vec<u8> {
    let mut bytes = if header { header_row() } else { Vec::new() };
    for record in chunk {
        bytes.extend(line_row(record));
    }
    bytes
}

/// Where a streamed export stands.
struct Progress {
    lines: LinesExport,
    first: Option<Vec<ReportLineRecord>>,
    header: bool,
    suffix: Option<Bytes>,
}

/// The body: `prefix`, the CSV written `how`, then `suffix`.
async fn body(
    mut lines: LinesExport,
    how: LinesIn,
    prefix: Bytes,
    suffix: Bytes,
) -> Result<impl futures_util::Stream<Item = Result<Bytes, ApiError>>, ApiError> {
    let first = lines.next_chunk().await?.unwrap_or_default();
    let progress = Progress {
        lines,
        first: Some(first),
        header: true,
        suffix: Some(suffix),
    };
    let chunks = stream::unfold(Some(progress), move |progress| async move {
        let mut progress = progress?;
        let chunk = match progress.first.take() {
            Some(first) => Some(first),
            None => match progress.lines.next_chunk().await {
                Ok(chunk) => chunk,
                Err(error) => {
                    tracing::error!(error = %error, "a report export stopped part way");
                    return Some((Err(ApiError::from(error)), None));
                }
            },
        };
        match chunk {
            None => progress.suffix.take().map(|suffix| (Ok(suffix), None)),
            Some(chunk) => {
                let header = std::mem::replace(&mut progress.header, false);
                match how.write(rows(header, &chunk)) {
                    Ok(bytes) => Some((Ok(bytes), Some(progress))),
                    Err(error) => Some((Err(ApiError::from(error)), None)),
                }
            }
        }
    });
    // An empty chunk would end a chunked body early: none is sent.
    Ok(stream::once(async move { Ok(prefix) })
        .chain(chunks)
        .filter(|bytes| std::future::ready(!matches!(bytes, Ok(bytes) if bytes.is_empty()))))
}

fn attachment(name: String) -> ContentDisposition {
    ContentDisposition {
        disposition: DispositionType::Attachment,
        parameters: vec![DispositionParam::Filename(name)],
    }
}

/// Exports a finalized report: its signed statement and the ticket-lines CSV whose
/// SHA-256 the statement names, streamed.
#[utoipa::path(
    get,
    path = RouteId::FlightSettlementReportExport.spec().path,
    params(("id" = String, Path, description = "`fsr_…`, or the period `YYYY-MM`"), ExportParams),
    responses(
        (status = 200, description = "`{\"statement\": {signed statement}, \"playerKey\": \"<64 hex>\", \"exchangeAnswer\": \"<base64>\" or null, \"lines\": \"<CSV>\"}`; with `part=statement` the signed statement alone; with `part=lines` the CSV alone (`text/csv`)", content((Object = "application/json"), (String = "text/csv"))),
        InvalidRequest,
        NotFound,
        ReportNotFinalized,
    ),
)]
pub async fn export(
    state: web::Data<ApiState>,
    caller: Caller,
    id: web::Path<String>,
    query: web::Query<ExportParams>,
) -> Result<HttpResponse, ApiError> {
    let (report, lines) = state
        .office
        .export_report(caller.0.operator_id, address_of(&id)?)
        .await?;
    let name = format!("flight-statement-{}", PERIOD.label(report.period_start));
    let signed = serde_json::to_vec(&report.statement.signed).map_err(|e| AppError::Internal(e.to_string()))?;
    let mut answer = HttpResponse::Ok();
    answer.insert_header(CacheControl(vec![CacheDirective::NoStore]));
    match query.part {
        Some(ExportPart::Statement) => Ok(answer
            .insert_header(attachment(format!("{name}.json")))
            .content_type("application/json")
            .body(signed)),
        Some(ExportPart::Lines) => {
            let body = body(lines, LinesIn::Csv, Bytes::new(), Bytes::new()).await?;
            Ok(answer
                .insert_header(attachment(format!("{name}-lines.csv")))
                .content_type(TEXT_CSV)
                .streaming(body))
        }
        None => {
            let secrets = state.office.report_secrets(caller.0.operator_id, report.id).await?;
            let (player_key, exchange_answer) = match secrets {
                Some((key, answer)) => (Some(key.to_hex()), answer.map(|raw| STANDARD.encode(raw))),
                None => (None, None),
            };
            let mut prefix = b"{\"statement\":".to_vec();
            prefix.extend(signed);
            prefix.extend(format!(",\"playerKey\":{},", json!(player_key)).into_bytes());
            prefix.extend(format!("\"exchangeAnswer\":{},", json!(exchange_answer)).into_bytes());
            prefix.extend_from_slice(b"\"lines\":\"");
            let body = body(
                lines,
                LinesIn::JsonString,
                Bytes::from(prefix),
                Bytes::from_static(b"\"}"),
            )
            .await?;
            Ok(answer
                .insert_header(attachment(format!("{name}.json")))
                .content_type("application/json")
                .streaming(body))
        }
    }
}
