//! What every order goes through before its wallet call: the replay of a repeated client
//! order id, the operator's wallet target, the pending trade and its wallet mutation, and
//! the insertion of the trade with its operation, which the database refuses when the
//! player already has an open trade on the market. An order's opening reads and writes in
//! one transaction; waiting for a repeated order's first trade comes after it.

use std::time::Duration;

use opinion_core::{OperatorId, TradeId};
use opinion_market::{Quote, Side, TradeStatus};
use opinion_wallet::{
    Amount, Classification, Currency, FlowMetadata, OperationState, RetryLimit, ShareCount, TradeMetadata,
    WalletMutation,
};
use time::OffsetDateTime;

use crate::access::operator_currency;
use crate::error::{AppError, ProblemCode};
use crate::model::{OperatorMarket, Trade};
use crate::opinion::trading::buy::same_order;
use crate::opinion::trading::ports::{NewOperation, OperationUpdate, TradingChange};
use crate::opinion::trading::wallet_call::OperationSubject;
use crate::opinion::trading::{OrderRequest, Trading};
use crate::players::{ActingPlayer, PlayerPrincipal};
use crate::ports::{ChangedRecord, StoreError, UniqueKey};
use crate::wallet::ports::WalletAdapterTarget;

/// How often a repeated order looks again at a first order still in flight.
const REPLAY_POLL: Duration = Duration::from_millis(50);

/// How long past the wallet's timeout a repeated order waits for the first one's end.
const REPLAY_GRACE: Duration = Duration::from_secs(2);

/// The player an order acts for, made sure of (inside the order's opening step), with
/// its id on the order's span.
pub(crate) async fn confirmed(player: &impl ActingPlayer) -> Result<PlayerPrincipal, AppError> {
    let player = player.confirm().await?;
    tracing::Span::current().record("user_id", tracing::field::display(player.user.id));
    Ok(player)
}

impl Trading {
    /// The first trade of a repeated client order id, as it is now (it may still be
    /// pending: see `settled`); `None` for a new id. A different order under the same id
    /// is refused.
    pub(crate) async fn first_order(
        &self,
        player: &PlayerPrincipal,
        request: &OrderRequest,
        client_order_id: &str,
    ) -> Result<Option<Trade>, AppError> {
        let Some(first) = self
            .ports
            .trades
            .find_trade_by_client_order(player.operator_id, player.user.id, client_order_id)
            .await?
        else {
            return Ok(None);
        };
        if !same_order(&first.trade, request) {
            return Err(AppError::Conflict {
                code: ProblemCode::ClientOrderIdReused,
                detail: format!("client order id `{client_order_id}` was already used for another order"),
            });
        }
        tracing::info!(trade_id = %first.trade.id, "repeated client order id: returning the first trade");
        Ok(Some(first.trade))
    }

    /// `trade` once it is no longer pending, waiting at most the wallet's timeout and a
    /// grace period (then as it is); a trade that has ended is answered without a read.
    pub(crate) async fn settled(&self, operator: OperatorId, trade: Trade) -> Result<Trade, AppError> {
        if trade.status != TradeStatus::Pending {
            return Ok(trade);
        }
        let timeout = self
            .ports
            .wallet_adapters
            .find_wallet_target(operator)
            .await?
            .map_or(Duration::from_secs(10), |target| target.timeout);
        let deadline = tokio::time::Instant::now() + timeout + REPLAY_GRACE;
        let mut current = trade;
        while current.status == TradeStatus::Pending && tokio::time::Instant::now() < deadline {
            tokio::time::sleep(REPLAY_POLL).await;
            current = self
                .ports
                .trades
                .find_trade(operator, current.id)
                .await?
                .map(|open| open.trade)
                .ok_or(AppError::NotFound("trade"))?;
        }
        Ok(current)
    }

