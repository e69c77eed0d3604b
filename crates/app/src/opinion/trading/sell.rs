//! Selling shares: the sale is taken from the pool and the position at once (the player
//! really holds the shares, so no price moves on shares nobody has), stored with its
//! `sent` credit and `mini_app.trade.submitted` in one transaction with the reads it is
//! decided on, and then credited; a credit definitely not applied unwinds the sale.

use opinion_market::{Side, TradeStatus};

use crate::error::{AppError, ProblemCode};
use crate::model::Trade;
use crate::opinion::trading::opening::{self, Opening, OrderInputs, OrderOpening, OrderReads};
use crate::opinion::trading::ports::{NewTrade, PoolChange, TradingChange};
use crate::opinion::trading::settle_buy::position_change;
use crate::opinion::trading::{OrderRequest, Trading, order};
use crate::players::{ActingPlayer, PlayerPrincipal};
use crate::ports::{ChangedRecord, StoreError, in_one_transaction};

/// How often opening a sale is tried again when the pool changed under it.
const OPENING_ATTEMPTS: usize = 16;

impl Trading {
    /// Sells for the player; the answer is the trade as it ended (executed, failed, or in
    /// manual review when the wallet's answer was ambiguous). The player is made sure of
    /// first, in the opening's transaction.
    #[tracing::instrument(skip_all, fields(operator_id = %player.operator_id(), user_id, client_order_id = %client_order_id))]
    pub async fn sell(
        &self,
        player: &impl ActingPlayer,
        request: &OrderRequest,
        client_order_id: &str,
    ) -> Result<Trade, AppError> {
        for _ in 0..OPENING_ATTEMPTS {
            let (player, opening) = in_one_transaction(self.ports.transactions.as_ref(), async {
                let player = opening::confirmed(player).await?;
                order::check_client_order_id(client_order_id)?;
                order::check_shape(request)?;
                if request.side != Side::Sell {
                    return Err(AppError::invalid("side", "must be `sell` for a sale"));
                }
                let opening = self.open_sale(&player, request, client_order_id).await?;
                Ok((player, opening))
            })
            .await?;
            match opening {
                Some(OrderOpening::Opened(opened)) => {
                    let (classification, update) = self.call_opened(&opened).await?;
                    return self
                        .settle_sell(opened.trade, update, &classification, TradeStatus::Pending)
                        .await;
                }
                Some(OrderOpening::Replayed(first)) => return self.settled(player.operator_id, *first).await,
                None => {}
            }
        }
        Err(StoreError::Conflict(ChangedRecord::Pool).into())
    }

    /// One try at everything a sale reads and stores before its wallet call, as one step:
    /// the order's reads and the position, asked for together, then the trade with the pool and position already changed, its `sent` credit and
    /// `mini_app.trade.submitted`. `None` when the pool or the position changed under it.
    async fn open_sale(
        &self,
        player: &PlayerPrincipal,
        request: &OrderRequest,
        client_order_id: &str,
    ) -> Result<Option<OrderOpening>, AppError> {
        let (reads, position) = tokio::join!(
            self.order_reads(player, request, client_order_id),
            self.ports
                .trades
                .find_position(player.operator_id, player.user.id, request.market_id),
        );
        let OrderInputs {
            target,
            market,
            currency,
        } = match reads? {
            OrderReads::New(inputs) => *inputs,
            OrderReads::Repeated(first) => return Ok(Some(OrderOpening::Replayed(first))),
        };
        let before = position?.map(|record| record.position);
        let held = before.unwrap_or_default();
        held.check_sale(request.outcome, request.value).map_err(insufficient)?;
        let quote = order::price(&market, request)?;
        let after = held.apply(&quote).map_err(insufficient)?;
        let opened = self.priced_order(player, request, client_order_id, &quote, currency, target)?;
        let trade = &opened.trade;
        let change = TradingChange {
            new_trade: Some(NewTrade {
                trade: trade.clone(),
                position_before: before,
            }),
            new_operations: vec![opened.operation.clone()],
            pool: Some(PoolChange {
                market_id: trade.market_id,
                before: market.pool,
                after: quote.pool_after,
            }),
            position: Some(position_change(trade, before, after)),
            events: vec![self.trade_submitted(trade, trade.created_at)],
            ..TradingChange::default()
        };
        match self.open_trade(player, request, &change).await? {
            Opening::Opened => Ok(Some(OrderOpening::Opened(Box::new(opened)))),
            Opening::Replayed(first) => Ok(Some(OrderOpening::Replayed(first))),
            Opening::Raced(record) => {
                tracing::debug!(%record, "opening the sale again: changed concurrently");
                Ok(None)
            }
        }
    }
}

/// A sale of more shares than held, as the player's refusal.
fn insufficient(error: opinion_market::PositionError) -> AppError {
    AppError::Conflict {
        code: ProblemCode::InsufficientShares,
        detail: error.to_string(),
    }
}
