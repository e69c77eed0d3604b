//! The simulated wallet's state: what it recorded under each idempotency key, its log,
//! and the markets the simulator created. Settling a key and moving the balance happen in
//! one transaction, the balance written only if it is still the one the answer was
//! computed from.

use std::collections::BTreeMap;

use diesel::prelude::*;
use diesel_async::{AsyncConnection, RunQueryDsl};
use opinion_app::model::{LogDelivery, WalletLogEntry};
use opinion_app::ports::StoreError;
use opinion_app::simulator::ports::SettledKey;
use opinion_core::{MarketId, OperatorId, Page, PageRequest, SimulatorLogId, SimulatorLogKind};
use opinion_wallet::{IdempotencyKey, KeyRecord, RequestFingerprint, WalletAnswer};
use time::OffsetDateTime;
use uuid::Uuid;

use crate::db::error::{corrupt, from_diesel};
use crate::db::ids::{id_of, uuid_of};
use crate::db::keyset_page::keyset_page;
use crate::db::pool::PgStore;
use crate::db::schema::{simulator_markets, simulator_users, simulator_wallet_keys, simulator_wallet_log};

/// A `simulator_wallet_log` row.
#[derive(Debug, Queryable, Selectable, Insertable)]
#[diesel(table_name = simulator_wallet_log, check_for_backend(diesel::pg::Pg))]
struct LogRow {
    operator_id: Uuid,
    id: Uuid,
    external_user_id: Option<String>,
    idempotency_key: Option<String>,
    flow: Option<String>,
    amount: Option<i64>,
    currency: Option<String>,
    metadata: serde_json::Value,
    fault: Option<serde_json::Value>,
    applied: bool,
    delivery: String,
    answer_status: Option<i32>,
    answer_body: Option<serde_json::Value>,
    received_at: OffsetDateTime,
    answered_at: Option<OffsetDateTime>,
}

fn delivery_columns(delivery: &LogDelivery) -> (&'static str, Option<i32>, Option<serde_json::Value>) {
    match delivery {
        LogDelivery::Pending => ("pending", None, None),
        LogDelivery::Answered { status, body } => ("answered", Some(i32::from(*status)), Some(body.clone())),
        LogDelivery::Dropped => ("dropped", None, None),
    }
}

impl LogRow {
    fn from_record(entry: &WalletLogEntry) -> Result<Self, StoreError> {
        let (delivery, answer_status, answer_body) = delivery_columns(&entry.delivery);
        let bad = |e: &dyn std::fmt::Display| corrupt("simulator_wallet_log", uuid_of(entry.id), e);
        Ok(Self {
            operator_id: uuid_of(entry.operator_id),
            id: uuid_of(entry.id),
            external_user_id: entry.external_user_id.clone(),
            idempotency_key: entry.idempotency_key.clone(),
            flow: entry.flow.map(|flow| flow.as_str().to_owned()),
            amount: entry.amount,
            currency: entry.currency.map(|currency| currency.as_str().to_owned()),
            metadata: serde_json::to_value(&entry.metadata).map_err(|e| bad(&e))?,
            fault: entry.fault.map(serde_json::to_value).transpose().map_err(|e| bad(&e))?,
            applied: entry.applied,
            delivery: delivery.to_owned(),
            answer_status,
            answer_body,
            received_at: entry.received_at,
            answered_at: entry.answered_at,
        })
    }

    fn into_record(self) -> Result<WalletLogEntry, StoreError> {
        let id = self.id;
        let bad = |e: &dyn std::fmt::Display| corrupt("simulator_wallet_log", id, e);
        let delivery = match (self.delivery.as_str(), self.answer_status, self.answer_body) {
            ("answered", Some(status), Some(body)) => LogDelivery::Answered {
                status: u16::try_from(status).map_err(|e| bad(&e))?,
                body,
            },
            ("dropped", _, _) => LogDelivery::Dropped,
            _ => LogDelivery::Pending,
        };
        let metadata: BTreeMap<String, String> = serde_json::from_value(self.metadata).map_err(|e| bad(&e))?;
        Ok(WalletLogEntry {
            id: id_of(id),
            operator_id: id_of(self.operator_id),
            external_user_id: self.external_user_id,
            idempotency_key: self.idempotency_key,
            flow: self.flow.map(|flow| flow.parse()).transpose().map_err(|e| bad(&e))?,
            amount: self.amount,
            currency: self.currency.map(|c| c.parse()).transpose().map_err(|e| bad(&e))?,
            metadata,
            fault: self
                .fault
                .map(serde_json::from_value)
                .transpose()
                .map_err(|e| bad(&e))?,
            applied: self.applied,
            delivery,
            received_at: self.received_at,
            answered_at: self.answered_at,
        })
    }
}

