//! Rows of the settlement store: markets, positions, redemptions and wallet operations
//! as read and written by resolution, the wallet worker and manual review. Every stored
//! text is parsed back by the domain; a value it refuses is a corrupt row.

use std::collections::BTreeMap;

use diesel::prelude::*;
use opinion_app::model::{Market, PositionRecord, Redemption, WalletOperationRecord, WalletOperationStep};
use opinion_app::ports::{NewOperation, StoreError};
use opinion_market::{FeeRate, Holding, Liquidity, MarketStatus, Position, Resolution};
use time::OffsetDateTime;
use uuid::Uuid;

use crate::error::corrupt;
use crate::rows::{id_of, uuid_of};
use crate::schema::{markets, positions, redemptions, wallet_operation_steps, wallet_operations};

/// A market as stored.
#[derive(Debug, Queryable, Selectable)]
#[diesel(table_name = markets, check_for_backend(diesel::pg::Pg))]
pub(crate) struct MarketRow {
    id: Uuid,
    question: String,
    rules: String,
    close_at: OffsetDateTime,
    liquidity: i64,
    fee_bps: i32,
    status: String,
    resolution: Option<String>,
    created_at: OffsetDateTime,
    closed_at: Option<OffsetDateTime>,
    resolved_at: Option<OffsetDateTime>,
}

impl MarketRow {
    pub(crate) fn into_record(self) -> Result<Market, StoreError> {
        let bad = |problem: &dyn std::fmt::Display| corrupt("markets", self.id, problem);
        let status = match (self.status.as_str(), self.resolution.as_deref()) {
            ("open", None) => MarketStatus::Open,
            ("closed", None) => MarketStatus::Closed,
            ("resolved", Some(resolution)) => {
                MarketStatus::Resolved(resolution.parse::<Resolution>().map_err(|e| bad(&e))?)
            }
            (status, _) => return Err(bad(&format_args!("status {status}"))),
        };
        let fee = u16::try_from(self.fee_bps)
            .ok()
            .and_then(|bps| FeeRate::from_bps(bps).ok())
            .ok_or_else(|| bad(&format_args!("fee {}", self.fee_bps)))?;
        Ok(Market {
            id: id_of(self.id),
            question: self.question,
            rules: self.rules,
            close_at: self.close_at,
            liquidity: Liquidity::new(self.liquidity).map_err(|e| bad(&e))?,
            fee,
            status,
            created_at: self.created_at,
            closed_at: self.closed_at,
            resolved_at: self.resolved_at,
        })
    }
}

/// A position as stored.
#[derive(Debug, Queryable, Selectable)]
#[diesel(table_name = positions, check_for_backend(diesel::pg::Pg))]
pub(crate) struct PositionRow {
    pub(crate) operator_id: Uuid,
    user_id: Uuid,
    market_id: Uuid,
    yes_shares: i64,
    yes_cost_basis: i64,
    no_shares: i64,
    no_cost_basis: i64,
    realized_pnl: i64,
    redeemed_at: Option<OffsetDateTime>,
    updated_at: OffsetDateTime,
}

impl PositionRow {
    /// The player.
    pub(crate) fn user_id(&self) -> Uuid {
        self.user_id
    }

    pub(crate) fn into_record(self) -> Result<PositionRecord, StoreError> {
        let position = Position::from_parts(
            Holding {
                shares: self.yes_shares,
                cost_basis: self.yes_cost_basis,
            },
            Holding {
                shares: self.no_shares,
                cost_basis: self.no_cost_basis,
            },
            self.realized_pnl,
        )
        .map_err(|e| corrupt("positions", self.user_id, &e))?;
        Ok(PositionRecord {
            user_id: id_of(self.user_id),
            market_id: id_of(self.market_id),
            position,
            redeemed_at: self.redeemed_at,
            updated_at: self.updated_at,
        })
    }
}

