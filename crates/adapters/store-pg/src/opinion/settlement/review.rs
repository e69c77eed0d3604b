//! The reads of manual review. Platform
//! staff name an operation by its id alone, so `find_operation_by_id` and the list of
//! every operator's reviews are platform-wide; everything else filters by operator.

use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use opinion_app::model::{Redemption, WalletOperationRecord, WalletOperationStep};
use opinion_app::ports::StoreError;
use opinion_core::{OperatorId, RedemptionId, WalletOperationId};
use opinion_wallet::OperationState;

use crate::db::error::from_diesel;
use crate::db::ids::uuid_of;
use crate::db::pool::PgStore;
use crate::db::schema::{redemptions, wallet_operation_steps, wallet_operations};
use crate::opinion::settlement::rows::RedemptionRow;
use crate::opinion::trading::rows::{WalletOperationRow, WalletOperationStepRow};

pub(crate) async fn operations_in_review(
    store: &PgStore,
    operator: Option<OperatorId>,
    limit: u16,
) -> Result<Vec<WalletOperationRecord>, StoreError> {
    let mut conn = store.conn().await?;
    let mut query = wallet_operations::table
        .filter(wallet_operations::state.eq(OperationState::ManualReview.as_str()))
        .select(WalletOperationRow::as_select())
        .order((wallet_operations::created_at, wallet_operations::id))
        .limit(i64::from(limit))
        .into_boxed();
    if let Some(operator) = operator {
        query = query.filter(wallet_operations::operator_id.eq(uuid_of(operator)));
    }
    let rows: Vec<WalletOperationRow> = query.load(&mut conn).await.map_err(from_diesel)?;
    rows.into_iter().map(WalletOperationRow::into_record).collect()
}

pub(crate) async fn find_operation_by_id(
    store: &PgStore,
    id: WalletOperationId,
) -> Result<Option<WalletOperationRecord>, StoreError> {
    let mut conn = store.conn().await?;
    let row: Option<WalletOperationRow> = wallet_operations::table
        .filter(wallet_operations::id.eq(uuid_of(id)))
        .select(WalletOperationRow::as_select())
        .first(&mut conn)
        .await
        .optional()
        .map_err(from_diesel)?;
    row.map(WalletOperationRow::into_record).transpose()
}

pub(crate) async fn operation_steps(
    store: &PgStore,
    operator: OperatorId,
    id: WalletOperationId,
) -> Result<Vec<WalletOperationStep>, StoreError> {
    let mut conn = store.conn().await?;
    let rows: Vec<WalletOperationStepRow> = wallet_operation_steps::table
        .filter(wallet_operation_steps::operator_id.eq(uuid_of(operator)))
        .filter(wallet_operation_steps::operation_id.eq(uuid_of(id)))
        .order(wallet_operation_steps::step)
        .select(WalletOperationStepRow::as_select())
        .load(&mut conn)
        .await
        .map_err(from_diesel)?;
    rows.into_iter().map(WalletOperationStepRow::into_record).collect()
}

pub(crate) async fn find_redemption(
    store: &PgStore,
    operator: OperatorId,
    id: RedemptionId,
) -> Result<Option<Redemption>, StoreError> {
    let mut conn = store.conn().await?;
    redemptions::table
        .find((uuid_of(operator), uuid_of(id)))
        .select(RedemptionRow::as_select())
        .first(&mut conn)
        .await
        .optional()
        .map_err(from_diesel)?
        .map(RedemptionRow::into_record)
        .transpose()
}