impl PgStore {
    /// What is recorded under `key`.
    pub(crate) async fn wallet_key(
        &self,
        operator: OperatorId,
        key: &IdempotencyKey,
    ) -> Result<Option<KeyRecord>, StoreError> {
        let mut conn = self.conn().await?;
        let row = simulator_wallet_keys::table
            .find((uuid_of(operator), key.as_str()))
            .select((
                simulator_wallet_keys::fingerprint,
                simulator_wallet_keys::answer_status,
                simulator_wallet_keys::answer_body,
            ))
            .first::<(String, Option<i32>, Option<serde_json::Value>)>(&mut conn)
            .await
            .optional()
            .map_err(from_diesel)?;
        let Some((fingerprint, status, body)) = row else {
            return Ok(None);
        };
        let bad = |e: &dyn std::fmt::Display| corrupt("simulator_wallet_keys", uuid_of(operator), e);
        let fingerprint = RequestFingerprint::parse(&fingerprint).map_err(|e| bad(&e))?;
        Ok(Some(match (status, body) {
            (Some(status), Some(body)) => {
                let status = u16::try_from(status).map_err(|e| bad(&e))?;
                let bytes = serde_json::to_vec(&body).map_err(|e| bad(&e))?;
                let answer = WalletAnswer::from_parts(status, &bytes).ok_or_else(|| bad(&"unreadable answer"))?;
                KeyRecord::Settled { fingerprint, answer }
            }
            _ => KeyRecord::InProgress { fingerprint },
        }))
    }

    /// Records `key` as in progress unless it is recorded already.
    pub(crate) async fn claim_key(
        &self,
        operator: OperatorId,
        key: &IdempotencyKey,
        fingerprint: &RequestFingerprint,
        at: OffsetDateTime,
    ) -> Result<bool, StoreError> {
        let mut conn = self.conn().await?;
        let written = diesel::insert_into(simulator_wallet_keys::table)
            .values((
                simulator_wallet_keys::operator_id.eq(uuid_of(operator)),
                simulator_wallet_keys::idempotency_key.eq(key.as_str()),
                simulator_wallet_keys::fingerprint.eq(fingerprint.as_str()),
                simulator_wallet_keys::created_at.eq(at),
            ))
            .on_conflict_do_nothing()
            .execute(&mut conn)
            .await
            .map_err(from_diesel)?;
        Ok(written == 1)
    }

    /// Frees a key still in progress.
    pub(crate) async fn release_key(&self, operator: OperatorId, key: &IdempotencyKey) -> Result<(), StoreError> {
        let mut conn = self.conn().await?;
        diesel::delete(
            simulator_wallet_keys::table
                .find((uuid_of(operator), key.as_str()))
                .filter(simulator_wallet_keys::answer_status.is_null()),
        )
        .execute(&mut conn)
        .await
        .map_err(from_diesel)?;
        Ok(())
    }

    /// Records a key's answer and moves the balance, or nothing when the balance moved.
    pub(crate) async fn settle_key(&self, settled: &SettledKey) -> Result<bool, StoreError> {
        let operator = uuid_of(settled.operator_id);
        let bytes = settled
            .answer
            .body_bytes()
            .map_err(|e| corrupt("simulator_wallet_keys", operator, &e))?;
        let body: serde_json::Value =
            serde_json::from_slice(&bytes).map_err(|e| corrupt("simulator_wallet_keys", operator, &e))?;
        let mut conn = self.conn().await?;
        conn.transaction::<_, diesel::result::Error, _>(async |conn| {
            if let Some(change) = &settled.balance {
                let moved = diesel::update(
                    simulator_users::table
                        .filter(simulator_users::operator_id.eq(operator))
                        .filter(simulator_users::external_user_id.eq(&change.external_user_id))
                        .filter(simulator_users::balance.eq(change.before)),
                )
                .set((
                    simulator_users::balance.eq(change.after),
                    simulator_users::revision.eq(simulator_users::revision + 1),
                    simulator_users::updated_at.eq(settled.at),
                ))
                .execute(conn)
                .await?;
                if moved != 1 {
                    return Ok(false);
                }
            }
            let recorded = diesel::update(
                simulator_wallet_keys::table
                    .find((operator, settled.key.as_str()))
                    .filter(simulator_wallet_keys::answer_status.is_null()),
            )
            .set((
                simulator_wallet_keys::answer_status.eq(i32::from(settled.answer.status)),
                simulator_wallet_keys::answer_body.eq(&body),
                simulator_wallet_keys::settled_at.eq(settled.at),
            ))
            .execute(conn)
            .await?;
            if recorded != 1 {
                return Err(diesel::result::Error::RollbackTransaction);
            }
            Ok(true)
        })
        .await
        .map_err(from_diesel)
    }

