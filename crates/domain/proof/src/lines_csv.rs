//! Reading a statement's ticket-lines CSV back, for a verifier: each row becomes the
//! line it was written from (the money as `opinion-flight`'s `ReportLine`, the player as
//! the operator's `externalUserId`), and the whole CSV is walked once, in `O(log n)`
//! memory, into the tree and the totals the statement signs. The CSV's `ggr` and `share`
//! columns are derived from the other columns, so a row whose `ggr` or `share` is not the
//! one its stake, payout, refund and `shareBps` give is refused: a verifier recomputes
//! them, never trusts them.

use opinion_core::{FlightId, TicketId};
use opinion_flight::{ReportLine, ReportTotals, Rupiah, ShareBps};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use crate::line::{LineOutcome, ProofLine};
use crate::player_tag::PlayerKey;
use crate::root_builder::RootBuilder;
use crate::statement::ProofSummary;

/// The CSV's header row, in column order.
pub const LINE_COLUMNS: [&str; 11] = [
    "ticketId",
    "flightId",
    "externalUserId",
    "purchasedAt",
    "outcome",
    "stake",
    "payout",
    "refund",
    "ggr",
    "shareBps",
    "share",
];

/// A CSV that is not a statement's ticket lines.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LinesCsvError {
    /// The header row is not `LINE_COLUMNS`.
    #[error("the header row is not {}", LINE_COLUMNS.join(","))]
    Header,
    /// A row that cannot be read (`row` counts from 1 after the header).
    #[error("row {row}: {what}")]
    Row {
        /// Which row.
        row: u64,
        /// What is wrong with it.
        what: String,
    },
}

/// One row of the CSV, read back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CsvLine {
    /// The ticket.
    pub ticket_id: TicketId,
    /// Its flight.
    pub flight_id: FlightId,
    /// The operator's id of its player (what the statement's player key tags).
    pub external_user_id: String,
    /// When it was bought.
    pub purchased_at: OffsetDateTime,
    /// How its money was decided.
    pub outcome: LineOutcome,
    /// Its money.
    pub money: ReportLine,
}

impl CsvLine {
    /// The line as a leaf of the proof, its player tagged with `key`.
    pub fn to_proof_line(&self, key: &PlayerKey) -> ProofLine {
        ProofLine {
            ticket_id: self.ticket_id,
            flight_id: self.flight_id,
            player_tag: key.tag(&self.external_user_id),
            purchased_at: self.purchased_at,
            outcome: self.outcome,
            money: self.money,
        }
    }
}

/// What the CSV's lines come to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RecomputedLines {
    /// The lines' tree; `None` when no player key was given (no leaf can be made).
    pub tree: Option<ProofSummary>,
    /// The sums of the lines.
    pub totals: ReportTotals,
}

/// Walks `csv` (the exact bytes `linesSha256` names) once: every line's leaf with its
/// player tagged by `key` (when given) into the tree, and its money into the totals.
pub fn recompute_lines(csv: &[u8], key: Option<&PlayerKey>) -> Result<RecomputedLines, LinesCsvError> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(true)
        .flexible(false)
        .from_reader(csv);
    let header = reader.headers().map_err(|_| LinesCsvError::Header)?;
    if !header.iter().eq(LINE_COLUMNS) {
        return Err(LinesCsvError::Header);
    }
    let mut tree = RootBuilder::new();
    let mut totals = ReportTotals::default();
    for (index, record) in reader.records().enumerate() {
        let row = index as u64 + 1;
        let fail = |what: String| LinesCsvError::Row { row, what };
        let record = record.map_err(|error| fail(error.to_string()))?;
        let fields: Vec<&str> = record.iter().collect();
        let line = csv_line(&fields).map_err(fail)?;
        if let Some(key) = key {
            let leaf = line
                .to_proof_line(key)
                .leaf_hash()
                .map_err(|error| LinesCsvError::Row {
                    row,
                    what: error.to_string(),
                })?;
            tree.push_leaf_hash(leaf);
        }
        totals = totals.plus(&line.money);
    }
    let tree = key.map(|_| ProofSummary {
        merkle_root: tree.root(),
        leaf_count: tree.leaf_count(),
    });
    Ok(RecomputedLines { tree, totals })
}

