//! Trading rows inserted straight into a test database, so reads can be tested against
//! exactly the rows the schema allows, whatever writes them. Ids are `u128`s (the bits
//! of the typed ids); text columns take the stored names (`"executed"`, `"yes"`, …).

use diesel::sql_query;
use diesel::sql_types::{BigInt, Integer, Jsonb, Nullable, Text, Timestamptz, Uuid as SqlUuid};
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use time::OffsetDateTime;
use uuid::Uuid;

mod flight;
mod webhooks;

pub use flight::{ChainSeed, FlightSeed, TermsSeed, TicketSeed};
pub use webhooks::DeliverySeed;

/// The bits of a ULID created at `at` with `n` as its random part: ids made this way
/// sort like their creation times, as real ids do.
pub fn ulid_at(at: OffsetDateTime, n: u16) -> u128 {
    let millis = u128::try_from(at.unix_timestamp_nanos() / 1_000_000).unwrap_or(0);
    (millis << 80) | u128::from(n)
}

fn uuid(id: u128) -> Uuid {
    Uuid::from_u128(id)
}

/// A market (platform-wide).
#[derive(Debug, Clone)]
pub struct MarketSeed {
    /// The `id` column.
    pub id: u128,
    /// The `question` column.
    pub question: String,
    /// The `liquidity` column.
    pub liquidity: i64,
    /// The `fee_bps` column.
    pub fee_bps: i32,
    /// `open`, `closed` or `resolved`.
    pub status: &'static str,
    /// `yes`, `no` or `void` when resolved.
    pub resolution: Option<&'static str>,
    /// The `created_at` column.
    pub created_at: OffsetDateTime,
}

/// An operator's pool and visibility on a market.
#[derive(Debug, Clone)]
pub struct PoolSeed {
    /// The `operator_id` column.
    pub operator: u128,
    /// The `market_id` column.
    pub market: u128,
    /// The `yes_outstanding` column.
    pub yes_outstanding: i64,
    /// The `no_outstanding` column.
    pub no_outstanding: i64,
    /// The `choice` column: `unset`, `shown` or `hidden`.
    pub choice: &'static str,
}

/// A player.
#[derive(Debug, Clone)]
pub struct UserSeed {
    /// The `operator_id` column.
    pub operator: u128,
    /// The `id` column.
    pub id: u128,
    /// The `external_user_id` column.
    pub external_user_id: String,
    /// The `created_at` column.
    pub created_at: OffsetDateTime,
}

/// A trade.
#[derive(Debug, Clone)]
pub struct TradeSeed {
    /// The `operator_id` column.
    pub operator: u128,
    /// The `id` column.
    pub id: u128,
    /// The `user_id` column.
    pub user: u128,
    /// The `market_id` column.
    pub market: u128,
    /// The `side` column.
    pub side: &'static str,
    /// The `outcome` column.
    pub outcome: &'static str,
    /// The `shares` column.
    pub shares: i64,
    /// The `amount` column.
    pub amount: i64,
    /// The `fee` column.
    pub fee: i64,
    /// The `currency` column.
    pub currency: &'static str,
    /// The `price_before_ppm` column.
    pub price_before_ppm: i32,
    /// The `price_after_ppm` column.
    pub price_after_ppm: i32,
    /// The `status` column.
    pub status: &'static str,
    /// The `created_at` column.
    pub created_at: OffsetDateTime,
}

/// A position.
#[derive(Debug, Clone)]
pub struct PositionSeed {
    /// The `operator_id` column.
    pub operator: u128,
    /// The `user_id` column.
    pub user: u128,
    /// The `market_id` column.
    pub market: u128,
    /// The `yes_shares` column.
    pub yes_shares: i64,
    /// The `yes_cost_basis` column.
    pub yes_cost_basis: i64,
    /// The `no_shares` column.
    pub no_shares: i64,
    /// The `no_cost_basis` column.
    pub no_cost_basis: i64,
    /// The `realized_pnl` column.
    pub realized_pnl: i64,
    /// The `updated_at` column.
    pub updated_at: OffsetDateTime,
}

