//! Seeding with bulk SQL, not through the API: operators, their API keys (hashed with
//! the service's own key code), players, markets and a million trades.

use std::time::Instant;

use opinion_access::{ApiKeyEnvironment, ApiKeySecret};
use opinion_core::MarketId;
use rand::RngCore;
use tokio_postgres::Client;
use ulid::Ulid;

/// Players seeded per operator; seeded trades are spread over them.
const PLAYERS_PER_OPERATOR: usize = 100;

/// Operators seeded per `INSERT … SELECT` of trades, so progress can be shown.
const OPERATORS_PER_BATCH: usize = 10;

/// One seeded operator and the secrets of its keys.
#[derive(Debug, Clone)]
pub struct SeededOperator {
    /// Its id as PostgreSQL reads a uuid (32 hex digits).
    pub uuid: String,
    /// A full-access (`*`) key.
    pub full_key: String,
    /// A restricted key with `trades:read` only.
    pub read_key: String,
}

/// Everything seeded.
#[derive(Debug, Clone)]
pub struct Seeded {
    /// The operators, the first being the one the scenarios load.
    pub operators: Vec<SeededOperator>,
    /// Open markets (`mkt_…`); trades are seeded on the first.
    pub markets: Vec<String>,
}

/// Seeds `operators` operators with keys and players, and `markets` open markets.
pub async fn operators_and_markets(client: &mut Client, operators: usize, markets: usize) -> anyhow::Result<Seeded> {
    let transaction = client.transaction().await?;
    let mut seeded = Vec::with_capacity(operators);
    for index in 0..operators {
        let ulid = Ulid::new();
        let uuid = uuid_text(ulid);
        transaction
            .execute(
                "INSERT INTO operators (id, name, created_at, currency) VALUES ($1::text::uuid, $2, now(), 'USD')",
                &[&uuid, &format!("Bench operator {index}")],
            )
            .await?;
        let full_key = insert_key(&transaction, &uuid, "bench full access", &["*"]).await?;
        let read_key = insert_key(&transaction, &uuid, "bench reporting", &["trades:read"]).await?;
        seeded.push(SeededOperator {
            uuid,
            full_key,
            read_key,
        });
    }
    transaction
        .execute(
            "INSERT INTO users (operator_id, id, external_user_id, created_at, last_launched_at)
             SELECT o.id, (lpad(to_hex(floor(extract(epoch FROM now()) * 1000)::bigint), 12, '0')
                           || substr(md5(o.id::text || n::text), 1, 20))::uuid,
                    'seed-player-' || n, now(), now()
             FROM operators o CROSS JOIN generate_series(0, $1::int - 1) n",
            &[&i32::try_from(PLAYERS_PER_OPERATOR)?],
        )
        .await?;
    let mut market_ids = Vec::with_capacity(markets);
    for index in 0..markets {
        let ulid = Ulid::new();
        transaction
            .execute(
                "INSERT INTO markets (id, question, rules, close_at, liquidity, fee_bps, status, created_at)
                 VALUES ($1::text::uuid, $2, 'Resolves by the bench.', now() + interval '30 days',
                         1000000000, 100, 'open', now())",
                &[&uuid_text(ulid), &format!("Bench market {index}?")],
            )
            .await?;
        market_ids.push(MarketId::from_ulid(ulid).to_string());
    }
    transaction.commit().await?;
    Ok(Seeded {
        operators: seeded,
        markets: market_ids,
    })
}

/// Inserts `per_operator` executed buys for every operator on the market whose wire id
/// is `market`, newest last, ids time-ordered like the service's ULIDs; then analyses.
pub async fn trades(client: &Client, market: &str, per_operator: usize) -> anyhow::Result<()> {
    trades_numbered(client, market, 1, per_operator).await
}

