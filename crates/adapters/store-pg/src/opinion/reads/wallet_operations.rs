//! The operator's Opinion wallet operations and their step logs.

use diesel::dsl::AsSelect;
use diesel::pg::Pg;
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use opinion_app::model::{WalletOperationRecord, WalletOperationStep};
use opinion_app::opinion::reads::ports::{TimeRange, WalletOperationFilter};
use opinion_app::ports::StoreError;
use opinion_core::{OperatorId, Page, PageRequest, TradeId, WalletOperationId, WalletOperationKind};
use opinion_wallet::{OperationState, WalletFlow};
use uuid::Uuid;

use crate::db::error::from_diesel;
use crate::db::ids::uuid_of;
use crate::db::keyset_page::keyset_page;
use crate::db::schema::{trades, wallet_operation_steps, wallet_operations};
use crate::opinion::flows::OPINION_FLOWS;
use crate::opinion::trading::rows::{WalletOperationRow, WalletOperationStepRow};

/// One page of Opinion's operations, newest first.
pub(super) async fn list(
    conn: &mut AsyncPgConnection,
    operator: OperatorId,
    filter: &WalletOperationFilter,
    page: PageRequest<WalletOperationKind>,
) -> Result<Page<WalletOperationRecord, WalletOperationKind>, StoreError> {
    let shared = SharedOperationFilter {
        external_user_id: filter.external_user_id.as_deref(),
        flow: filter.flow,
        state: filter.state,
        created: &filter.created,
    };
    let market = filter.market_id;
    operations_page(conn, operator, &OPINION_FLOWS, &shared, page, |query| match market {
        Some(market) => query.filter(wallet_operations::market_id.eq(uuid_of(market))),
        None => query,
    })
    .await
}

/// The filters every product's operation list has.
pub(crate) struct SharedOperationFilter<'a> {
    pub external_user_id: Option<&'a str>,
    pub flow: Option<WalletFlow>,
    pub state: Option<OperationState>,
    pub created: &'a TimeRange,
}

/// A boxed query of wallet operation rows.
pub(crate) type OperationQuery = wallet_operations::BoxedQuery<'static, Pg, AsSelect<WalletOperationRow, Pg>>;

/// One page, newest first, of the operator's operations whose flow is one of `flows`,
/// narrowed by `shared` and by `narrow` (the product's own filters).
pub(crate) async fn operations_page(
    conn: &mut AsyncPgConnection,
    operator: OperatorId,
    flows: &[&'static str],
    shared: &SharedOperationFilter<'_>,
    page: PageRequest<WalletOperationKind>,
    narrow: impl FnOnce(OperationQuery) -> OperationQuery,
) -> Result<Page<WalletOperationRecord, WalletOperationKind>, StoreError> {
    let mut query: OperationQuery = wallet_operations::table
        .filter(wallet_operations::operator_id.eq(uuid_of(operator)))
        .filter(wallet_operations::flow.eq_any(flows.to_vec()))
        .select(WalletOperationRow::as_select())
        .order(wallet_operations::id.desc())
        .into_boxed();
    if let Some(external) = shared.external_user_id {
        query = query.filter(wallet_operations::external_user_id.eq(external.to_owned()));
    }
    if let Some(flow) = shared.flow {
        query = query.filter(wallet_operations::flow.eq(flow.as_str()));
    }
    if let Some(state) = shared.state {
        query = query.filter(wallet_operations::state.eq(state.as_str()));
    }
    if let Some(from) = shared.created.from {
        query = query.filter(wallet_operations::created_at.ge(from));
    }
    if let Some(to) = shared.created.to {
        query = query.filter(wallet_operations::created_at.lt(to));
    }
    if let Some(after) = page.after {
        query = query.filter(wallet_operations::id.lt(uuid_of(after.position())));
    }
    let rows = keyset_page(narrow(query), &page)
        .load(conn)
        .await
        .map_err(from_diesel)?;
    let operations = rows
        .into_iter()
        .map(WalletOperationRow::into_record)
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Page::from_overfetch(
        operations,
        page.limit,
        |operation: &WalletOperationRecord| operation.id,
    ))
}

/// The operations made for one trade, oldest first. Restricted to the trade's player
/// so the query walks that player's operations by index.
pub(super) async fn of_trade(
    conn: &mut AsyncPgConnection,
    operator: OperatorId,
    trade: TradeId,
) -> Result<Vec<WalletOperationRecord>, StoreError> {
    let operator = uuid_of(operator);
    let trade = uuid_of(trade);
    let player = trades::table
        .find((operator, trade))
        .select(trades::user_id)
        .single_value();
    let rows = wallet_operations::table
        .filter(wallet_operations::operator_id.eq(operator))
        .filter(wallet_operations::user_id.nullable().eq(player))
        .filter(wallet_operations::trade_id.eq(trade))
        .select(WalletOperationRow::as_select())
        .order(wallet_operations::id.asc())
        .load(conn)
        .await
        .map_err(from_diesel)?;
    rows.into_iter().map(WalletOperationRow::into_record).collect()
}

/// The steps of the given operations, each operation's in order.
pub(crate) async fn steps(
    conn: &mut AsyncPgConnection,
    operator: OperatorId,
    operations: &[WalletOperationId],
) -> Result<Vec<(WalletOperationId, WalletOperationStep)>, StoreError> {
    let ids: Vec<Uuid> = operations.iter().copied().map(uuid_of).collect();
    let rows = wallet_operation_steps::table
        .filter(wallet_operation_steps::operator_id.eq(uuid_of(operator)))
        .filter(wallet_operation_steps::operation_id.eq_any(ids))
        .select(WalletOperationStepRow::as_select())
        .order((wallet_operation_steps::operation_id, wallet_operation_steps::step))
        .load(conn)
        .await
        .map_err(from_diesel)?;
    rows.into_iter()
        .map(|row| Ok((row.operation_id(), row.into_record()?)))
        .collect()
}
