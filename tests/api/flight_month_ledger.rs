//! The operator's own books, written the way an operator would write them: from the
//! ticket export (`GET /api/operator/flight/tickets/export`, CSV) alone, with a CSV reader
//! and integer arithmetic of this file's own and none of the platform's functions, every
//! figure of a settlement report is computed again: its lines (stake, payout, refund,
//! GGR, the share at each ticket's frozen BPS truncated toward zero, as docs/decisions.md
//! states), their sums, the amount due, who pays it and when, the overview's totals and a
//! report's balance after corrections and payments.

use std::collections::{BTreeSet, HashMap};

use sha2::{Digest, Sha256};

use serde_json::{Value, json};
use time::format_description::well_known::Rfc3339;
use time::{Duration, OffsetDateTime};

/// RFC 4180 records of `text`: quoted fields may hold commas, quotes (doubled) and line
/// ends; records end with CRLF or LF.
pub fn parse_csv(text: &str) -> Vec<Vec<String>> {
    let mut records = Vec::new();
    let mut record = Vec::new();
    let mut field = String::new();
    let mut quoted = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                chars.next();
                field.push('"');
            }
            (true, '"') => quoted = false,
            (true, c) => field.push(c),
            (false, '"') if field.is_empty() => quoted = true,
            (false, ',') => record.push(std::mem::take(&mut field)),
            (false, '\r') if chars.peek() == Some(&'\n') => {}
            (false, '\n') => {
                record.push(std::mem::take(&mut field));
                records.push(std::mem::take(&mut record));
            }
            (false, c) => field.push(c),
        }
    }
    assert!(!quoted, "a quoted field never ends");
    if !field.is_empty() || !record.is_empty() {
        record.push(field);
        records.push(record);
    }
    records
}

/// The rows of a CSV with a header, each as column name → value.
pub fn csv_rows(text: &str) -> Vec<HashMap<String, String>> {
    let mut records = parse_csv(text).into_iter();
    let header = records.next().expect("a header row");
    records
        .map(|record| {
            assert_eq!(record.len(), header.len(), "a row of the header's width: {record:?}");
            header.iter().cloned().zip(record).collect()
        })
        .collect()
}

fn integer(text: &str) -> i64 {
    text.parse().unwrap_or_else(|_| panic!("an integer: {text:?}"))
}

/// An RFC 3339 instant.
pub fn instant(text: &str) -> OffsetDateTime {
    OffsetDateTime::parse(text, &Rfc3339).unwrap_or_else(|_| panic!("an RFC 3339 instant: {text:?}"))
}

/// One row of the ticket export, as the operator reads it.
#[derive(Debug, Clone)]
pub struct ExportedTicket {
    pub id: String,
    pub flight_id: String,
    pub user_id: String,
    pub external_user_id: String,
    pub status: String,
    pub stake: i64,
    pub payout: Option<i64>,
    pub cash_out_multiplier: Option<String>,
    pub share_bps: i64,
    pub purchased_at: OffsetDateTime,
    /// `purchasedAt` as written, what a ticket line's leaf carries.
    pub purchased_at_text: String,
}

/// Every ticket of a ticket export.
pub fn exported_tickets(csv: &str) -> Vec<ExportedTicket> {
    csv_rows(csv)
        .into_iter()
        .map(|row| {
            let optional = |name: &str| Some(row[name].clone()).filter(|value| !value.is_empty());
            assert_eq!(row["currency"], "IDR", "{row:?}");
            ExportedTicket {
                id: row["id"].clone(),
                flight_id: row["flightId"].clone(),
                user_id: row["userId"].clone(),
                external_user_id: row["externalUserId"].clone(),
                status: row["status"].clone(),
                stake: integer(&row["stake"]),
                payout: optional("payout").as_deref().map(integer),
                cash_out_multiplier: optional("cashOutMultiplier"),
                share_bps: integer(&row["shareBps"]),
                purchased_at: instant(&row["purchasedAt"]),
                purchased_at_text: row["purchasedAt"].clone(),
            }
        })
        .collect()
}

/// `floor(stake × multiplier)` with the multiplier as its two-decimal string.
pub fn payout_at(stake: i64, multiplier: &str) -> i64 {
    let (whole, cents) = multiplier.split_once('.').expect("two decimals");
    assert_eq!(cents.len(), 2, "{multiplier}");
    stake * (integer(whole) * 100 + integer(cents)) / 100
}

/// `ggr × bps / 10 000` truncated toward zero (150.75 is 150, −150.75 is −150), written
/// on magnitudes so it says the rule rather than rely on the language's division.
pub fn truncated_share(ggr: i64, bps: i64) -> i64 {
    let magnitude = ggr.abs() * bps / 10_000;
    if ggr < 0 { -magnitude } else { magnitude }
}