impl PositionSeed {
    /// A position of `shares` YES shares bought for half their number, updated at `at`.
    pub fn yes(operator: u128, user: u128, market: u128, shares: i64, at: OffsetDateTime) -> Self {
        Self {
            operator,
            user,
            market,
            yes_shares: shares,
            yes_cost_basis: shares / 2,
            no_shares: 0,
            no_cost_basis: 0,
            realized_pnl: 0,
            updated_at: at,
        }
    }
}

/// A market's resolution for one operator.
#[derive(Debug, Clone)]
pub struct ResolutionSeed {
    /// The `operator_id` column.
    pub operator: u128,
    /// The `market_id` column.
    pub market: u128,
    /// The `resolution` column.
    pub resolution: &'static str,
    /// The `resolved_at` column.
    pub resolved_at: OffsetDateTime,
    /// The `redemption_count` column.
    pub redemption_count: i64,
    /// The `payout_total` column.
    pub payout_total: i64,
    /// The `currency` column.
    pub currency: &'static str,
}

/// A redemption.
#[derive(Debug, Clone)]
pub struct RedemptionSeed {
    /// The `operator_id` column.
    pub operator: u128,
    /// The `id` column.
    pub id: u128,
    /// The `user_id` column.
    pub user: u128,
    /// The `market_id` column.
    pub market: u128,
    /// The `resolution` column.
    pub resolution: &'static str,
    /// The `amount` column.
    pub amount: i64,
    /// The `currency` column.
    pub currency: &'static str,
    /// The `status` column.
    pub status: &'static str,
    /// The `created_at` column.
    pub created_at: OffsetDateTime,
}

/// A wallet operation.
#[derive(Debug, Clone)]
pub struct WalletOperationSeed {
    /// The `operator_id` column.
    pub operator: u128,
    /// The `id` column.
    pub id: u128,
    /// The `user_id` column.
    pub user: u128,
    /// The `external_user_id` column.
    pub external_user_id: String,
    /// The `flow` column.
    pub flow: &'static str,
    /// The `reason` column.
    pub reason: &'static str,
    /// The `idempotency_key` column.
    pub idempotency_key: String,
    /// The `amount` column.
    pub amount: i64,
    /// The `currency` column.
    pub currency: &'static str,
    /// The `metadata` column.
    pub metadata: serde_json::Value,
    /// The `market_id` column.
    pub market: u128,
    /// The `trade_id` column.
    pub trade: Option<u128>,
    /// The `state` column.
    pub state: &'static str,
    /// The `http_status` column.
    pub http_status: Option<i32>,
    /// The `remote_reference` column.
    pub remote_reference: Option<String>,
    /// The `balance_after` column.
    pub balance_after: Option<i64>,
    /// The `created_at` column.
    pub created_at: OffsetDateTime,
}

/// A wallet operation of the flight product: it names a flight and a ticket, no market,
/// and moves IDR.
#[derive(Debug, Clone)]
pub struct FlightOperationSeed {
    /// The `operator_id` column.
    pub operator: u128,
    /// The `id` column.
    pub id: u128,
    /// The `user_id` column.
    pub user: u128,
    /// The `external_user_id` column.
    pub external_user_id: String,
    /// The `flow` column (and its reason key, which is the same word).
    pub flow: &'static str,
    /// The `flight_id` column.
    pub flight: u128,
    /// The `ticket_id` column; the idempotency key is `<flow>:<ticket id>`.
    pub ticket: u128,
    /// The `amount` column, whole rupiah.
    pub amount: i64,
    /// The `metadata` column.
    pub metadata: serde_json::Value,
    /// The `state` column.
    pub state: &'static str,
    /// The `created_at` column.
    pub created_at: OffsetDateTime,
}

/// A step of a wallet operation.
#[derive(Debug, Clone)]
pub struct StepSeed {
    /// The `operator_id` column.
    pub operator: u128,
    /// The `operation_id` column.
    pub operation: u128,
    /// The `step` column.
    pub step: i32,
    /// The `state` column.
    pub state: &'static str,
    /// The `http_status` column.
    pub http_status: Option<i32>,
    /// The `detail` column.
    pub detail: Option<String>,
    /// The `at` column.
    pub at: OffsetDateTime,
}

