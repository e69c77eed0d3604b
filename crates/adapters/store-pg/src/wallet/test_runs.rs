//! `WalletTestRunStore`: every run of the full-contract wallet test, with what it ran
//! against, its verdict per product and its report; the latest is found by the
//! operator's `(ran_at, id)` index.

use async_trait::async_trait;
use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use opinion_app::ports::StoreError;
use opinion_app::wallet::ports::{WalletTestRun, WalletTestRunStore};
use opinion_core::OperatorId;
use time::OffsetDateTime;
use uuid::Uuid;

use crate::db::error::from_diesel;
use crate::db::ids::{id_of, uuid_of};
use crate::db::pool::PgStore;
use crate::db::schema::wallet_test_runs;

/// A `wallet_test_runs` row, read and written whole.
#[derive(Debug, Queryable, Selectable, Insertable)]
#[diesel(table_name = wallet_test_runs, check_for_backend(diesel::pg::Pg))]
struct WalletTestRunRow {
    operator_id: Uuid,
    id: Uuid,
    ran_at: OffsetDateTime,
    base_url: String,
    opinion_passed: bool,
    flight_passed: bool,
    report: serde_json::Value,
}

impl WalletTestRunRow {
    fn of(run: &WalletTestRun) -> Self {
        Self {
            operator_id: uuid_of(run.operator_id),
            id: uuid_of(run.id),
            ran_at: run.ran_at,
            base_url: run.base_url.clone(),
            opinion_passed: run.opinion_passed,
            flight_passed: run.flight_passed,
            report: run.report.clone(),
        }
    }

    fn into_run(self) -> WalletTestRun {
        WalletTestRun {
            id: id_of(self.id),
            operator_id: id_of(self.operator_id),
            ran_at: self.ran_at,
            base_url: self.base_url,
            opinion_passed: self.opinion_passed,
            flight_passed: self.flight_passed,
            report: self.report,
        }
    }
}

#[async_trait]
impl WalletTestRunStore for PgStore {
    #[tracing::instrument(skip_all, fields(operator_id = %run.operator_id, wallet_test_run_id = %run.id))]
    async fn record_wallet_test_run(&self, run: &WalletTestRun) -> Result<(), StoreError> {
        let mut conn = self.conn().await?;
        diesel::insert_into(wallet_test_runs::table)
            .values(WalletTestRunRow::of(run))
            .execute(&mut conn)
            .await
            .map_err(from_diesel)?;
        Ok(())
    }

    #[tracing::instrument(skip_all, fields(operator_id = %operator))]
    async fn latest_wallet_test_run(&self, operator: OperatorId) -> Result<Option<WalletTestRun>, StoreError> {
        let mut conn = self.conn().await?;
        let row = wallet_test_runs::table
            .filter(wallet_test_runs::operator_id.eq(uuid_of(operator)))
            .order((wallet_test_runs::ran_at.desc(), wallet_test_runs::id.desc()))
            .select(WalletTestRunRow::as_select())
            .first(&mut conn)
            .await
            .optional()
            .map_err(from_diesel)?;
        Ok(row.map(WalletTestRunRow::into_run))
    }
}
