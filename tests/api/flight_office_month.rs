//! A month of flight play for two operators, settled end to end, every read checked
//! against the operators' own recomputation from the ticket export alone
//! (`flight_month_ledger`): the open and finalized report reads, the report list, the
//! signed statement documents and their ticket lines, the overview's totals, both
//! statements verified with `opinion admin statement verify` and the published Python
//! script, then a correction and two payments of the first operator's report with its
//! balance, the payment routes and the four back-office events.
//!
//! The first operator's share changes in the middle of the month. `opinion admin flight
//! terms schedule` refuses a change off a period boundary (checked here), so that version
//! is seeded; what the command schedules (the next month) must reprice nothing.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use time::Duration;
use time::format_description::well_known::Rfc3339;

use crate::admin_settlement::{admin, admin_fails};
use crate::flight_month_ledger::{
    Expected, ExportedTicket, balance, csv_rows, exported_tickets, leaf_json, merkle_root, payout_at, unhex,
};
use crate::flight_month_play::{
    CHANGE, NOVEMBER, OCTOBER, TERMS_A, TERMS_B, TermsPlan, given_month_of_flights, given_month_of_play,
};
use crate::flight_office_corrections::{correct, events_data};
use crate::flight_office_reports::export_bytes;
use crate::flight_office_verify::{published_keys, run_python, scratch};
use crate::helpers::{TestApp, TestOperator, json_with_status, spawn_app};
use crate::trading_seed::seeder;

const REPORTS: &str = "/api/operator/flight/settlement-reports";
const SCOPES: [&str; 3] = ["flight:read", "flight_terms:read", "flight_settlements:read"];
const SEPTEMBER: time::OffsetDateTime = time::macros::datetime!(2026-09-01 00:00 UTC);
const DECEMBER: time::OffsetDateTime = time::macros::datetime!(2026-12-01 00:00 UTC);

/// One operator of the story: its key, what was seeded, and what its export says.
struct Book {
    operator: TestOperator,
    key: String,
    terms: TermsPlan,
    seeded: BTreeSet<String>,
    tickets: Vec<ExportedTicket>,
}

impl Book {
    /// The report of the month starting at `start`, as the operator computes it: due by
    /// the terms in force at the period's last instant.
    fn expected(&self, start: time::OffsetDateTime, end: time::OffsetDateTime) -> Expected {
        let due_days = self.terms.due_days_at(end - Duration::milliseconds(1));
        Expected::of(&self.tickets, start, end, due_days)
    }

    fn october(&self) -> Expected {
        self.expected(OCTOBER, NOVEMBER)
    }
}

fn rfc3339(at: time::OffsetDateTime) -> String {
    at.format(&Rfc3339).expect("format")
}

/// The operator's whole ticket export, read as CSV.
async fn ticket_export(app: &TestApp, key: &str) -> Vec<ExportedTicket> {
    let (content_type, bytes) = export_bytes(app, "/api/operator/flight/tickets/export", key).await;
    assert!(content_type.starts_with("text/csv"), "{content_type}");
    exported_tickets(&String::from_utf8(bytes).expect("UTF-8"))
}

/// Every figure a report read and a report list item carry.
fn assert_figures(read: &Value, expected: &Expected) {
    let period = &expected.period;
    assert_eq!(read["period"], period.as_str(), "{read}");
    assert_eq!(read["periodStart"], rfc3339(expected.period_start), "{period}");
    assert_eq!(read["periodEnd"], rfc3339(expected.period_end), "{period}");
    assert_eq!(read["ticketCount"], expected.lines.len(), "{period}");
    assert_eq!(read["stakes"], expected.stakes.to_string(), "{period}");
    assert_eq!(read["payouts"], expected.payouts.to_string(), "{period}");
    assert_eq!(read["refunds"], expected.refunds.to_string(), "{period}");
    assert_eq!(read["ggr"], expected.ggr.to_string(), "{period}");
    assert_eq!(read["share"], expected.share.to_string(), "{period}");
    assert_eq!(read["amountDue"], expected.amount_due().to_string(), "{period}");
    assert_eq!(read["direction"], expected.direction(), "{period}");
    assert_eq!(read["currency"], "IDR", "{period}");
    assert_eq!(read["dueDate"], expected.due_date.as_str(), "{period}");
}