/// A connection to a test database that inserts seeds; panics on any failure, naming it.
pub struct Seeder {
    conn: AsyncPgConnection,
}

impl Seeder {
    /// Connects to the test database at `url`.
    pub async fn connect(url: &str) -> Seeder {
        let conn = AsyncPgConnection::establish(url)
            .await
            .unwrap_or_else(|err| panic!("cannot connect to the test database: {err}"));
        Seeder { conn }
    }

    /// Inserts a market.
    pub async fn market(&mut self, market: &MarketSeed) -> &mut Self {
        let resolved_at = market.resolution.map(|_| market.created_at);
        sql_query(
            "INSERT INTO markets (id, question, rules, close_at, liquidity, fee_bps, status, resolution, created_at, \
             resolved_at) VALUES ($1, $2, 'Resolved from the official source.', $3 + interval '30 days', $4, $5, $6, $7, $3, $8)",
        )
        .bind::<SqlUuid, _>(uuid(market.id))
        .bind::<Text, _>(&market.question)
        .bind::<Timestamptz, _>(market.created_at)
        .bind::<BigInt, _>(market.liquidity)
        .bind::<Integer, _>(market.fee_bps)
        .bind::<Text, _>(market.status)
        .bind::<Nullable<Text>, _>(market.resolution)
        .bind::<Nullable<Timestamptz>, _>(resolved_at)
        .execute(&mut self.conn)
        .await
        .unwrap_or_else(|err| panic!("inserting market {market:?}: {err}"));
        self
    }

    /// Inserts an operator's pool row.
    pub async fn pool(&mut self, pool: &PoolSeed) -> &mut Self {
        sql_query(
            "INSERT INTO market_pools (operator_id, market_id, yes_outstanding, no_outstanding, choice, updated_at) \
             VALUES ($1, $2, $3, $4, $5, now())",
        )
        .bind::<SqlUuid, _>(uuid(pool.operator))
        .bind::<SqlUuid, _>(uuid(pool.market))
        .bind::<BigInt, _>(pool.yes_outstanding)
        .bind::<BigInt, _>(pool.no_outstanding)
        .bind::<Text, _>(pool.choice)
        .execute(&mut self.conn)
        .await
        .unwrap_or_else(|err| panic!("inserting pool {pool:?}: {err}"));
        self
    }

    /// Inserts a player.
    pub async fn user(&mut self, user: &UserSeed) -> &mut Self {
        sql_query(
            "INSERT INTO users (operator_id, id, external_user_id, created_at, last_launched_at) \
             VALUES ($1, $2, $3, $4, $4)",
        )
        .bind::<SqlUuid, _>(uuid(user.operator))
        .bind::<SqlUuid, _>(uuid(user.id))
        .bind::<Text, _>(&user.external_user_id)
        .bind::<Timestamptz, _>(user.created_at)
        .execute(&mut self.conn)
        .await
        .unwrap_or_else(|err| panic!("inserting user {user:?}: {err}"));
        self
    }

    /// Inserts a trade (settled when `executed` or `failed`, at its creation time).
    pub async fn trade(&mut self, trade: &TradeSeed) -> &mut Self {
        let settled_at = matches!(trade.status, "executed" | "failed").then_some(trade.created_at);
        sql_query(
            "INSERT INTO trades (operator_id, id, user_id, market_id, client_order_id, side, outcome, order_kind, \
             order_value, shares, amount, fee, currency, price_before_ppm, price_after_ppm, status, created_at, settled_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, 'shares', $8, $8, $9, $10, $11, $12, $13, $14, $15, $16)",
        )
        .bind::<SqlUuid, _>(uuid(trade.operator))
        .bind::<SqlUuid, _>(uuid(trade.id))
        .bind::<SqlUuid, _>(uuid(trade.user))
        .bind::<SqlUuid, _>(uuid(trade.market))
        .bind::<Text, _>(format!("order-{:x}", trade.id))
        .bind::<Text, _>(trade.side)
        .bind::<Text, _>(trade.outcome)
        .bind::<BigInt, _>(trade.shares)
        .bind::<BigInt, _>(trade.amount)
        .bind::<BigInt, _>(trade.fee)
        .bind::<Text, _>(trade.currency)
        .bind::<Integer, _>(trade.price_before_ppm)
        .bind::<Integer, _>(trade.price_after_ppm)
        .bind::<Text, _>(trade.status)
        .bind::<Timestamptz, _>(trade.created_at)
        .bind::<Nullable<Timestamptz>, _>(settled_at)
        .execute(&mut self.conn)
        .await
        .unwrap_or_else(|err| panic!("inserting trade {trade:?}: {err}"));
        self
    }

