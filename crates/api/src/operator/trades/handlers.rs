//! `/api/operator/trades`: the list, one trade as JSON or as a page, and one player's
//! trade history in one market as a page.
//!
//! `/trades/{tradeId}/view` is mounted before `/trades/{marketId}/{externalUserId}`, so a
//! history whose player is literally called `view` arrives at the trade page's handler.
//! Ids carry their kind in their prefix, so the first segment decides: a `mkt_…` id asks
//! for the history of the player `view`, anything else must be a `trd_…` id.

use actix_web::{HttpResponse, web};
use opinion_core::{MarketId, MarketKind};

use crate::http::auth::Caller;
use crate::http::error::ApiError;
use crate::http::extract::path_id;
use crate::operator::trades::dto::{HistoryQuery, TradeBody, TradeDetailBody, TradesQuery};
use crate::shared::list::ListBody;
use crate::state::ApiState;
use crate::views::{history_page, page_response, trade_page};

/// The last segment of the trade page's path.
const VIEW_SEGMENT: &str = "view";

/// Lists the operator's trades, newest first.
pub async fn list(
    state: web::Data<ApiState>,
    caller: Caller,
    query: web::Query<TradesQuery>,
) -> Result<HttpResponse, ApiError> {
    let page = query.page_query().page()?;
    let trades = state
        .reads
        .list_trades(caller.0.operator_id, &(&*query).into(), page)
        .await?;
    Ok(HttpResponse::Ok().json(ListBody::from_page(trades, TradeBody::from)))
}

/// One trade with its wallet operations.
pub async fn get(state: web::Data<ApiState>, caller: Caller, id: web::Path<String>) -> Result<HttpResponse, ApiError> {
    let detail = state.reads.trade(caller.0.operator_id, path_id(&id)?).await?;
    Ok(HttpResponse::Ok().json(TradeDetailBody::from(detail)))
}

/// One trade as a page, or the history of the player `view` when the id is a market's.
pub async fn view(
    state: web::Data<ApiState>,
    caller: Caller,
    id: web::Path<String>,
    query: web::Query<HistoryQuery>,
) -> Result<HttpResponse, ApiError> {
    if let Ok(market) = id.parse::<MarketId>() {
        return history_of(&state, &caller, market, VIEW_SEGMENT, &query).await;
    }
    let detail = state.reads.trade(caller.0.operator_id, path_id(&id)?).await?;
    let (title, content) = trade_page(&detail);
    Ok(page_response(&title, content))
}

/// One player's trades in one market, as a page.
pub async fn history(
    state: web::Data<ApiState>,
    caller: Caller,
    path: web::Path<(String, String)>,
    query: web::Query<HistoryQuery>,
) -> Result<HttpResponse, ApiError> {
    let (market, external_user_id) = path.into_inner();
    let market = path_id::<MarketKind>(&market)?;
    history_of(&state, &caller, market, &external_user_id, &query).await
}

async fn history_of(
    state: &ApiState,
    caller: &Caller,
    market: MarketId,
    external_user_id: &str,
    query: &HistoryQuery,
) -> Result<HttpResponse, ApiError> {
    let page = query.page_query().page()?;
    let history = state
        .reads
        .trade_history(caller.0.operator_id, market, external_user_id, page)
        .await?;
    let (title, content) = history_page(&history);
    Ok(page_response(&title, content))
}