fn money(amount: i64) -> Value {
    json!([{"amount": amount.to_string(), "currency": "IDR"}])
}

/// Every figure of the signed statement document.
fn assert_statement(document: &Value, expected: &Expected, operator: &TestOperator, report: &str) {
    assert_eq!(document["type"], "flight_settlement_statement");
    assert_eq!(document["operatorId"], operator.id.to_string());
    assert_eq!(document["reportId"], report);
    assert_eq!(document["periodStart"], rfc3339(expected.period_start));
    assert_eq!(document["periodEnd"], rfc3339(expected.period_end));
    assert_eq!(document["ticketCount"], expected.lines.len());
    assert_eq!(document["leafCount"], expected.lines.len());
    assert_eq!(document["stakes"], money(expected.stakes));
    assert_eq!(document["payouts"], money(expected.payouts));
    assert_eq!(document["refunds"], money(expected.refunds));
    assert_eq!(document["ggr"], money(expected.ggr));
    assert_eq!(document["share"], money(expected.share));
    assert_eq!(
        document["amountDue"],
        json!({"amount": expected.amount_due().to_string(), "currency": "IDR"})
    );
    assert_eq!(document["direction"], expected.direction());
    assert_eq!(document["dueDate"], expected.due_date.as_str());
    assert_eq!(document["currency"], "IDR");
    assert_eq!(document["proofVersion"], 5);
    assert_eq!(document["sequence"], 1, "each operator's chain starts with it");
    assert_eq!(document["previousHash"], Value::Null);
}

/// The statement's ticket lines, one by one, against the lines computed from the export.
fn assert_lines(csv: &str, expected: &Expected) {
    let rows = csv_rows(csv);
    assert_eq!(rows.len(), expected.lines.len(), "one row per line");
    for (row, line) in rows.iter().zip(&expected.lines) {
        let at = &line.ticket_id;
        assert_eq!(row["ticketId"], line.ticket_id, "purchase order");
        assert_eq!(row["flightId"], line.flight_id, "{at}");
        assert_eq!(row["externalUserId"], line.external_user_id, "{at}");
        assert_eq!(
            row["purchasedAt"], line.purchased_at_text,
            "{at}: as the ticket export writes it"
        );
        assert_eq!(row["outcome"], line.outcome, "{at}");
        for (column, value) in [
            ("stake", line.stake),
            ("payout", line.payout),
            ("refund", line.refund),
            ("ggr", line.ggr),
            ("shareBps", line.share_bps),
            ("share", line.share),
        ] {
            assert_eq!(row[column], value.to_string(), "{at} {column}");
        }
    }
}

/// The statement's v5 tree, rebuilt from the ticket export and the export's player key:
/// its root and size, and the inclusion proofs of the first and last lines.
async fn assert_tree(app: &TestApp, book: &Book, export: &Value, expected: &Expected) {
    let player_key = unhex(export["playerKey"].as_str().expect("the player key"));
    assert_eq!(player_key.len(), 32);
    let leaves: Vec<String> = expected.lines.iter().map(|line| leaf_json(line, &player_key)).collect();
    let document = &export["statement"]["document"];
    assert_eq!(document["merkleRoot"], merkle_root(&leaves));
    for index in [0, leaves.len() - 1] {
        let path = format!("/api/operator/flight/tickets/{}/proof", expected.lines[index].ticket_id);
        let proof = json_with_status(app.get(&path, &book.key).await, 200).await;
        let leaf: Value = serde_json::from_str(&leaves[index]).expect("JSON");
        assert_eq!(proof["line"], leaf, "{path}");
        assert_eq!(
            (&proof["leafIndex"], &proof["treeSize"]),
            (&json!(index), &json!(leaves.len()))
        );
        assert_eq!(proof["merkleRoot"], document["merkleRoot"]);
    }
}