/// One row's fields (in `LINE_COLUMNS` order) as a line.
fn csv_line(fields: &[&str]) -> Result<CsvLine, String> {
    let [
        ticket,
        flight,
        user,
        purchased,
        outcome,
        stake,
        payout,
        refund,
        ggr,
        bps,
        share,
    ] = fields
    else {
        return Err(format!("{} fields, not {}", fields.len(), LINE_COLUMNS.len()));
    };
    let rupiah = |column: &str, text: &str| {
        text.parse::<i64>()
            .ok()
            .and_then(|amount| Rupiah::new(amount).ok())
            .ok_or_else(|| format!("{column} `{text}` is not an amount of rupiah"))
    };
    let money = ReportLine {
        stake: rupiah("stake", stake)?,
        payout: rupiah("payout", payout)?,
        refund: rupiah("refund", refund)?,
        share_bps: bps
            .parse::<u16>()
            .ok()
            .and_then(|bps| ShareBps::new(bps).ok())
            .ok_or_else(|| format!("shareBps `{bps}` is not a share in basis points"))?,
    };
    if ggr.parse::<i64>().ok() != Some(money.ggr()) {
        return Err(format!("ggr `{ggr}` is not stake − payout − refund ({})", money.ggr()));
    }
    if share.parse::<i64>().ok() != Some(money.share()) {
        return Err(format!(
            "share `{share}` is not ggr × shareBps / 10 000 truncated toward zero ({})",
            money.share()
        ));
    }
    Ok(CsvLine {
        ticket_id: ticket
            .parse()
            .map_err(|_| format!("ticketId `{ticket}` is not a ticket id"))?,
        flight_id: flight
            .parse()
            .map_err(|_| format!("flightId `{flight}` is not a flight id"))?,
        external_user_id: (*user).to_owned(),
        purchased_at: OffsetDateTime::parse(purchased, &Rfc3339)
            .map_err(|_| format!("purchasedAt `{purchased}` is not an RFC 3339 instant"))?,
        outcome: LineOutcome::from_wire(outcome).ok_or_else(|| format!("outcome `{outcome}` is not an outcome"))?,
        money,
    })
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::statement::StatementProofBuilder;

    const HEADER: &str =
        "ticketId,flightId,externalUserId,purchasedAt,outcome,stake,payout,refund,ggr,shareBps,share\r\n";

    fn row(user: &str, payout: i64) -> String {
        let ggr = 10_000 - payout;
        let share = ggr * 1_500 / 10_000;
        let outcome = if payout > 0 { "cashed_out" } else { "lost" };
        format!(
            "{},{},{user},2026-11-02T10:00:00.123Z,{outcome},10000,{payout},0,{ggr},1500,{share}\r\n",
            TicketId::from_u128(1),
            FlightId::from_u128(2)
        )
    }

    #[test]
    fn the_lines_recompute_the_tree_and_totals_of_the_lines_written() {
        let key = PlayerKey::from_bytes([4; 32]);
        let csv = format!("{HEADER}{}{}", row("a,\"b\"", 34_600), row("p-2", 0));
        let csv = csv.replacen("a,\"b\"", "\"a,\"\"b\"\"\"", 1);
        let recomputed = recompute_lines(csv.as_bytes(), Some(&key)).expect("lines");
        let mut builder = StatementProofBuilder::new();
        for (user, payout) in [("a,\"b\"", 34_600), ("p-2", 0)] {
            let text = format!("{HEADER}{}", row("x", payout));
            let mut reader = csv::Reader::from_reader(text.as_bytes());
            let record = reader.records().next().expect("a row").expect("read");
            let mut line = csv_line(&record.iter().collect::<Vec<_>>()).expect("line");
            line.external_user_id = user.into();
            builder.add(&line.to_proof_line(&key)).expect("leaf");
        }
        let (summary, totals) = builder.finish();
        assert_eq!(recomputed.tree, Some(summary));
        assert_eq!(recomputed.totals, totals);
        assert_eq!(totals.share, -3_690 + 1_500);
        let without_key = recompute_lines(csv.as_bytes(), None).expect("lines");
        assert_eq!((without_key.tree, without_key.totals), (None, totals));
    }

    #[test]
    fn a_derived_column_that_does_not_follow_is_refused() {
        let bad_share = format!("{HEADER}{}", row("p", 0).replace(",1500,1500", ",1500,1499"));
        assert!(matches!(
            recompute_lines(bad_share.as_bytes(), None),
            Err(LinesCsvError::Row { row: 1, what }) if what.starts_with("share")
        ));
        let bad_ggr = format!("{HEADER}{}", row("p", 0).replace(",0,10000,", ",0,9999,"));
        assert!(matches!(
            recompute_lines(bad_ggr.as_bytes(), None),
            Err(LinesCsvError::Row { what, .. }) if what.starts_with("ggr")
        ));
        let header = format!("ticket,{}", &HEADER[9..]);
        assert_eq!(recompute_lines(header.as_bytes(), None), Err(LinesCsvError::Header));
        let short = format!("{HEADER}tkt,flt\r\n");
        assert!(recompute_lines(short.as_bytes(), None).is_err());
        let outcome = format!("{HEADER}{}", row("p", 0).replace(",lost,", ",lust,"));
        assert!(matches!(
            recompute_lines(outcome.as_bytes(), None),
            Err(LinesCsvError::Row { what, .. }) if what.starts_with("outcome")
        ));
    }

    /// A line of generated fields: ids, player, milliseconds after a start, outcome, stake,
    /// payout, refund, share.
    type Fields = (u128, u128, String, i64, usize, i64, i64, i64, u16);

    fn any_fields() -> impl Strategy<Value = Fields> {
        (
            (
                1..u128::from(u64::MAX),
                1..u128::from(u64::MAX),
                "[a-z0-9,\" ]{1,8}",
                0..10_000_000_000i64,
            ),
            (
                0..3usize,
                1..1_000_000_000i64,
                0..1_000_000_000i64,
                0..1_000_000_000i64,
                0..=10_000u16,
            ),
        )
            .prop_map(|((t, f, u, ms), (o, s, p, r, b))| (t, f, u, ms, o, s, p, r, b))
    }

    fn csv_of(lines: &[Fields]) -> Vec<u8> {
        let mut writer = csv::WriterBuilder::new()
            .terminator(csv::Terminator::CRLF)
            .from_writer(Vec::new());
        writer.write_record(LINE_COLUMNS).expect("header");
        for (ticket, flight, user, ms, outcome, stake, payout, refund, bps) in lines {
            let money = ReportLine {
                stake: Rupiah::new(*stake).expect("rupiah"),
                payout: Rupiah::new(*payout).expect("rupiah"),
                refund: Rupiah::new(*refund).expect("rupiah"),
                share_bps: ShareBps::new(*bps).expect("bps"),
            };
            let at = time::macros::datetime!(2026-10-01 00:00 UTC) + time::Duration::milliseconds(*ms);
            let outcome = [LineOutcome::CashedOut, LineOutcome::Lost, LineOutcome::Refunded][*outcome];
            writer
                .write_record([
                    TicketId::from_u128(*ticket).to_string(),
                    FlightId::from_u128(*flight).to_string(),
                    user.clone(),
                    at.format(&Rfc3339).expect("format"),
                    outcome.as_str().to_owned(),
                    stake.to_string(),
                    payout.to_string(),
                    refund.to_string(),
                    money.ggr().to_string(),
                    bps.to_string(),
                    money.share().to_string(),
                ])
                .expect("row");
        }
        writer.into_inner().expect("bytes")
    }

    fn root(csv: &[u8]) -> ProofSummary {
        let key = PlayerKey::from_bytes([8; 32]);
        recompute_lines(csv, Some(&key)).expect("lines").tree.expect("a tree")
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(128))]

        #[test]
        fn changing_any_field_of_one_line_changes_the_root(
            mut lines in prop::collection::vec(any_fields(), 1..12),
            which in any::<prop::sample::Index>(),
            field in 0..9usize,
        ) {
            let before = root(&csv_of(&lines));
            let at = which.index(lines.len());
            let line = &mut lines[at];
            match field {
                0 => line.0 += 1,
                1 => line.1 += 1,
                2 => line.2.push('x'),
                3 => line.3 += 1,
                4 => line.4 = (line.4 + 1) % 3,
                5 => line.5 += 1,
                6 => line.6 += 1,
                7 => line.7 += 1,
                _ => line.8 = (line.8 + 1) % 10_001,
            }
            let after = root(&csv_of(&lines));
            prop_assert_eq!(after.leaf_count, before.leaf_count);
            prop_assert_ne!(after.merkle_root, before.merkle_root);
        }
    }

    #[test]
    fn an_empty_statement_has_the_empty_tree() {
        let key = PlayerKey::from_bytes([4; 32]);
        let recomputed = recompute_lines(HEADER.as_bytes(), Some(&key)).expect("lines");
        assert_eq!(recomputed.tree.map(|t| t.leaf_count), Some(0));
        assert_eq!(
            recomputed.tree.map(|t| t.merkle_root),
            Some(crate::tree_hash::empty_root())
        );
        assert_eq!(recomputed.totals, ReportTotals::default());
    }
}
