//! `/api/operator/balance-operations`: every wallet call made for the operator's players.

use actix_web::{HttpResponse, web};

use crate::http::auth::Caller;
use crate::http::error::ApiError;
use crate::operator::balance_operations::dto::{BalanceOperationBody, BalanceOperationsQuery};
use crate::shared::list::ListBody;
use crate::state::ApiState;

/// Lists the operator's wallet operations, newest first.
pub async fn list(
    state: web::Data<ApiState>,
    caller: Caller,
    query: web::Query<BalanceOperationsQuery>,
) -> Result<HttpResponse, ApiError> {
    let page = query.page_query().page()?;
    let operations = state
        .reads
        .list_balance_operations(caller.0.operator_id, &(&*query).into(), page)
        .await?;
    Ok(HttpResponse::Ok().json(ListBody::from_page(operations, BalanceOperationBody::from)))
}
