//! Exports as streamed CSV (RFC 4180 quoting, a header row, UTF-8): the rows are the
//! list's JSON items written flat, one chunk of the export at a time, so the body never
//! holds more than a chunk whatever the size of the result. The first chunk is read
//! before the answer starts, so a failure there is a problem body; a failure after it
//! cuts the body short (the chunked transfer never ends properly), which a client sees
//! as an incomplete download, never as a shorter valid file.

use actix_web::HttpResponse;
use actix_web::http::header::{CacheControl, CacheDirective, ContentDisposition, DispositionParam, DispositionType};
use actix_web::web::Bytes;
use futures_util::stream;
use opinion_app::error::AppError;
use opinion_app::flight::reads::Export;
use opinion_core::IdKind;
use serde::Serialize;

use crate::http::error::ApiError;

/// The media type of every export.
pub const TEXT_CSV: &str = "text/csv; charset=utf-8";

/// A wire body that can be a CSV row: its column names, in the order its fields
/// serialise.
pub trait CsvRow: Serialize {
    /// The header row.
    const COLUMNS: &'static [&'static str];
}

/// Writes `rows` (and the header first when `header`) as CSV.
fn encode<R: CsvRow>(header: bool, rows: impl IntoIterator<Item = R>) -> Result<Bytes, csv::Error> {
    let mut writer = csv::WriterBuilder::new().has_headers(false).from_writer(Vec::new());
    if header {
        writer.write_record(R::COLUMNS)?;
    }
    for row in rows {
        writer.serialize(row)?;
    }
    writer
        .into_inner()
        .map(Bytes::from)
        .map_err(|error| csv::Error::from(error.into_error()))
}

/// Where a streamed export stands.
struct Progress<T, K: IdKind> {
    export: Export<T, K>,
    /// The chunk read before the answer started, not yet written.
    first: Option<Vec<T>>,
    header: bool,
}

/// The answer streaming `export` as a CSV file named `filename`, each record converted
/// to its row by `row`.
pub async fn stream<T, K, R>(
    mut export: Export<T, K>,
    filename: &str,
    row: fn(T) -> R,
) -> Result<HttpResponse, ApiError>
where
    T: Send + 'static,
    K: IdKind + Send + 'static,
    R: CsvRow + 'static,
{
    let first = export.next_chunk().await?.unwrap_or_default();
    let progress = Progress {
        export,
        first: Some(first),
        header: true,
    };
    let body = stream::unfold(Some(progress), move |progress| async move {
        let mut progress = progress?;
        let chunk = match progress.first.take() {
            Some(first) => Some(first),
            None => match progress.export.next_chunk().await {
                Ok(chunk) => chunk,
                Err(error) => {
                    tracing::error!(error = %error, "an export stopped part way");
                    return Some((Err(ApiError::from(error)), None));
                }
            },
        };
        let header = std::mem::replace(&mut progress.header, false);
        match chunk {
            None => None,
            Some(rows) => match encode(header, rows.into_iter().map(row)) {
                Ok(bytes) => Some((Ok(bytes), Some(progress))),
                Err(error) => {
                    tracing::error!(error = %error, "an export row could not be written");
                    Some((Err(ApiError::from(AppError::Internal(error.to_string()))), None))
                }
            },
        }
    });
    Ok(HttpResponse::Ok()
        .content_type(TEXT_CSV)
        .insert_header(CacheControl(vec![CacheDirective::NoStore]))
        .insert_header(ContentDisposition {
            disposition: DispositionType::Attachment,
            parameters: vec![DispositionParam::Filename(filename.to_owned())],
        })
        .streaming(body))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Row {
        id: String,
        note: Option<String>,
    }

    impl CsvRow for Row {
        const COLUMNS: &'static [&'static str] = &["id", "note"];
    }

    #[test]
    fn fields_are_quoted_as_rfc_4180_says_and_absent_values_are_empty() {
        let rows = [
            Row {
                id: "a".into(),
                note: Some("says \"hi\", twice\nthen stops".into()),
            },
            Row {
                id: "b".into(),
                note: None,
            },
        ];
        let bytes = encode(true, rows).expect("encoded");
        assert_eq!(
            std::str::from_utf8(&bytes).expect("UTF-8"),
            "id,note\na,\"says \"\"hi\"\", twice\nthen stops\"\nb,\n"
        );
        assert_eq!(encode::<Row>(false, []).expect("encoded").len(), 0);
    }
}