    /// Inserts a position.
    pub async fn position(&mut self, position: &PositionSeed) -> &mut Self {
        sql_query(
            "INSERT INTO positions (operator_id, user_id, market_id, yes_shares, yes_cost_basis, no_shares, \
             no_cost_basis, realized_pnl, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        )
        .bind::<SqlUuid, _>(uuid(position.operator))
        .bind::<SqlUuid, _>(uuid(position.user))
        .bind::<SqlUuid, _>(uuid(position.market))
        .bind::<BigInt, _>(position.yes_shares)
        .bind::<BigInt, _>(position.yes_cost_basis)
        .bind::<BigInt, _>(position.no_shares)
        .bind::<BigInt, _>(position.no_cost_basis)
        .bind::<BigInt, _>(position.realized_pnl)
        .bind::<Timestamptz, _>(position.updated_at)
        .execute(&mut self.conn)
        .await
        .unwrap_or_else(|err| panic!("inserting position {position:?}: {err}"));
        self
    }

    /// Inserts an operator's market resolution.
    pub async fn resolution(&mut self, resolution: &ResolutionSeed) -> &mut Self {
        sql_query(
            "INSERT INTO market_resolutions (operator_id, market_id, resolution, resolved_at, redemption_count, \
             payout_total, currency) VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind::<SqlUuid, _>(uuid(resolution.operator))
        .bind::<SqlUuid, _>(uuid(resolution.market))
        .bind::<Text, _>(resolution.resolution)
        .bind::<Timestamptz, _>(resolution.resolved_at)
        .bind::<BigInt, _>(resolution.redemption_count)
        .bind::<BigInt, _>(resolution.payout_total)
        .bind::<Text, _>(resolution.currency)
        .execute(&mut self.conn)
        .await
        .unwrap_or_else(|err| panic!("inserting resolution {resolution:?}: {err}"));
        self
    }

    /// Inserts a redemption (paid at its creation time when `paid`).
    pub async fn redemption(&mut self, redemption: &RedemptionSeed) -> &mut Self {
        let paid_at = (redemption.status == "paid").then_some(redemption.created_at);
        sql_query(
            "INSERT INTO redemptions (operator_id, id, user_id, market_id, resolution, amount, currency, status, \
             created_at, paid_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
        )
        .bind::<SqlUuid, _>(uuid(redemption.operator))
        .bind::<SqlUuid, _>(uuid(redemption.id))
        .bind::<SqlUuid, _>(uuid(redemption.user))
        .bind::<SqlUuid, _>(uuid(redemption.market))
        .bind::<Text, _>(redemption.resolution)
        .bind::<BigInt, _>(redemption.amount)
        .bind::<Text, _>(redemption.currency)
        .bind::<Text, _>(redemption.status)
        .bind::<Timestamptz, _>(redemption.created_at)
        .bind::<Nullable<Timestamptz>, _>(paid_at)
        .execute(&mut self.conn)
        .await
        .unwrap_or_else(|err| panic!("inserting redemption {redemption:?}: {err}"));
        self
    }

    /// Inserts a wallet operation (sent and answered at its creation time once answered).
    pub async fn wallet_operation(&mut self, operation: &WalletOperationSeed) -> &mut Self {
        let answered_at = operation.http_status.map(|_| operation.created_at);
        sql_query(
            "INSERT INTO wallet_operations (operator_id, id, user_id, external_user_id, flow, reason, idempotency_key, \
             fingerprint, amount, currency, metadata, market_id, trade_id, state, attempts, http_status, \
             remote_reference, balance_after, created_at, sent_at, answered_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, 'fingerprint', $8, $9, $10, $11, $12, $13, 1, $14, $15, $16, $17, $17, $18)",
        )
        .bind::<SqlUuid, _>(uuid(operation.operator))
        .bind::<SqlUuid, _>(uuid(operation.id))
        .bind::<SqlUuid, _>(uuid(operation.user))
        .bind::<Text, _>(&operation.external_user_id)
        .bind::<Text, _>(operation.flow)
        .bind::<Text, _>(operation.reason)
        .bind::<Text, _>(&operation.idempotency_key)
        .bind::<BigInt, _>(operation.amount)
        .bind::<Text, _>(operation.currency)
        .bind::<Jsonb, _>(&operation.metadata)
        .bind::<SqlUuid, _>(uuid(operation.market))
        .bind::<Nullable<SqlUuid>, _>(operation.trade.map(uuid))
        .bind::<Text, _>(operation.state)
        .bind::<Nullable<Integer>, _>(operation.http_status)
        .bind::<Nullable<Text>, _>(operation.remote_reference.as_deref())
        .bind::<Nullable<BigInt>, _>(operation.balance_after)
        .bind::<Timestamptz, _>(operation.created_at)
        .bind::<Nullable<Timestamptz>, _>(answered_at)
        .execute(&mut self.conn)
        .await
        .unwrap_or_else(|err| panic!("inserting wallet operation {operation:?}: {err}"));
        self
    }

    /// Inserts a flight wallet operation, sent once at its creation.
    pub async fn flight_wallet_operation(&mut self, operation: &FlightOperationSeed) -> &mut Self {
        let ticket = format!("tkt_{}", ulid::Ulid(operation.ticket).to_string().to_lowercase());
        sql_query(
            "INSERT INTO wallet_operations (operator_id, id, user_id, external_user_id, flow, reason, idempotency_key, \
             fingerprint, amount, currency, metadata, flight_id, ticket_id, state, attempts, created_at, sent_at) \
             VALUES ($1, $2, $3, $4, $5, $5, $6, 'fingerprint', $7, 'IDR', $8, $9, $10, $11, 1, $12, $12)",
        )
        .bind::<SqlUuid, _>(uuid(operation.operator))
        .bind::<SqlUuid, _>(uuid(operation.id))
        .bind::<SqlUuid, _>(uuid(operation.user))
        .bind::<Text, _>(&operation.external_user_id)
        .bind::<Text, _>(operation.flow)
        .bind::<Text, _>(format!("{}:{ticket}", operation.flow))
        .bind::<BigInt, _>(operation.amount)
        .bind::<Jsonb, _>(&operation.metadata)
        .bind::<SqlUuid, _>(uuid(operation.flight))
        .bind::<SqlUuid, _>(uuid(operation.ticket))
        .bind::<Text, _>(operation.state)
        .bind::<Timestamptz, _>(operation.created_at)
        .execute(&mut self.conn)
        .await
        .unwrap_or_else(|err| panic!("inserting flight wallet operation {operation:?}: {err}"));
        self
    }

    /// Inserts a step of a wallet operation.
    pub async fn step(&mut self, step: &StepSeed) -> &mut Self {
        sql_query(
            "INSERT INTO wallet_operation_steps (operator_id, operation_id, step, state, http_status, detail, at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind::<SqlUuid, _>(uuid(step.operator))
        .bind::<SqlUuid, _>(uuid(step.operation))
        .bind::<Integer, _>(step.step)
        .bind::<Text, _>(step.state)
        .bind::<Nullable<Integer>, _>(step.http_status)
        .bind::<Nullable<Text>, _>(step.detail.as_deref())
        .bind::<Timestamptz, _>(step.at)
        .execute(&mut self.conn)
        .await
        .unwrap_or_else(|err| panic!("inserting step {step:?}: {err}"));
        self
    }
}