/// As [`trades`], the trades numbered `from` to `to` of every operator (inclusive): more
/// trades for operators seeded with `from - 1` already.
pub async fn trades_numbered(client: &Client, market: &str, from: usize, to: usize) -> anyhow::Result<()> {
    let market_uuid = uuid_text(market_ulid(market)?);
    let operators: Vec<String> = client
        .query(
            "SELECT id::text FROM operators WHERE name LIKE 'Bench operator %' ORDER BY id",
            &[],
        )
        .await?
        .iter()
        .map(|row| row.get(0))
        .collect();
    let started = Instant::now();
    let (from, to) = (i32::try_from(from)?, i32::try_from(to)?);
    let players = i32::try_from(PLAYERS_PER_OPERATOR)?;
    for (batch, chunk) in operators.chunks(OPERATORS_PER_BATCH).enumerate() {
        let chunk: Vec<&str> = chunk.iter().map(String::as_str).collect();
        client
            .execute(
                "WITH players AS (
                     SELECT operator_id, id, (row_number() OVER (PARTITION BY operator_id ORDER BY id) - 1)::int AS n
                     FROM users WHERE operator_id = ANY($1::text[]::uuid[])
                 ), base AS (
                     SELECT floor(extract(epoch FROM now()) * 1000)::bigint - 86400000 AS ms
                 )
                 INSERT INTO trades (operator_id, id, user_id, market_id, client_order_id, side, outcome,
                                     order_kind, order_value, shares, amount, fee, currency,
                                     price_before_ppm, price_after_ppm, status, created_at, settled_at)
                 SELECT p.operator_id,
                        (lpad(to_hex(base.ms + g), 12, '0') || substr(md5(p.operator_id::text || g::text), 1, 20))::uuid,
                        p.id, $2::text::uuid, 'seed-' || g, 'buy', 'yes', 'amount', 100, 190, 100, 1, 'USD',
                        500000, 500100, 'executed',
                        to_timestamp((base.ms + g) / 1000.0), to_timestamp((base.ms + g) / 1000.0)
                 FROM base CROSS JOIN generate_series($3::int, $5::int) g
                 JOIN players p ON p.n = g % $4::int",
                &[&chunk, &market_uuid, &from, &players, &to],
            )
            .await?;
        println!(
            "  seeded trades of {} operators ({:.0} s)",
            batch * OPERATORS_PER_BATCH + chunk.len(),
            started.elapsed().as_secs_f64()
        );
    }
    // Settle the fresh rows as a steady table is: without it, autovacuum's insert-triggered
    // vacuum of the million trades runs during the first scenarios and skews them, and the
    // checkpoint that the seed's WAL calls for (gigabytes for ten million trades) writes
    // their pages out under the scenarios that follow.
    client.batch_execute("VACUUM ANALYZE").await?;
    client.batch_execute("CHECKPOINT").await?;
    Ok(())
}

/// Inserts one API key with `scopes` and returns its secret.
async fn insert_key(
    transaction: &tokio_postgres::Transaction<'_>,
    operator_uuid: &str,
    name: &str,
    scopes: &[&str],
) -> anyhow::Result<String> {
    let mut random = [0_u8; 32];
    rand::thread_rng().fill_bytes(&mut random);
    let secret = ApiKeySecret::generate(ApiKeyEnvironment::Development, random);
    let scopes: Vec<String> = scopes.iter().map(|scope| (*scope).to_owned()).collect();
    transaction
        .execute(
            "INSERT INTO api_keys (operator_id, id, name, scopes, hint, secret_hash, environment, created_at)
             VALUES ($1::text::uuid, $2::text::uuid, $3, $4, $5, $6, $7, now())",
            &[
                &operator_uuid,
                &uuid_text(Ulid::new()),
                &name,
                &scopes,
                &secret.hint(),
                &secret.hash().0,
                &secret.environment().tag(),
            ],
        )
        .await?;
    Ok(secret.expose().to_owned())
}

/// The 32 hex digits PostgreSQL reads as the uuid of a ULID.
pub fn uuid_text(ulid: Ulid) -> String {
    format!("{:032x}", ulid.0)
}

/// The ULID inside a `mkt_…` wire id.
fn market_ulid(market: &str) -> anyhow::Result<Ulid> {
    let id: MarketId = market.parse().map_err(|e| anyhow::anyhow!("market id {market}: {e}"))?;
    Ok(id.ulid())
}