    /// Adds a log entry.
    pub(crate) async fn append_log(&self, entry: &WalletLogEntry) -> Result<(), StoreError> {
        let row = LogRow::from_record(entry)?;
        let mut conn = self.conn().await?;
        diesel::insert_into(simulator_wallet_log::table)
            .values(&row)
            .execute(&mut conn)
            .await
            .map_err(from_diesel)?;
        Ok(())
    }

    /// Records what became of a logged request.
    pub(crate) async fn finish_log(
        &self,
        operator: OperatorId,
        id: SimulatorLogId,
        applied: bool,
        delivery: &LogDelivery,
        at: OffsetDateTime,
    ) -> Result<(), StoreError> {
        let (delivery, status, body) = delivery_columns(delivery);
        let mut conn = self.conn().await?;
        diesel::update(simulator_wallet_log::table.find((uuid_of(operator), uuid_of(id))))
            .set((
                simulator_wallet_log::applied.eq(applied),
                simulator_wallet_log::delivery.eq(delivery),
                simulator_wallet_log::answer_status.eq(status),
                simulator_wallet_log::answer_body.eq(body),
                simulator_wallet_log::answered_at.eq(at),
            ))
            .execute(&mut conn)
            .await
            .map_err(from_diesel)?;
        Ok(())
    }

    /// One player's log, newest first.
    pub(crate) async fn log_page(
        &self,
        operator: OperatorId,
        external_user_id: &str,
        page: PageRequest<SimulatorLogKind>,
    ) -> Result<Page<WalletLogEntry, SimulatorLogKind>, StoreError> {
        let mut query = simulator_wallet_log::table
            .filter(simulator_wallet_log::operator_id.eq(uuid_of(operator)))
            .filter(simulator_wallet_log::external_user_id.eq(external_user_id.to_owned()))
            .select(LogRow::as_select())
            .order(simulator_wallet_log::id.desc())
            .into_boxed();
        if let Some(after) = page.after {
            query = query.filter(simulator_wallet_log::id.lt(uuid_of(after.position())));
        }
        let mut conn = self.conn().await?;
        let rows = keyset_page(query, &page).load(&mut conn).await.map_err(from_diesel)?;
        let entries = rows
            .into_iter()
            .map(LogRow::into_record)
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Page::from_overfetch(entries, page.limit, |entry| entry.id))
    }

    /// Records a simulator market.
    pub(crate) async fn insert_simulator_market(
        &self,
        operator: OperatorId,
        market: MarketId,
        at: OffsetDateTime,
    ) -> Result<(), StoreError> {
        let mut conn = self.conn().await?;
        diesel::insert_into(simulator_markets::table)
            .values((
                simulator_markets::operator_id.eq(uuid_of(operator)),
                simulator_markets::market_id.eq(uuid_of(market)),
                simulator_markets::created_at.eq(at),
            ))
            .execute(&mut conn)
            .await
            .map_err(from_diesel)?;
        Ok(())
    }

    /// Whether the operator's simulator created `market`.
    pub(crate) async fn simulator_market_exists(
        &self,
        operator: OperatorId,
        market: MarketId,
    ) -> Result<bool, StoreError> {
        let mut conn = self.conn().await?;
        let found = simulator_markets::table
            .find((uuid_of(operator), uuid_of(market)))
            .count()
            .get_result::<i64>(&mut conn)
            .await
            .map_err(from_diesel)?;
        Ok(found > 0)
    }
}