/// One ticket line of a report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    pub ticket_id: String,
    pub flight_id: String,
    pub external_user_id: String,
    pub purchased_at: OffsetDateTime,
    pub purchased_at_text: String,
    pub outcome: &'static str,
    pub stake: i64,
    pub payout: i64,
    pub refund: i64,
    pub ggr: i64,
    pub share_bps: i64,
    pub share: i64,
}

/// The ticket's line, or `None` when its money was not decided or never moved.
pub fn line_of(ticket: &ExportedTicket) -> Option<Line> {
    let (outcome, payout, refund) = match ticket.status.as_str() {
        "lost" => ("lost", 0, 0),
        "cashed_out" => ("cashed_out", ticket.payout.expect("a cashed-out ticket's payout"), 0),
        "refunding" | "refunded" => ("refunded", 0, ticket.stake),
        "rejected" => return None,
        other => panic!("a settled month holds no {other} ticket"),
    };
    let ggr = ticket.stake - payout - refund;
    Some(Line {
        ticket_id: ticket.id.clone(),
        flight_id: ticket.flight_id.clone(),
        external_user_id: ticket.external_user_id.clone(),
        purchased_at: ticket.purchased_at,
        purchased_at_text: ticket.purchased_at_text.clone(),
        outcome,
        stake: ticket.stake,
        payout,
        refund,
        ggr,
        share_bps: ticket.share_bps,
        share: truncated_share(ggr, ticket.share_bps),
    })
}

/// Who owes a signed amount (positive: the operator owes the platform).
pub fn direction_of(signed: i64) -> &'static str {
    match signed.signum() {
        1 => "operator_to_platform",
        -1 => "platform_to_operator",
        _ => "none",
    }
}

/// A report as the operator computes it.
#[derive(Debug)]
pub struct Expected {
    pub period: String,
    pub period_start: OffsetDateTime,
    pub period_end: OffsetDateTime,
    /// In purchase order (instant, then id).
    pub lines: Vec<Line>,
    pub stakes: i64,
    pub payouts: i64,
    pub refunds: i64,
    pub ggr: i64,
    pub share: i64,
    pub due_date: String,
}

impl Expected {
    /// The report of the tickets bought in `[start, end)`, due `due_days` after `end`.
    pub fn of(tickets: &[ExportedTicket], start: OffsetDateTime, end: OffsetDateTime, due_days: i16) -> Self {
        let mut lines: Vec<Line> = tickets
            .iter()
            .filter(|ticket| start <= ticket.purchased_at && ticket.purchased_at < end)
            .filter_map(line_of)
            .collect();
        lines.sort_by(|a, b| (a.purchased_at, &a.ticket_id).cmp(&(b.purchased_at, &b.ticket_id)));
        let sum = |field: fn(&Line) -> i64| lines.iter().map(field).sum::<i64>();
        Self {
            period: format!("{}-{:02}", start.year(), u8::from(start.month())),
            period_start: start,
            period_end: end,
            stakes: sum(|line| line.stake),
            payouts: sum(|line| line.payout),
            refunds: sum(|line| line.refund),
            ggr: sum(|line| line.ggr),
            share: sum(|line| line.share),
            due_date: (end.date() + Duration::days(i64::from(due_days))).to_string(),
            lines,
        }
    }

    pub fn amount_due(&self) -> i64 {
        self.share.abs()
    }

    pub fn direction(&self) -> &'static str {
        direction_of(self.share)
    }

    /// The ticket ids of its lines.
    pub fn ticket_ids(&self) -> BTreeSet<&str> {
        self.lines.iter().map(|line| line.ticket_id.as_str()).collect()
    }
}

/// The overview's `totals` of the tickets bought in `[from, to)`.
pub fn window_totals(tickets: &[ExportedTicket], from: OffsetDateTime, to: OffsetDateTime) -> Value {
    let window: Vec<&ExportedTicket> = tickets
        .iter()
        .filter(|ticket| from <= ticket.purchased_at && ticket.purchased_at < to)
        .collect();
    let staked = |ticket: &&&ExportedTicket| {
        ["active", "cashed_out", "lost", "refunding", "refunded"].contains(&ticket.status.as_str())
    };
    let refunded = |ticket: &&&ExportedTicket| ["refunding", "refunded"].contains(&ticket.status.as_str());
    let stakes: i64 = window.iter().filter(staked).map(|ticket| ticket.stake).sum();
    let payouts: i64 = window.iter().filter_map(|ticket| ticket.payout).sum();
    let refunds: i64 = window.iter().filter(refunded).map(|ticket| ticket.stake).sum();
    let players: BTreeSet<&str> = window.iter().map(|ticket| ticket.user_id.as_str()).collect();
    let unsettled = window
        .iter()
        .filter(|ticket| ["pending", "active", "review"].contains(&ticket.status.as_str()))
        .count();
    json!({
        "tickets": window.len(),
        "players": players.len(),
        "unsettledTickets": unsettled,
        "stakes": stakes.to_string(),
        "payouts": payouts.to_string(),
        "refunds": refunds.to_string(),
        "ggr": (stakes - payouts - refunds).to_string(),
        "currency": "IDR",
    })
}