    /// What an order reads before it is priced: the replay check, the wallet target, the
    /// market (refused unless tradable) and the operator's currency. They need nothing
    /// from each other, so they are asked for together (one round trip in the opening's
    /// step) and judged in that order: a repeated client order id is answered with its
    /// first trade whatever the rest says, otherwise the first refusal is the answer.
    pub(crate) async fn order_reads(
        &self,
        player: &PlayerPrincipal,
        request: &OrderRequest,
        client_order_id: &str,
    ) -> Result<OrderReads, AppError> {
        let (first, target, market, currency) = tokio::join!(
            self.first_order(player, request, client_order_id),
            self.wallet_target(player.operator_id),
            self.tradable_market(player, request),
            operator_currency(self.ports.operators.as_ref(), player.operator_id),
        );
        if let Some(first) = first? {
            return Ok(OrderReads::Repeated(Box::new(first)));
        }
        Ok(OrderReads::New(Box::new(OrderInputs {
            target: target?,
            market: market?,
            currency: currency?,
        })))
    }

    /// The operator's wallet adapter, or a refusal saying it must be configured first.
    pub(crate) async fn wallet_target(&self, operator: OperatorId) -> Result<WalletAdapterTarget, AppError> {
        self.ports
            .wallet_adapters
            .find_wallet_target(operator)
            .await?
            .ok_or_else(|| AppError::Conflict {
                code: ProblemCode::WalletAdapterNotConfigured,
                detail: "the operator has not configured its wallet adapter (PUT /api/operator/wallet-adapter)".into(),
            })
    }

    /// Stores a new trade with its first operation; the outcome says whether the wallet
    /// call comes next, a concurrent twin already answered, or the order must be priced
    /// again.
    pub(crate) async fn open_trade(
        &self,
        player: &PlayerPrincipal,
        request: &OrderRequest,
        change: &TradingChange,
    ) -> Result<Opening, AppError> {
        match self.ports.trades.apply(player.operator_id, change).await {
            Ok(()) => Ok(Opening::Opened),
            Err(StoreError::Duplicate(UniqueKey::ClientOrder)) => {
                let client_order_id = change
                    .new_trade
                    .as_ref()
                    .map(|new| new.trade.client_order_id.clone())
                    .unwrap_or_default();
                match self.first_order(player, request, &client_order_id).await? {
                    Some(first) => Ok(Opening::Replayed(Box::new(first))),
                    None => Err(StoreError::Duplicate(UniqueKey::ClientOrder).into()),
                }
            }
            Err(StoreError::Duplicate(UniqueKey::OpenTrade)) => Err(AppError::Conflict {
                code: ProblemCode::TradeInProgress,
                detail: "another order of this player on this market is still in progress".into(),
            }),
            Err(StoreError::Conflict(record)) => Ok(Opening::Raced(record)),
            Err(other) => Err(other.into()),
        }
    }
}

/// What a new order is priced and sent with ([`Trading::order_reads`]).
#[derive(Debug)]
pub(crate) struct OrderInputs {
    /// The operator's wallet adapter.
    pub target: WalletAdapterTarget,
    /// The market, tradable when it was read.
    pub market: OperatorMarket,
    /// The operator's currency.
    pub currency: Currency,
}

/// What an order's reads found ([`Trading::order_reads`]).
#[derive(Debug)]
pub(crate) enum OrderReads {
    /// A new order.
    New(Box<OrderInputs>),
    /// A repeated client order id: its first trade, as it is now.
    Repeated(Box<Trade>),
}

/// An order stored with its `sent` operation: what its wallet call needs.
#[derive(Debug)]
pub(crate) struct OpenedOrder {
    /// The trade, `pending`.
    pub trade: Trade,
    /// The operator's wallet adapter.
    pub target: WalletAdapterTarget,
    /// The debit or credit to send.
    pub mutation: WalletMutation,
    /// Its operation, stored `sent`.
    pub operation: NewOperation,
}

