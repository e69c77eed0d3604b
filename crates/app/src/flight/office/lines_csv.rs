//! The ticket-lines CSV of a report: the bytes whose SHA-256 the signed statement names,
//! written here once for finalization and for the export, so both are the same bytes.
//! RFC 4180: a header row, CRLF line ends, a field quoted (its quotes doubled) only when
//! it holds a comma, a quote or a line break.

use opinion_flight::ReportLine;
use opinion_proof::LINE_COLUMNS;
use sha2::{Digest, Sha256};

use crate::flight::office::model::ReportLineRecord;
use crate::model::rfc3339;

/// The header row, with its line end.
pub fn header_row() -> Vec<u8> {
    row(LINE_COLUMNS.iter().map(|column| (*column).to_owned()))
}

/// One line's row, with its line end.
pub fn line_row(record: &ReportLineRecord) -> Vec<u8> {
    let line: &ReportLine = &record.line;
    row([
        record.ticket_id.to_string(),
        record.flight_id.to_string(),
        record.external_user_id.clone(),
        rfc3339(record.purchased_at),
        record.outcome.to_owned(),
        line.stake.get().to_string(),
        line.payout.get().to_string(),
        line.refund.get().to_string(),
        line.ggr().to_string(),
        line.share_bps.get().to_string(),
        line.share().to_string(),
    ])
}

fn row(fields: impl IntoIterator<Item = String>) -> Vec<u8> {
    let quoted: Vec<String> = fields.into_iter().map(|field| quote(&field)).collect();
    let mut bytes = quoted.join(",").into_bytes();
    bytes.extend_from_slice(b"\r\n");
    bytes
}

fn quote(field: &str) -> String {
    if field.contains([',', '"', '\r', '\n']) {
        format!("\"{}\"", field.replace('"', "\"\""))
    } else {
        field.to_owned()
    }
}

/// The SHA-256 of a CSV fed row by row (constant memory), as lowercase hex.
pub struct LinesHasher(Sha256);

impl LinesHasher {
    /// A hasher that has seen the header row.
    pub fn new() -> Self {
        let mut digest = Sha256::new();
        digest.update(header_row());
        Self(digest)
    }

    /// Feeds one line's row.
    pub fn add(&mut self, record: &ReportLineRecord) {
        self.0.update(line_row(record));
    }

    /// The hex digest.
    pub fn finish(self) -> String {
        hex::encode(self.0.finalize())
    }
}

impl Default for LinesHasher {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use opinion_core::{FlightId, TicketId};
    use opinion_flight::{Rupiah, ShareBps};
    use time::macros::datetime;

    use super::*;

    fn record(user: &str) -> ReportLineRecord {
        ReportLineRecord {
            ticket_id: TicketId::from_u128(1),
            flight_id: FlightId::from_u128(2),
            external_user_id: user.into(),
            purchased_at: datetime!(2026-11-02 10:00 UTC),
            outcome: "cashed_out",
            line: ReportLine {
                stake: Rupiah::new(10_000).expect("rupiah"),
                payout: Rupiah::new(34_600).expect("rupiah"),
                refund: Rupiah::ZERO,
                share_bps: ShareBps::new(1_500).expect("bps"),
            },
        }
    }

    #[test]
    fn a_row_carries_the_lines_money_and_its_share() {
        let row = String::from_utf8(line_row(&record("player-1"))).expect("utf-8");
        assert!(
            row.ends_with(",player-1,2026-11-02T10:00:00Z,cashed_out,10000,34600,0,-24600,1500,-3690\r\n"),
            "{row}"
        );
        assert_eq!(
            String::from_utf8(header_row()).expect("utf-8"),
            "ticketId,flightId,externalUserId,purchasedAt,outcome,stake,payout,refund,ggr,shareBps,share\r\n"
        );
    }

    #[test]
    fn a_field_with_a_comma_or_a_quote_is_quoted() {
        let row = String::from_utf8(line_row(&record("a,\"b\""))).expect("utf-8");
        assert!(row.contains(",\"a,\"\"b\"\"\","), "{row}");
    }

    #[test]
    fn the_hash_is_the_sha256_of_the_bytes_written() {
        let mut hasher = LinesHasher::new();
        hasher.add(&record("player-1"));
        let mut bytes = header_row();
        bytes.extend(line_row(&record("player-1")));
        assert_eq!(hasher.finish(), hex::encode(Sha256::digest(&bytes)));
    }
}