/// A finalized report's `balance`: its share with `corrections`, less what was paid each way.
pub fn balance(share: i64, corrections: i64, to_platform: i64, to_operator: i64) -> Value {
    let corrected = share + corrections;
    let remaining = corrected - to_platform + to_operator;
    json!({
        "corrections": corrections.to_string(),
        "correctedAmountDue": corrected.abs().to_string(),
        "correctedDirection": direction_of(corrected),
        "paidToPlatform": to_platform.to_string(),
        "paidToOperator": to_operator.to_string(),
        "remainingDue": remaining.abs().to_string(),
        "remainingDirection": direction_of(remaining),
    })
}

/// HMAC-SHA256 (RFC 2104) over SHA-256, for a key of at most one block.
pub fn hmac_sha256(key: &[u8], message: &[u8]) -> [u8; 32] {
    assert!(key.len() <= 64, "a key of one block");
    let mut block = [0u8; 64];
    block[..key.len()].copy_from_slice(key);
    let pad = |byte: u8| block.iter().map(|k| k ^ byte).collect::<Vec<u8>>();
    let inner = Sha256::new().chain_update(pad(0x36)).chain_update(message).finalize();
    Sha256::new()
        .chain_update(pad(0x5c))
        .chain_update(inner)
        .finalize()
        .into()
}

/// Lower-case hex digits as bytes.
pub fn unhex(text: &str) -> Vec<u8> {
    assert!(text.len().is_multiple_of(2), "{text}");
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&text[i..i + 2], 16).expect("hex"))
        .collect()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The line's v5 leaf as canonical JSON (sorted keys, no white space; every value here
/// is plain ASCII), its player tagged with the statement's key.
pub fn leaf_json(line: &Line, player_key: &[u8]) -> String {
    let tag = hex(&hmac_sha256(player_key, line.external_user_id.as_bytes()));
    let money = |amount: i64| format!(r#"{{"amount":"{amount}","currency":"IDR"}}"#);
    format!(
        r#"{{"flightId":"{}","ggr":{},"outcome":"{}","payout":{},"playerTag":"{tag}","purchasedAt":"{}","refund":{},"share":{},"shareBps":{},"stake":{},"ticketId":"{}"}}"#,
        line.flight_id,
        money(line.ggr),
        line.outcome,
        money(line.payout),
        line.purchased_at_text,
        money(line.refund),
        money(line.share),
        line.share_bps,
        money(line.stake),
        line.ticket_id,
    )
}

/// The RFC 6962 root of these leaves' JSON: leaf `SHA-256(0x00 ‖ json)`, node
/// `SHA-256(0x01 ‖ left ‖ right)`, split at the largest power of two below the count.
pub fn merkle_root(leaves: &[String]) -> String {
    fn root(leaves: &[String]) -> [u8; 32] {
        match leaves.len() {
            0 => Sha256::digest(b"").into(),
            1 => Sha256::new()
                .chain_update([0])
                .chain_update(&leaves[0])
                .finalize()
                .into(),
            n => {
                let mut split = 1;
                while split * 2 < n {
                    split *= 2;
                }
                Sha256::new()
                    .chain_update([1])
                    .chain_update(root(&leaves[..split]))
                    .chain_update(root(&leaves[split..]))
                    .finalize()
                    .into()
            }
        }
    }
    hex(&root(leaves))
}

#[test]
fn the_operators_own_arithmetic_says_the_documented_rules() {
    assert_eq!(truncated_share(100_500, 150), 1_507, "1 507.5 is 1 507");
    assert_eq!(truncated_share(-100_500, 150), -1_507, "−1 507.5 is −1 507, not −1 508");
    assert_eq!(payout_at(999, "1.52"), 1_518);
    assert_eq!(payout_at(10_000, "3.46"), 34_600);
    assert_eq!(
        parse_csv("a,\"b, \"\"c\"\"\",\r\n\"x\r\ny\",z,\r\n"),
        [vec!["a", "b, \"c\"", ""], vec!["x\r\ny", "z", ""]]
    );
    assert_eq!(balance(-10, 4, 0, 6)["remainingDirection"], "none");
    assert_eq!(
        hex(&hmac_sha256(b"key", b"The quick brown fox jumps over the lazy dog")),
        "f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8",
        "RFC 4231-style vector"
    );
    assert_eq!(
        merkle_root(&[]),
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    );
    assert_eq!(
        merkle_root(&[String::new()]),
        "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
        "RFC 6962's one empty leaf"
    );
}