/// The month was played so that the rounding rule matters: lines whose exact share has a
/// fraction on both signs (where flooring would differ from truncating), a positive one at
/// half or more (where rounding would), and a total that is not the rounding of the
/// summed GGR.
fn assert_rounding_bites(expected: &Expected, single_bps: Option<i64>) {
    let fraction = |line: &&crate::flight_month_ledger::Line| line.ggr * line.share_bps % 10_000;
    let positive = expected.lines.iter().filter(|l| l.ggr > 0 && fraction(l) != 0).count();
    let negative = expected.lines.iter().filter(|l| l.ggr < 0 && fraction(l) != 0).count();
    let half_up = expected
        .lines
        .iter()
        .filter(|l| l.ggr > 0 && fraction(l) >= 5_000)
        .count();
    assert!(
        positive > 10 && negative > 10 && half_up > 5,
        "{positive} {negative} {half_up}"
    );
    if let Some(bps) = single_bps {
        assert_ne!(
            expected.share,
            expected.ggr * bps / 10_000,
            "the share is the sum of rounded lines"
        );
    }
}

/// `opinion admin flight payment record` against the first operator's October report.
async fn pay(app: &TestApp, amount: i64, direction: &str, reference: &str) -> Value {
    let operator = app.operator.id.to_string();
    let amount = amount.to_string();
    admin(
        app,
        &[
            "flight",
            "payment",
            "record",
            "--operator",
            &operator,
            "--report",
            "2026-10",
            "--amount",
            &amount,
            "--direction",
            direction,
            "--paid-on",
            "2026-11-20",
            "--reference",
            reference,
            "--by",
            "Ana",
        ],
    )
    .await
}

/// `opinion admin flight terms schedule` of the first operator's terms from `at`.
async fn schedule(app: &TestApp, at: &str) -> Result<Value, String> {
    let operator = app.operator.id.to_string();
    let args = [
        "flight",
        "terms",
        "schedule",
        "--operator",
        &operator,
        "--share-bps",
        "1100",
        "--min-stake",
        "1000",
        "--max-stake",
        "5000000",
        "--max-payout",
        "500000000",
        "--payment-due-days",
        "25",
        "--by",
        "Ana",
        "--effective-from",
        at,
    ];
    crate::admin_settlement::admin_result(app, &args).await
}

/// The first period boundary after now, the earliest a version can be scheduled for.
fn next_boundary() -> time::OffsetDateTime {
    let today = time::OffsetDateTime::now_utc().date();
    let (year, month) = match today.month() {
        time::Month::December => (today.year() + 1, time::Month::January),
        month => (today.year(), month.next()),
    };
    time::Date::from_calendar_date(year, month, 1)
        .expect("a date")
        .midnight()
        .assume_utc()
}

fn path(file: &std::path::Path) -> &str {
    file.to_str().expect("a UTF-8 path")
}

async fn given_the_month(app: &TestApp) -> (Book, Book) {
    let second = app.new_operator("Second").await;
    let mut seed = seeder(app).await;
    given_month_of_flights(&mut seed).await;
    let players_a = ["a-ayu", "a-budi", "Dewi, \"VIP\" Ω", "shared-7", "a-eko", "a-citra"];
    let players_b = ["b-fajar", "shared-7", "b-gita", "b-hadi", "b-indah"];
    let played_a = given_month_of_play(&mut seed, &app.operator, TERMS_A, &players_a, 1_000, 0x0005_eeda).await;
    let played_b = given_month_of_play(&mut seed, &second, TERMS_B, &players_b, 5_000, 0x0005_eedb).await;
    let key_a = app.key_with(&SCOPES).await;
    let key_b = app.key_of(&second, &SCOPES).await;
    let a = Book {
        operator: app.operator.clone(),
        tickets: ticket_export(app, &key_a).await,
        key: key_a,
        terms: TERMS_A,
        seeded: played_a.ticket_ids.into_iter().collect(),
    };
    let b = Book {
        operator: second,
        tickets: ticket_export(app, &key_b).await,
        key: key_b,
        terms: TERMS_B,
        seeded: played_b.ticket_ids.into_iter().collect(),
    };
    (a, b)
}