/// How an order's opening ended: stored and ready for its wallet call, or the repeat of
/// an order already placed under its client order id.
#[derive(Debug)]
pub(crate) enum OrderOpening {
    /// Stored; the wallet call comes next.
    Opened(Box<OpenedOrder>),
    /// The first order under the same client order id, as it is now.
    Replayed(Box<Trade>),
}

impl Trading {
    /// The `pending` trade of `request` priced as `quote`, with its wallet mutation and
    /// its operation as stored before the call (`sent`).
    pub(crate) fn priced_order(
        &self,
        player: &PlayerPrincipal,
        request: &OrderRequest,
        client_order_id: &str,
        quote: &Quote,
        currency: Currency,
        target: WalletAdapterTarget,
    ) -> Result<OpenedOrder, AppError> {
        let now = self.ports.clock.now();
        let trade = self.pending_trade(player, request, client_order_id, quote, currency, now);
        let (mutation, subject) = trade_mutation(&trade)?;
        let operation = self.new_operation(subject, &mutation, OperationState::Sent, now);
        Ok(OpenedOrder {
            trade,
            target,
            mutation,
            operation,
        })
    }

    /// Sends an opened order's wallet mutation, once.
    pub(crate) async fn call_opened(
        &self,
        opened: &OpenedOrder,
    ) -> Result<(Classification, OperationUpdate), AppError> {
        self.call_wallet(
            &opened.target,
            &opened.mutation,
            &opened.operation.record,
            RetryLimit::DEFAULT,
        )
        .await
    }
}

/// How storing a new trade went.
#[derive(Debug)]
pub(crate) enum Opening {
    /// The trade and its operation are stored; the wallet call comes next.
    Opened,
    /// A concurrent request with the same client order id won; its trade, once settled,
    /// is the answer.
    Replayed(Box<Trade>),
    /// A compare-and-set failed (the pool or a position moved): price the order again.
    Raced(ChangedRecord),
}

impl Trading {
    /// The `pending` trade of `request` priced as `quote`.
    pub(crate) fn pending_trade(
        &self,
        player: &PlayerPrincipal,
        request: &OrderRequest,
        client_order_id: &str,
        quote: &Quote,
        currency: Currency,
        now: OffsetDateTime,
    ) -> Trade {
        Trade {
            id: TradeId::from_ulid(self.ports.random.ulid()),
            operator_id: player.operator_id,
            user_id: player.user.id,
            external_user_id: player.user.external_user_id.clone(),
            market_id: request.market_id,
            client_order_id: client_order_id.to_owned(),
            side: request.side,
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
        }
    }
}

/// The wallet mutation of a trade (a buy's debit, a sale's credit) and what its
/// operation is about. A sale that would pay nothing is refused: nothing can be credited.
pub(crate) fn trade_mutation(trade: &Trade) -> Result<(WalletMutation, OperationSubject), AppError> {
    let metadata = TradeMetadata {
        market_id: trade.market_id,
        trade_id: trade.id,
        outcome: trade.outcome,
        shares: ShareCount::new(trade.shares).map_err(|e| AppError::Internal(e.to_string()))?,
    };
    let metadata = match trade.side {
        Side::Buy => FlowMetadata::Buy(metadata),
        Side::Sell => FlowMetadata::Sell(metadata),
    };
    let amount = Amount::new(trade.amount).map_err(|_| AppError::Conflict {
        code: ProblemCode::NothingToCredit,
        detail: "the sale would pay nothing after the fee; sell more shares".into(),
    })?;
    let subject = OperationSubject {
        operator_id: trade.operator_id,
        user_id: trade.user_id,
        market_id: trade.market_id,
        trade_id: Some(trade.id),
        redemption_id: None,
    };
    let mutation = WalletMutation::new(&trade.external_user_id, amount, trade.currency, metadata)
        .map_err(|e| AppError::Internal(e.to_string()))?;
    Ok((mutation, subject))
}
