//! Buying shares: the wallet is debited first, then the buy is placed at the pool (see
//! `opinion_market::placement`). The trade and its `sent` debit are stored before the
//! call; a repeated client order id returns the first trade; at most one open trade per
//! player and market means two racing orders can never both reach the wallet.

use opinion_core::TradeId;
use opinion_market::{Side, TradeStatus};
use opinion_wallet::{Amount, FlowMetadata, OperationState, ShareCount, TradeMetadata, WalletMutation};

use crate::AppError;
use crate::model::Trade;
use crate::ports::{NewTrade, TradingChange};
use crate::trading::wallet_call::OperationSubject;
use crate::trading::{OrderRequest, PlayerPrincipal, Trading, order};

impl Trading {
    /// Buys for the player; the answer is the trade as it ended (executed, failed, or in
    /// manual review when the wallet's answer was ambiguous).
    #[tracing::instrument(skip_all, fields(operator_id = %player.operator_id, user_id = %player.user.id, client_order_id))]
    pub async fn buy(
        &self,
        player: &PlayerPrincipal,
        request: &OrderRequest,
        client_order_id: &str,
    ) -> Result<Trade, AppError> {
        order::check_client_order_id(client_order_id)?;
        if request.side != Side::Buy {
            return Err(AppError::invalid("side", "must be `buy` for a buy"));
        }
        if let Some(first) = self.replayed_order(player, request, client_order_id).await? {
            return Ok(first);
        }
        let target = self.wallet_target(player.operator_id).await?;
        let market = self.tradable_market(player, request).await?;
        let quote = order::price(&market, request)?;
        let currency = self.operator_currency(player.operator_id).await?;
        let now = self.ports.clock.now();
        let trade = Trade {
            id: TradeId::from_ulid(self.ports.random.ulid()),
            operator_id: player.operator_id,
            user_id: player.user.id,
            external_user_id: player.user.external_user_id.clone(),
            market_id: request.market_id,
            client_order_id: client_order_id.to_owned(),
            side: Side::Buy,
            outcome: request.outcome,
            order_kind: request.kind,
            order_value: request.value,
            order_limit: request.limit,
            shares: quote.shares,
            amount: quote.amount,
            fee: quote.fee,
            currency,
            price_before: quote.price_before,
            price_after: quote.price_after,
            status: TradeStatus::Pending,
            failure_reason: None,
            created_at: now,
            settled_at: None,
        };
        let metadata = FlowMetadata::Buy(TradeMetadata {
            market_id: trade.market_id,
            trade_id: trade.id,
            outcome: trade.outcome,
            shares: ShareCount::new(trade.shares).map_err(|e| AppError::Internal(e.to_string()))?,
        });
        let amount = Amount::new(trade.amount).map_err(|e| AppError::Internal(e.to_string()))?;
        let mutation = WalletMutation::new(&trade.external_user_id, amount, currency, metadata);
        let subject = OperationSubject {
            operator_id: trade.operator_id,
            user_id: trade.user_id,
            market_id: trade.market_id,
            trade_id: Some(trade.id),
            redemption_id: None,
        };
        let operation = self.new_operation(subject, &mutation, OperationState::Sent, now);
        let change = TradingChange {
            new_trade: Some(NewTrade {
                trade: trade.clone(),
                position_before: None,
            }),
            new_operations: vec![operation.clone()],
            ..TradingChange::default()
        };
        if let Some(first) = self.open_trade(player, request, &change).await? {
            return Ok(first);
        }
        let (classification, update) = self.call_wallet(&target, &mutation, &operation.record).await?;
        self.settle_buy(trade, update, &classification, TradeStatus::Pending)
            .await
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
