//! Finalizing a settlement period: `OPINION_BENCH_FLIGHT_FINALIZE_TICKETS` settled tickets
//! (lost, cashed out and refunded, at several frozen shares) are seeded with bulk SQL in a
//! past calendar month, and a tenth as many in the month before it; `opinion admin flight
//! finalize`, the command platform staff run, finalizes each into its signed v5 statement
//! (report arithmetic, ticket-lines hash, Merkle tree, leaf hashes and block roots kept for
//! proofs). The figures are the command's time, tickets per second against PostgreSQL's own
//! `COPY … TO STDOUT` of the same rows in the same run, and the command's peak memory for
//! the whole period and for the tenth: a walk in constant memory peaks about the same for
//! both.

use std::process::Stdio;
use std::time::{Duration, Instant};

use anyhow::Context;
use opinion_core::OperatorId;
use ulid::Ulid;

use crate::load::LoadReport;
use crate::memory::peak_kib;
use crate::report::Scenario;
use crate::scenarios::flight::{FlightBench, copy_rows_per_second};
use crate::seed::uuid_text;

const NAME: &str = "flight.finalize_period";
const DESCRIPTION: &str = "opinion admin flight finalize of one calendar month of settled tickets";

/// Tickets inserted per statement, so progress can be shown.
const PER_INSERT: usize = 200_000;

/// How often the command's peak memory is read while it runs.
const SAMPLE_EVERY: Duration = Duration::from_millis(20);

/// Seeds both periods, then measures the baseline, the tenth and the whole period.
pub async fn run(flight: &FlightBench<'_>) -> anyhow::Result<Scenario> {
    let total = flight.bench.settings.flight_finalize_tickets;
    let terms = past_terms(flight).await?;
    let whole_period = seed(flight, &terms, 2, total).await?;
    let tenth_period = seed(flight, &terms, 3, (total / 10).max(1)).await?;
    flight.db.batch_execute("VACUUM ANALYZE flight_tickets").await?;
    let operator = &flight.bench.operator().uuid;
    anyhow::ensure!(
        operator.bytes().all(|b| b.is_ascii_hexdigit() || b == b'-')
            && whole_period.bytes().all(|b| b.is_ascii_digit() || b == b'-'),
        "an operator uuid and a YYYY-MM period"
    );
    let copy = copy_rows_per_second(
        flight.db,
        &format!(
            "SELECT * FROM flight_tickets WHERE operator_id = '{operator}'::uuid
               AND created_at >= to_timestamp('{whole_period}', 'YYYY-MM') AT TIME ZONE 'UTC'
               AND created_at < (to_timestamp('{whole_period}', 'YYYY-MM') AT TIME ZONE 'UTC') + interval '1 month'
             ORDER BY created_at, id"
        ),
    )
    .await?;
    let tenth = finalize(flight, &tenth_period).await?;
    let whole = finalize(flight, &whole_period).await?;
    let load = LoadReport::one_operation(whole.tickets, whole.seconds);
    let per_second = load.per_second;
    let mib = |kib: u64| kib as f64 / 1024.0;
    println!(
        "  {NAME}: {} tickets in {:.1} s ({per_second:.0} tickets/s, COPY {copy:.0} rows/s); \
         peak RSS {:.1} MiB, {:.1} MiB for {} tickets",
        whole.tickets,
        whole.seconds,
        mib(whole.peak_rss_kib),
        mib(tenth.peak_rss_kib),
        tenth.tickets
    );
    Ok(Scenario::measured(NAME, DESCRIPTION, load, whole.peak_rss_kib, None)
        .counting_other_than_requests()
        .with_figure("tickets", whole.tickets as f64)
        .with_figure("copy_rows_per_second", copy)
        .with_figure("ratio_to_copy", per_second / copy)
        .with_figure("tenth_tickets", tenth.tickets as f64)
        .with_figure("tenth_seconds", tenth.seconds)
        .with_figure("tenth_peak_rss_mib", mib(tenth.peak_rss_kib)))
}

/// A terms version in force from four calendar months back (finalization reads the due
/// days of the terms in force during the period), as platform staff would have scheduled
/// it; its uuid, the seeded tickets' terms.
async fn past_terms(flight: &FlightBench<'_>) -> anyhow::Result<String> {
    let terms = uuid_text(Ulid::new());
    flight
        .db
        .execute(
            "INSERT INTO flight_terms (operator_id, id, effective_from, share_bps, min_stake, max_stake, max_payout,
                                       tickets_per_flight, settlement_period, payment_due_days, created_at, created_by)
             VALUES ($1::text::uuid, $2::text::uuid,
                     date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' - interval '4 months',
                     1500, 1000, 1000000, 1000000000000, 10, 'calendar_month', 15, now(), 'bench')",
            &[&flight.bench.operator().uuid, &terms],
        )
        .await
        .context("seeding past flight terms")?;
    Ok(terms)
}