/// Each export holds exactly its operator's tickets, as seeded: frozen shares on either
/// side of the change, payouts at their multiplier.
fn assert_exports_are_the_operators_own(a: &Book, b: &Book) {
    for book in [a, b] {
        let exported: BTreeSet<String> = book.tickets.iter().map(|t| t.id.clone()).collect();
        assert_eq!(exported, book.seeded, "exactly the operator's tickets");
        assert_eq!(exported.len(), book.tickets.len(), "each once");
        for ticket in &book.tickets {
            assert_eq!(
                ticket.share_bps,
                i64::from(book.terms.bps_at(ticket.purchased_at)),
                "{ticket:?}"
            );
            if let Some(multiplier) = &ticket.cash_out_multiplier {
                assert_eq!(ticket.payout, Some(payout_at(ticket.stake, multiplier)), "{ticket:?}");
            }
        }
    }
    assert!(a.seeded.is_disjoint(&b.seeded));
    for book in [a, b] {
        let october = book.october();
        let instants: BTreeSet<_> = october.lines.iter().map(|line| line.purchased_at).collect();
        assert!(instants.contains(&OCTOBER) && instants.contains(&(NOVEMBER - Duration::milliseconds(1))));
        assert!(!instants.contains(&NOVEMBER) && !instants.contains(&(OCTOBER - Duration::milliseconds(1))));
        assert!(
            october.lines.len() > 250,
            "a few hundred lines: {}",
            october.lines.len()
        );
    }
    let october_bps: BTreeSet<i64> = a.october().lines.iter().map(|line| line.share_bps).collect();
    assert_eq!(
        october_bps,
        BTreeSet::from([1_333, 1_500]),
        "two frozen shares in one month"
    );
}