/// A redemption as written.
#[derive(Debug, Insertable, Queryable, Selectable)]
#[diesel(table_name = redemptions, check_for_backend(diesel::pg::Pg))]
pub(crate) struct RedemptionRow {
    operator_id: Uuid,
    id: Uuid,
    user_id: Uuid,
    market_id: Uuid,
    resolution: String,
    amount: i64,
    currency: String,
    status: String,
    created_at: OffsetDateTime,
    paid_at: Option<OffsetDateTime>,
}

impl RedemptionRow {
    pub(crate) fn from_record(redemption: &Redemption) -> Self {
        Self {
            operator_id: uuid_of(redemption.operator_id),
            id: uuid_of(redemption.id),
            user_id: uuid_of(redemption.user_id),
            market_id: uuid_of(redemption.market_id),
            resolution: redemption.resolution.as_str().to_owned(),
            amount: redemption.amount,
            currency: redemption.currency.as_str().to_owned(),
            status: redemption.status.as_str().to_owned(),
            created_at: redemption.created_at,
            paid_at: redemption.paid_at,
        }
    }

    /// The player.
    pub(crate) fn user_id(&self) -> Uuid {
        self.user_id
    }

    pub(crate) fn into_record(self, external_user_id: String) -> Result<Redemption, StoreError> {
        let bad = |problem: &dyn std::fmt::Display| corrupt("redemptions", self.id, problem);
        Ok(Redemption {
            id: id_of(self.id),
            operator_id: id_of(self.operator_id),
            user_id: id_of(self.user_id),
            external_user_id,
            market_id: id_of(self.market_id),
            resolution: self.resolution.parse().map_err(|e| bad(&e))?,
            amount: self.amount,
            currency: self.currency.parse().map_err(|e| bad(&e))?,
            status: self.status.parse().map_err(|e| bad(&e))?,
            created_at: self.created_at,
            paid_at: self.paid_at,
        })
    }
}

/// A wallet operation as stored.
#[derive(Debug, Insertable, Queryable, Selectable)]
#[diesel(table_name = wallet_operations, check_for_backend(diesel::pg::Pg))]
pub(crate) struct OperationRow {
    operator_id: Uuid,
    id: Uuid,
    user_id: Uuid,
    external_user_id: String,
    flow: String,
    reason: String,
    idempotency_key: String,
    fingerprint: String,
    amount: i64,
    currency: String,
    metadata: serde_json::Value,
    market_id: Uuid,
    trade_id: Option<Uuid>,
    redemption_id: Option<Uuid>,
    state: String,
    attempts: i32,
    http_status: Option<i32>,
    detail: Option<String>,
    remote_reference: Option<String>,
    balance_after: Option<i64>,
    created_at: OffsetDateTime,
    sent_at: Option<OffsetDateTime>,
    answered_at: Option<OffsetDateTime>,
    next_attempt_at: Option<OffsetDateTime>,
    resolved_at: Option<OffsetDateTime>,
    resolved_by: Option<String>,
    resolution_note: Option<String>,
}

impl OperationRow {
    pub(crate) fn new(operation: &NewOperation) -> Self {
        let record = &operation.record;
        let metadata = record
            .metadata
            .iter()
            .map(|(key, value)| (key.clone(), serde_json::Value::String(value.clone())))
            .collect();
        Self {
            operator_id: uuid_of(record.operator_id),
            id: uuid_of(record.id),
            user_id: uuid_of(record.user_id),
            external_user_id: record.external_user_id.clone(),
            flow: record.flow.as_str().to_owned(),
            reason: record.reason.as_str().to_owned(),
            idempotency_key: record.idempotency_key.as_str().to_owned(),
            fingerprint: operation.fingerprint.to_string(),
            amount: record.amount,
            currency: record.currency.as_str().to_owned(),
            metadata: serde_json::Value::Object(metadata),
            market_id: uuid_of(record.market_id),
            trade_id: record.trade_id.map(uuid_of),
            redemption_id: record.redemption_id.map(uuid_of),
            state: record.state.as_str().to_owned(),
            attempts: i32::try_from(record.attempts).unwrap_or(i32::MAX),
            http_status: record.http_status.map(i32::from),
            detail: record.detail.clone(),
            remote_reference: record.remote_reference.clone(),
            balance_after: record.balance_after,
            created_at: record.created_at,
            sent_at: record.sent_at,
            answered_at: record.answered_at,
            next_attempt_at: operation.next_attempt_at,
            resolved_at: record.resolved_at,
            resolved_by: None,
            resolution_note: None,
        }
    }