/// Inserts `total` settled tickets spread over the calendar month `months_back` months
/// before this one (UTC), on the oldest crashed flight, over the operator's players: six
/// in ten lost, three cashed out between 1.50× and 3.00×, one refunded, at shares of 15,
/// 12.5 and 7.25 %. The month, `YYYY-MM`.
async fn seed(flight: &FlightBench<'_>, terms: &str, months_back: i32, total: usize) -> anyhow::Result<String> {
    let operator = &flight.bench.operator().uuid;
    let period: String = flight
        .db
        .query_one(
            "SELECT to_char(date_trunc('month', now() AT TIME ZONE 'UTC') - make_interval(months => $1), 'YYYY-MM')",
            &[&months_back],
        )
        .await?
        .get(0);
    println!("flight: seeding {total} settled tickets in {period} to finalize…");
    let flight_id: String = flight
        .db
        .query_opt(
            "SELECT id::text FROM flights WHERE phase = 'crashed' ORDER BY boarding_at LIMIT 1",
            &[],
        )
        .await?
        .context("no flight has crashed yet to hold the period's tickets")?
        .get(0);
    // Spread over 28 days, so every month holds them.
    let step_ms = i64::try_from((28 * 86_400_000 / total).max(1))?;
    let started = Instant::now();
    let mut done = 0;
    while done < total {
        let batch = PER_INSERT.min(total - done);
        flight
            .db
            .execute(
                "WITH players AS (
                     SELECT id, external_user_id, (row_number() OVER (ORDER BY id) - 1)::int AS n
                     FROM users WHERE operator_id = $1::text::uuid
                 ), counted AS (
                     SELECT count(*)::int AS players FROM players
                 ), base AS (
                     SELECT (extract(epoch FROM to_timestamp($4, 'YYYY-MM') AT TIME ZONE 'UTC') * 1000)::bigint AS ms
                 ), numbered AS (
                     SELECT g, base.ms + g * $7 AS at_ms, g % 10 AS kind, 150 + (g % 7) * 25 AS hundredths
                     FROM base CROSS JOIN generate_series($5::bigint, $6::bigint) g
                 )
                 INSERT INTO flight_tickets (operator_id, id, flight_id, user_id, external_user_id, client_ticket_id,
                                             stake, status, terms_id, share_bps, max_payout, purchase_operation_id,
                                             cash_out_hundredths, cashed_out_at, payout, refund_reason,
                                             created_at, updated_at, settled_at)
                 SELECT $1::text::uuid,
                        (lpad(to_hex(t.at_ms), 12, '0') || substr(md5('finalize' || $4 || t.g::text), 1, 20))::uuid,
                        $2::text::uuid, p.id, p.external_user_id, 'finalize-' || $4 || '-' || t.g, 1000 + t.g % 5 * 250,
                        CASE WHEN t.kind < 6 THEN 'lost' WHEN t.kind < 9 THEN 'cashed_out' ELSE 'refunded' END,
                        $3::text::uuid, (ARRAY[1500, 1250, 725])[t.g % 3 + 1], 1000000000000, gen_random_uuid(),
                        CASE WHEN t.kind BETWEEN 6 AND 8 THEN t.hundredths END,
                        CASE WHEN t.kind BETWEEN 6 AND 8 THEN to_timestamp((t.at_ms + 1500) / 1000.0) END,
                        CASE WHEN t.kind BETWEEN 6 AND 8 THEN (1000 + t.g % 5 * 250) * t.hundredths / 100 END,
                        CASE WHEN t.kind = 9 THEN 'flight_cancelled' END,
                        to_timestamp(t.at_ms / 1000.0), to_timestamp(t.at_ms / 1000.0),
                        to_timestamp((t.at_ms + 2000) / 1000.0)
                 FROM numbered t CROSS JOIN counted
                 JOIN players p ON p.n = t.g % counted.players",
                &[
                    operator,
                    &flight_id,
                    &terms,
                    &period,
                    &i64::try_from(done + 1)?,
                    &i64::try_from(done + batch)?,
                    &step_ms,
                ],
            )
            .await
            .context("seeding the period's tickets")?;
        done += batch;
        println!("  seeded {done} tickets ({:.0} s)", started.elapsed().as_secs_f64());
    }
    Ok(period)
}

/// The operator's `op_…` id from its uuid's 32 hex digits.
fn operator_id(uuid: &str) -> anyhow::Result<String> {
    let bits = u128::from_str_radix(&uuid.replace('-', ""), 16).context("an operator uuid")?;
    Ok(OperatorId::from_u128(bits).to_string())
}

/// One finalization's figures.
struct Finalized {
    tickets: u64,
    seconds: f64,
    peak_rss_kib: u64,
}

/// Runs `opinion admin flight finalize` of `period` to its end, watching its memory.
async fn finalize(flight: &FlightBench<'_>, period: &str) -> anyhow::Result<Finalized> {
    let operator = operator_id(&flight.bench.operator().uuid)?;
    let mut command = flight.admin.command();
    command
        .args([
            "admin",
            "flight",
            "finalize",
            "--operator",
            &operator,
            "--period",
            period,
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let started = Instant::now();
    let mut child = command.spawn().context("starting opinion admin flight finalize")?;
    let pid = child.id().context("the command's pid")?;
    let mut peak_rss_kib = 0;
    let output = loop {
        if let Some(peak) = peak_kib(pid) {
            peak_rss_kib = peak_rss_kib.max(peak);
        }
        if child.try_wait()?.is_some() {
            break child.wait_with_output().await?;
        }
        tokio::time::sleep(SAMPLE_EVERY).await;
    };
    let seconds = started.elapsed().as_secs_f64();
    anyhow::ensure!(
        output.status.success(),
        "finalizing {period} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let printed: serde_json::Value = serde_json::from_slice(&output.stdout).context("the command's JSON")?;
    anyhow::ensure!(
        printed["alreadyFinalized"] == false,
        "{period} was finalized before the bench measured it"
    );
    let tickets = printed["ticketCount"]
        .as_u64()
        .with_context(|| format!("no ticket count in what finalize printed: {printed}"))?;
    Ok(Finalized {
        tickets,
        seconds,
        peak_rss_kib,
    })
}