#[tokio::test]
async fn a_month_of_two_operators_settles_and_every_figure_matches_the_operators_own_books() {
    let app = spawn_app().await;
    let (a, b) = given_the_month(&app).await;
    assert_exports_are_the_operators_own(&a, &b);

    let boundary = next_boundary();
    let mid_month = rfc3339(boundary + Duration::days(15) + Duration::hours(12));
    let refused = schedule(&app, &mid_month).await.expect_err("off a boundary");
    assert!(refused.contains("start of a settlement period"), "{refused}");
    let refused = schedule(&app, &rfc3339(CHANGE)).await.expect_err("in the past");
    assert!(refused.contains("effective"), "{refused}");
    let scheduled = schedule(&app, &rfc3339(boundary)).await.expect("scheduled");

    for book in [&a, &b] {
        let october = book.october();
        assert_rounding_bites(
            &october,
            book.terms
                .changed_bps
                .is_none()
                .then_some(i64::from(book.terms.share_bps)),
        );
        let open = json_with_status(app.get(&format!("{REPORTS}/2026-10"), &book.key).await, 200).await;
        assert_eq!((&open["status"], &open["id"]), (&json!("open"), &Value::Null));
        assert_eq!(open["blockers"], json!([]), "ended, every ticket settled");
        assert_figures(&open, &october);
    }
    let mut finalized = BTreeMap::new();
    for book in [&a, &b] {
        let operator = book.operator.id.to_string();
        let done = admin(
            &app,
            &["flight", "finalize", "--operator", &operator, "--period", "2026-10"],
        )
        .await;
        assert_eq!(done["alreadyFinalized"], false);
        finalized.insert(operator, done["reportId"].as_str().expect("an id").to_owned());
    }

    let dir = scratch("month");
    let keys = published_keys(&app, &dir).await;
    let mut statements = Vec::new();
    for book in [&a, &b] {
        let operator = book.operator.id.to_string();
        let report = &finalized[&operator];
        let october = book.october();
        let read = json_with_status(app.get(&format!("{REPORTS}/{report}"), &book.key).await, 200).await;
        let by_period = json_with_status(app.get(&format!("{REPORTS}/2026-10"), &book.key).await, 200).await;
        assert_eq!(read, by_period);
        assert_eq!((&read["status"], &read["id"]), (&json!("finalized"), &json!(report)));
        assert_eq!(read["blockers"], json!([]));
        assert_figures(&read, &october);
        assert_eq!(read["balance"], balance(october.share, 0, 0, 0));
        let document = &read["statement"]["document"];
        assert_statement(document, &october, &book.operator, report);

        let listed = json_with_status(app.get(REPORTS, &book.key).await, 200).await;
        let items = listed["data"].as_array().expect("data");
        let periods: Vec<&str> = items.iter().map(|r| r["period"].as_str().expect("period")).collect();
        assert_eq!(periods, ["2026-11", "2026-10", "2026-09"], "every month with a ticket");
        for (item, (start, end)) in items
            .iter()
            .zip([(NOVEMBER, DECEMBER), (OCTOBER, NOVEMBER), (SEPTEMBER, OCTOBER)])
        {
            assert_figures(item, &book.expected(start, end));
        }
        assert_eq!(items[1]["statementHash"], read["statementHash"]);
        assert_eq!(items[1]["balance"], read["balance"]);
        assert_eq!(items[2]["ticketCount"], 1, "September's last millisecond");
        assert_eq!(items[2]["status"], "open");

        let window = format!("from={}&to={}", rfc3339(OCTOBER), rfc3339(NOVEMBER));
        let overview = json_with_status(
            app.get(&format!("/api/operator/flight/overview?{window}"), &book.key)
                .await,
            200,
        )
        .await;
        assert_eq!(
            overview["totals"],
            crate::flight_month_ledger::window_totals(&book.tickets, OCTOBER, NOVEMBER)
        );
        let (_, month) = export_bytes(
            &app,
            &format!("/api/operator/flight/tickets/export?{window}"),
            &book.key,
        )
        .await;
        let month: BTreeSet<String> = exported_tickets(&String::from_utf8(month).expect("UTF-8"))
            .into_iter()
            .map(|ticket| ticket.id)
            .collect();
        let bought_in_october: BTreeSet<String> = book
            .tickets
            .iter()
            .filter(|ticket| OCTOBER <= ticket.purchased_at && ticket.purchased_at < NOVEMBER)
            .map(|ticket| ticket.id.clone())
            .collect();
        assert_eq!(month, bought_in_october, "the export of the period's window");
        let in_force = book.terms.changed_bps.unwrap_or(book.terms.share_bps);
        assert_eq!(overview["terms"]["shareBps"], in_force, "the terms in force now");

        let (_, bytes) = export_bytes(&app, &format!("{REPORTS}/{report}/export"), &book.key).await;
        let export = dir.join(format!("{operator}.json"));
        std::fs::write(&export, &bytes).expect("written");
        let whole: Value = serde_json::from_slice(&bytes).expect("JSON");
        assert_eq!(whole["statement"], read["statement"]);
        let lines = whole["lines"].as_str().expect("the lines");
        assert_eq!(
            format!("{:x}", Sha256::digest(lines.as_bytes())),
            document["linesSha256"].as_str().expect("hash")
        );
        assert_lines(lines, &october);
        assert_tree(&app, book, &whole, &october).await;
        let theirs = if book.operator.id == a.operator.id { &b } else { &a };
        assert!(
            october
                .ticket_ids()
                .is_disjoint(&theirs.seeded.iter().map(String::as_str).collect()),
            "no ticket of the other operator"
        );

        let verified = admin(&app, &["statement", "verify", path(&export), "--keys", path(&keys)]).await;
        assert_eq!(verified["verified"], true, "{verified}");
        assert_eq!(verified["lines"], "matches");
        assert_eq!(verified["chain"], "first of the chain");
        assert_eq!(
            verified["proof"],
            format!(
                "merkleRoot and leafCount ({}) recomputed from the lines",
                october.lines.len()
            )
        );
        assert_eq!(verified["totals"], "the lines sum to the signed totals and amount due");
        let output = run_python(&[path(&export), "--keys", path(&keys)]);
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(output.status.success() && !stdout.contains("FAIL"), "{stdout}");
        statements.push((export, read));
    }

    let finalized_events = events_data(&app, "mini_app.flight.settlement_report.finalized").await;
    assert_eq!(finalized_events.len(), 2, "one per operator");
    for (book, (_, read)) in [&a, &b].into_iter().zip(&statements) {
        let october = book.october();
        let event = finalized_events
            .iter()
            .find(|event| event["reportId"] == read["id"])
            .expect("the report's event");
        assert_eq!(
            *event,
            json!({
                "reportId": read["id"],
                "periodStart": rfc3339(OCTOBER),
                "periodEnd": rfc3339(NOVEMBER),
                "ticketCount": october.lines.len(),
                "stakes": october.stakes.to_string(),
                "payouts": october.payouts.to_string(),
                "refunds": october.refunds.to_string(),
                "ggr": october.ggr.to_string(),
                "share": october.share.to_string(),
                "amountDue": october.amount_due().to_string(),
                "direction": october.direction(),
                "dueDate": october.due_date,
                "currency": "IDR",
                "statementHash": read["statementHash"],
                "finalizedAt": read["finalizedAt"],
            })
        );
    }
    let terms_events = events_data(&app, "mini_app.flight.terms.scheduled").await;
    assert_eq!(terms_events.len(), 1, "only what the command accepted");
    assert_eq!(terms_events[0]["termsId"], scheduled["termsId"]);
    assert_eq!(terms_events[0]["effectiveFrom"], rfc3339(boundary));
    assert_eq!(terms_events[0]["shareBps"], 1_100);
    assert_eq!(terms_events[0]["paymentDueDays"], 25);

    settle_the_first_operators_report(&app, &a, &b, &statements[0].0, &dir).await;
    std::fs::remove_dir_all(dir).ok();
}

