//! Buying shares: the wallet is debited first, then the buy is placed at the pool (see
//! `opinion_market::placement`). The trade and its `sent` debit are stored before the
//! call, with `mini_app.trade.submitted`, in the one transaction that also reads what the
//! buy needs; a repeated client order id returns the first trade; at most one open trade
//! per player and market means two racing orders can never both reach the wallet.

use opinion_market::{Side, TradeStatus};

use crate::error::AppError;
use crate::model::Trade;
use crate::opinion::trading::opening::{self, Opening, OrderInputs, OrderOpening, OrderReads};
use crate::opinion::trading::ports::{NewTrade, TradingChange};
use crate::opinion::trading::{OrderRequest, Trading, order};
use crate::players::{ActingPlayer, PlayerPrincipal};
use crate::ports::{StoreError, in_one_transaction};

impl Trading {
    /// Buys for the player; the answer is the trade as it ended (executed, failed, or in
    /// manual review when the wallet's answer was ambiguous). The player is made sure of
    /// first, in the opening's transaction.
    #[tracing::instrument(skip_all, fields(operator_id = %player.operator_id(), user_id, client_order_id = %client_order_id))]
    pub async fn buy(
        &self,
        player: &impl ActingPlayer,
        request: &OrderRequest,
        client_order_id: &str,
    ) -> Result<Trade, AppError> {
        let (player, opening) = in_one_transaction(self.ports.transactions.as_ref(), async {
            let player = opening::confirmed(player).await?;
            order::check_client_order_id(client_order_id)?;
            if request.side != Side::Buy {
                return Err(AppError::invalid("side", "must be `buy` for a buy"));
            }
            let opening = self.open_buy(&player, request, client_order_id).await?;
            Ok((player, opening))
        })
        .await?;
        let opened = match opening {
            OrderOpening::Opened(opened) => *opened,
            OrderOpening::Replayed(first) => return self.settled(player.operator_id, *first).await,
        };
        let (classification, update) = self.call_opened(&opened).await?;
        self.settle_buy(opened.trade, update, &classification, TradeStatus::Pending)
            .await
    }

    /// Everything a buy reads and stores before its wallet call, in its opening step: the
    /// order's reads (the replay check, the wallet target, the market, the currency), its
    /// quote, then the trade with its `sent` debit and `mini_app.trade.submitted`.
    async fn open_buy(
        &self,
        player: &PlayerPrincipal,
        request: &OrderRequest,
        client_order_id: &str,
    ) -> Result<OrderOpening, AppError> {
        let OrderInputs {
            target,
            market,
            currency,
        } = match self.order_reads(player, request, client_order_id).await? {
            OrderReads::New(inputs) => *inputs,
            OrderReads::Repeated(first) => return Ok(OrderOpening::Replayed(first)),
        };
        let quote = order::price(&market, request)?;
        let opened = self.priced_order(player, request, client_order_id, &quote, currency, target)?;
        let trade = &opened.trade;
        let change = TradingChange {
            new_trade: Some(NewTrade {
                trade: trade.clone(),
                position_before: None,
            }),
            new_operations: vec![opened.operation.clone()],
            events: vec![self.trade_submitted(trade, trade.created_at)],
            ..TradingChange::default()
        };
        match self.open_trade(player, request, &change).await? {
            Opening::Opened => Ok(OrderOpening::Opened(Box::new(opened))),
            Opening::Replayed(first) => Ok(OrderOpening::Replayed(first)),
            Opening::Raced(record) => Err(StoreError::Conflict(record).into()),
        }
    }
}

/// How an order was sized, for comparing a repeated client order id with the first.
pub(crate) fn same_order(trade: &Trade, request: &OrderRequest) -> bool {
    trade.market_id == request.market_id
        && trade.side == request.side
        && trade.outcome == request.outcome
        && trade.order_kind == request.kind
        && trade.order_value == request.value
        && trade.order_limit == request.limit
}
