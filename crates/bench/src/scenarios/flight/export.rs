//! The ticket export: `OPINION_BENCH_FLIGHT_EXPORT_TICKETS` tickets are seeded with
//! bulk SQL on a flight the run played, then `GET /api/operator/flight/tickets/export`
//! streams the operator's tickets as CSV. The figures are rows per second, against
//! PostgreSQL's own `COPY … TO STDOUT` of the same rows in the same run, and the
//! service's peak memory for the whole export and for a tenth of it: constant memory
//! means the two peaks are about the same.

use std::time::{Duration, Instant};

use anyhow::Context;
use reqwest::Client;

use crate::load::LoadReport;
use crate::memory::{MemoryWatch, rss_kib};
use crate::report::Scenario;
use crate::scenarios::flight::{FlightBench, copy_rows_per_second};

const NAME: &str = "flight.ticket_export";
const DESCRIPTION: &str = "GET /api/operator/flight/tickets/export of every ticket of the operator, streamed CSV";

/// Tickets inserted per statement, so progress can be shown.
const PER_INSERT: usize = 200_000;

/// Seeds the tickets, then measures the baseline, a tenth and the whole export.
pub async fn run(flight: &FlightBench<'_>) -> anyhow::Result<Scenario> {
    let bench = flight.bench;
    let operator = &bench.operator().uuid;
    seed(flight).await?;
    anyhow::ensure!(
        operator.bytes().all(|b| b.is_ascii_hexdigit()),
        "an operator uuid of hex digits"
    );
    let copy = copy_rows_per_second(
        flight.db,
        &format!("SELECT * FROM flight_tickets WHERE operator_id = '{operator}'::uuid ORDER BY id DESC"),
    )
    .await?;
    let tenth_from = flight
        .db
        .query_one(
            "SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"')
             FROM flight_tickets WHERE operator_id = $1::text::uuid ORDER BY id DESC OFFSET $2 LIMIT 1",
            &[operator, &i64::try_from(bench.settings.flight_export_tickets / 10)?],
        )
        .await?
        .get::<_, String>(0);
    let tenth = export(flight, &format!("?from={tenth_from}")).await?;
    let whole = export(flight, "").await?;
    let load = LoadReport::one_operation(whole.rows, whole.seconds);
    let per_second = load.per_second;
    let mib = |kib: u64| kib as f64 / 1024.0;
    println!(
        "  {NAME}: {} rows in {:.1} s ({per_second:.0} rows/s, COPY {copy:.0} rows/s), first byte after {:.0} ms; \
         peak RSS {:.1} MiB for all, {:.1} MiB for {} rows, {:.1} MiB before",
        whole.rows,
        whole.seconds,
        whole.first_byte_ms,
        mib(whole.peak_rss_kib),
        mib(tenth.peak_rss_kib),
        tenth.rows,
        mib(whole.rss_before_kib)
    );
    Ok(Scenario::measured(NAME, DESCRIPTION, load, whole.peak_rss_kib, None)
        .counting_other_than_requests()
        .with_figure("rows", whole.rows as f64)
        .with_figure("first_byte_ms", whole.first_byte_ms)
        .with_figure("copy_rows_per_second", copy)
        .with_figure("ratio_to_copy", per_second / copy)
        .with_figure("rss_before_mib", mib(whole.rss_before_kib))
        .with_figure("tenth_rows", tenth.rows as f64)
        .with_figure("tenth_peak_rss_mib", mib(tenth.peak_rss_kib)))
}

/// Inserts the tickets (lost, one stake each) on the oldest crashed flight, spread over
/// the operator's players, ids time-ordered like the service's; then analyses.
async fn seed(flight: &FlightBench<'_>) -> anyhow::Result<()> {
    let total = flight.bench.settings.flight_export_tickets;
    println!("flight: seeding {total} tickets for the export…");
    let operator = &flight.bench.operator().uuid;
    let flight_id: String = flight
        .db
        .query_opt(
            "SELECT id::text FROM flights WHERE phase = 'crashed' ORDER BY boarding_at LIMIT 1",
            &[],
        )
        .await?
        .context("no flight has crashed yet to hold the export's tickets")?
        .get(0);
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
                     SELECT floor(extract(epoch FROM now()) * 1000)::bigint - 2 * 86400000 AS ms
                 )
                 INSERT INTO flight_tickets (operator_id, id, flight_id, user_id, external_user_id, client_ticket_id,
                                             stake, status, terms_id, share_bps, max_payout, purchase_operation_id,
                                             created_at, updated_at, settled_at)
                 SELECT $1::text::uuid,
                        (lpad(to_hex(base.ms + g), 12, '0') || substr(md5('export' || g::text), 1, 20))::uuid,
                        $2::text::uuid, p.id, p.external_user_id, 'export-' || g, 1000, 'lost', $3::text::uuid, 1500,
                        1000000000000, gen_random_uuid(), to_timestamp((base.ms + g) / 1000.0),
                        to_timestamp((base.ms + g) / 1000.0), to_timestamp((base.ms + g) / 1000.0)
                 FROM base CROSS JOIN counted CROSS JOIN generate_series($4::bigint, $5::bigint) g
                 JOIN players p ON p.n = g % counted.players",
                &[
                    operator,
                    &flight_id,
                    &flight.terms_uuid,
                    &i64::try_from(done + 1)?,
                    &i64::try_from(done + batch)?,
                ],
            )
            .await
            .context("seeding the export's tickets")?;
        done += batch;
        println!("  seeded {done} tickets ({:.0} s)", started.elapsed().as_secs_f64());
    }
    flight.db.batch_execute("VACUUM ANALYZE flight_tickets").await?;
    Ok(())
}

/// One export's figures.
struct Exported {
    rows: u64,
    seconds: f64,
    first_byte_ms: f64,
    peak_rss_kib: u64,
    rss_before_kib: u64,
}

/// Streams the export with `query` to its end, counting rows, watching memory.
async fn export(flight: &FlightBench<'_>, query: &str) -> anyhow::Result<Exported> {
    let bench = flight.bench;
    let client = Client::builder().timeout(Duration::from_secs(1_800)).build()?;
    let rss_before_kib = rss_kib(bench.service_pid).unwrap_or(0);
    let watch = MemoryWatch::start(bench.service_pid);
    let started = Instant::now();
    let mut response = client
        .get(format!(
            "{}/api/operator/flight/tickets/export{query}",
            bench.api.base()
        ))
        .bearer_auth(&bench.operator().full_key)
        .send()
        .await?;
    anyhow::ensure!(
        response.status().is_success(),
        "the export answered {}",
        response.status()
    );
    let mut first_byte_ms = None;
    let mut lines = 0_u64;
    while let Some(chunk) = response.chunk().await? {
        first_byte_ms.get_or_insert_with(|| started.elapsed().as_secs_f64() * 1000.0);
        lines += chunk.iter().filter(|byte| **byte == b'\n').count() as u64;
    }
    let seconds = started.elapsed().as_secs_f64();
    Ok(Exported {
        rows: lines.saturating_sub(1),
        seconds,
        first_byte_ms: first_byte_ms.unwrap_or_default(),
        peak_rss_kib: watch.finish(),
        rss_before_kib,
    })
}