/// A correction, then two payments (the second exactly what remains) of the first
/// operator's October report, checked against its own books at every step.
async fn settle_the_first_operators_report(
    app: &TestApp,
    a: &Book,
    b: &Book,
    statement: &std::path::Path,
    dir: &std::path::Path,
) {
    let october = a.october();
    let read = json_with_status(app.get(&format!("{REPORTS}/2026-10"), &a.key).await, 200).await;
    let report = read["id"].as_str().expect("an id").to_owned();
    let change = -1_234;
    let issued = correct(app, "2026-10", &change.to_string()).await;
    let document = &issued["document"]["document"];
    let corrected = october.share + change;
    assert_eq!(
        document["amountChange"],
        json!({"amount": change.to_string(), "currency": "IDR"})
    );
    assert_eq!(
        document["amountDueBefore"],
        json!({"amount": october.amount_due().to_string(), "currency": "IDR"})
    );
    assert_eq!(document["directionBefore"], october.direction());
    assert_eq!(
        document["amountDue"],
        json!({"amount": corrected.abs().to_string(), "currency": "IDR"})
    );
    assert_eq!(
        document["direction"],
        crate::flight_month_ledger::direction_of(corrected)
    );
    assert_eq!(
        (&document["sequence"], &document["statementSequence"]),
        (&json!(2), &json!(1))
    );
    assert_eq!(document["statementHash"], read["statementHash"]);
    let signed = &read["statement"]["document"];
    assert_eq!(
        (&document["merkleRoot"], &document["leafCount"]),
        (&signed["merkleRoot"], &signed["leafCount"])
    );

    let corrections = json_with_status(app.get("/api/operator/flight/statement-corrections", &a.key).await, 200).await;
    assert_eq!(corrections["data"].as_array().map(Vec::len), Some(1));
    assert_eq!(corrections["data"][0]["amountChange"], change.to_string());
    let none = json_with_status(app.get("/api/operator/flight/statement-corrections", &b.key).await, 200).await;
    assert_eq!(none["data"], json!([]));
    let listed = dir.join("correction.json");
    std::fs::write(&listed, serde_json::to_vec(&corrections["data"][0]).expect("JSON")).expect("written");
    let verified = admin(
        app,
        &["statement", "verify", path(&listed), "--previous", path(statement)],
    )
    .await;
    assert_eq!(verified["chain"], "follows the previous document", "{verified}");
    assert_eq!(
        verified["arithmetic"],
        "amountDue is amountDueBefore moved by amountChange"
    );
    assert_eq!(verified["amendment"], "names the amended statement and its tree");
    let keys = dir.join("keys.json");
    let output = run_python(&[path(&listed), "--keys", path(&keys), "--previous", path(statement)]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success() && !stdout.contains("FAIL"), "{stdout}");

    let owed = crate::flight_month_ledger::direction_of(corrected);
    let (first, rest) = (corrected.abs() / 3, corrected.abs() - corrected.abs() / 3);
    assert!(first > 0, "something to pay in two parts");
    let paid = |amount: i64| if corrected > 0 { (amount, 0) } else { (0, amount) };
    let expected_after = |amount: i64| {
        let (to_platform, to_operator) = paid(amount);
        balance(october.share, change, to_platform, to_operator)
    };
    let after_correction = json_with_status(app.get(&format!("{REPORTS}/{report}"), &a.key).await, 200).await;
    assert_eq!(after_correction["balance"], expected_after(0));
    assert_eq!(
        after_correction["share"],
        october.share.to_string(),
        "the statement never changes"
    );

    let one = pay(app, first, owed, "BCA-MONTH-0001").await;
    assert_eq!(one["remainingDue"], rest.to_string());
    assert_eq!(one["remainingDirection"], owed);
    let middle = json_with_status(app.get(&format!("{REPORTS}/{report}"), &a.key).await, 200).await;
    assert_eq!(middle["balance"], expected_after(first));
    let two = pay(app, rest, owed, "BCA-MONTH-0002").await;
    assert_eq!(
        (&two["remainingDue"], &two["remainingDirection"]),
        (&json!("0"), &json!("none"))
    );
    let settled = json_with_status(app.get(&format!("{REPORTS}/{report}"), &a.key).await, 200).await;
    assert_eq!(settled["balance"], expected_after(first + rest));
    let more = admin_fails(
        app,
        &[
            "flight",
            "payment",
            "record",
            "--operator",
            &a.operator.id.to_string(),
            "--report",
            "2026-10",
            "--amount",
            "1",
            "--direction",
            owed,
            "--paid-on",
            "2026-11-20",
            "--reference",
            "BCA-MONTH-0003",
            "--by",
            "Ana",
        ],
    )
    .await;
    assert!(more.contains("payment_exceeds_due"), "{more}");

    let history = json_with_status(app.get("/api/operator/flight/payments", &a.key).await, 200).await;
    let item = |payment: &Value, amount: i64, remaining: i64| {
        json!({
            "id": payment["paymentId"],
            "reportId": report,
            "amount": amount.to_string(),
            "currency": "IDR",
            "direction": owed,
            "paidOn": "2026-11-20",
            "reference": payment["reference"],
            "remainingDue": remaining.to_string(),
            "remainingDirection": if remaining > 0 { owed } else { "none" },
            "recordedAt": payment["recordedAt"],
        })
    };
    assert_eq!(history["data"], json!([item(&two, rest, 0), item(&one, first, rest)]));
    let per_report = json_with_status(app.get(&format!("{REPORTS}/2026-10/payments"), &a.key).await, 200).await;
    assert_eq!(per_report["data"], history["data"]);
    assert_eq!(per_report["balance"], settled["balance"]);
    let theirs = json_with_status(app.get("/api/operator/flight/payments", &b.key).await, 200).await;
    assert_eq!(theirs["data"], json!([]));
    let b_report = json_with_status(app.get(&format!("{REPORTS}/2026-10"), &b.key).await, 200).await;
    assert_eq!(b_report["balance"], balance(b.october().share, 0, 0, 0), "untouched");

    let issued_events = events_data(app, "mini_app.flight.statement_correction.issued").await;
    assert_eq!(
        issued_events,
        [json!({
            "correctionId": issued["correctionId"],
            "reportId": report,
            "statementHash": read["statementHash"],
            "amountChange": change.to_string(),
            "currency": "IDR",
            "reason": "a reviewed ticket resolved as not applied",
            "issuedAt": document["issuedAt"],
        })]
    );
    let payment_events = events_data(app, "mini_app.flight.payment.recorded").await;
    let event = |payment: &Value, amount: i64, remaining: i64| {
        json!({
            "paymentId": payment["paymentId"],
            "reportId": report,
            "amount": amount.to_string(),
            "currency": "IDR",
            "direction": owed,
            "paidOn": "2026-11-20",
            "reference": payment["reference"],
            "remainingDue": remaining.to_string(),
            "recordedAt": payment["recordedAt"],
        })
    };
    assert_eq!(payment_events, [event(&one, first, rest), event(&two, rest, 0)]);
}