    /// Its primary key.
    pub(crate) fn key(&self) -> (Uuid, Uuid) {
        (self.operator_id, self.id)
    }

    pub(crate) fn into_record(self) -> Result<WalletOperationRecord, StoreError> {
        let bad = |problem: &dyn std::fmt::Display| corrupt("wallet_operations", self.id, problem);
        let metadata = match self.metadata {
            serde_json::Value::Object(map) => map
                .into_iter()
                .map(|(key, value)| match value {
                    serde_json::Value::String(text) => Ok((key, text)),
                    other => Err(bad(&format_args!("metadata {key} is {other}"))),
                })
                .collect::<Result<BTreeMap<_, _>, _>>()?,
            other => return Err(bad(&format_args!("metadata is {other}"))),
        };
        Ok(WalletOperationRecord {
            id: id_of(self.id),
            operator_id: id_of(self.operator_id),
            user_id: id_of(self.user_id),
            external_user_id: self.external_user_id,
            flow: self.flow.parse().map_err(|e| bad(&e))?,
            reason: self.reason.parse().map_err(|e| bad(&e))?,
            idempotency_key: self.idempotency_key.parse().map_err(|e| bad(&e))?,
            amount: self.amount,
            currency: self.currency.parse().map_err(|e| bad(&e))?,
            metadata,
            market_id: id_of(self.market_id),
            trade_id: self.trade_id.map(id_of),
            redemption_id: self.redemption_id.map(id_of),
            state: self.state.parse().map_err(|e| bad(&e))?,
            attempts: u32::try_from(self.attempts).map_err(|e| bad(&e))?,
            http_status: self.http_status.map(u16::try_from).transpose().map_err(|e| bad(&e))?,
            detail: self.detail,
            remote_reference: self.remote_reference,
            balance_after: self.balance_after,
            created_at: self.created_at,
            sent_at: self.sent_at,
            answered_at: self.answered_at,
            resolved_at: self.resolved_at,
        })
    }
}

/// One step of an operation's log.
#[derive(Debug, Insertable, Queryable, Selectable)]
#[diesel(table_name = wallet_operation_steps, check_for_backend(diesel::pg::Pg))]
pub(crate) struct StepRow {
    operator_id: Uuid,
    operation_id: Uuid,
    step: i32,
    state: String,
    http_status: Option<i32>,
    detail: Option<String>,
    at: OffsetDateTime,
}

impl StepRow {
    /// Step number `step` of operation `record`: it moved to its current state at `at`.
    pub(crate) fn new(record: &WalletOperationRecord, step: i32, detail: Option<String>, at: OffsetDateTime) -> Self {
        Self {
            operator_id: uuid_of(record.operator_id),
            operation_id: uuid_of(record.id),
            step,
            state: record.state.as_str().to_owned(),
            http_status: record.http_status.map(i32::from),
            detail,
            at,
        }
    }

    pub(crate) fn into_step(self) -> Result<WalletOperationStep, StoreError> {
        let bad = |problem: &dyn std::fmt::Display| corrupt("wallet_operation_steps", self.operation_id, problem);
        Ok(WalletOperationStep {
            state: self.state.parse().map_err(|e| bad(&e))?,
            http_status: self.http_status.map(u16::try_from).transpose().map_err(|e| bad(&e))?,
            detail: self.detail,
            at: self.at,
        })
    }
}
