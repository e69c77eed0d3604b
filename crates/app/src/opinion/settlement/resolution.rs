//! Resolving a market: platform staff fix the answer once, and in the same transaction
//! every position is paid out by the market domain's `redemption` rule: a `pending`
//! redemption and a `prepared` wallet operation per position owed something (the wallet
//! worker sends them), a resolution row and a `mini_app.market.resolved` event per operator.
//! Refused while any trade on the market waits for its wallet or for staff, because
//! its position is not known yet.

use std::collections::BTreeMap;

use opinion_core::{MarketId, OperatorId, RedemptionId};
use opinion_market::{MarketStatus, RedemptionStatus, Resolution, redemption};
use opinion_wallet::{Amount, FlowMetadata, OperationState, RedemptionMetadata, WalletMutation};
use time::OffsetDateTime;

use crate::error::{AppError, ProblemCode};
use crate::model::{Market, MarketResolution, Redemption};
use crate::opinion::settlement::MarketSettlement;
use crate::opinion::settlement::markets::status_conflict;
use crate::opinion::settlement::ports::{MarketOperator, RedeemablePosition, ResolutionPlan};
use crate::opinion::trading::wallet_call::OperationSubject;
use crate::ports::{ChangedRecord, StoreError};

/// How often a resolution is recomputed when positions change under it.
const RESOLVE_ATTEMPTS: usize = 3;

/// A resolved market and what each operator's players are owed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResolvedMarket {
    /// The market, resolved.
    pub market: Market,
    /// One per operator that traded it.
    pub resolutions: Vec<MarketResolution>,
}

fn open_trades_refusal(count: i64) -> AppError {
    AppError::Conflict {
        code: ProblemCode::OpenTrades,
        detail: format!(
            "{count} trade(s) on the market are pending or in manual review; resolve the market once they are settled"
        ),
    }
}

impl MarketSettlement {
    /// Resolves market `id` as `resolution` (closing it first if it is open) and creates
    /// its payouts. Retries when a position changes under it; refused while any trade on
    /// the market is pending or in manual review, and when it is already resolved.
    pub async fn resolve_market(&self, id: MarketId, resolution: Resolution) -> Result<ResolvedMarket, AppError> {
        for attempt in 1..=RESOLVE_ATTEMPTS {
            if let Some(resolved) = self.try_resolve(id, resolution).await? {
                return Ok(resolved);
            }
            tracing::info!(market_id = %id, attempt, "resolution raced a change; computing it again");
        }
        Err(status_conflict("the market's positions keep changing; try again"))
    }

    /// One resolution attempt; `None` when a position changed under it.
    async fn try_resolve(&self, id: MarketId, resolution: Resolution) -> Result<Option<ResolvedMarket>, AppError> {
        let mut market = self.market(id).await?;
        let resolved_status = market.status.resolve(resolution).map_err(status_conflict)?;
        if market.status == MarketStatus::Open {
            market = self.close_market(id).await?;
        }
        let open = self.store.count_open_trades(id).await?;
        if open > 0 {
            return Err(open_trades_refusal(open));
        }
        let operators = self.store.market_operators(id).await?;
        let positions = self.store.unredeemed_positions(id).await?;
        let now = self.trading.ports.clock.now();
        let resolved = Market {
            status: resolved_status,
            resolved_at: Some(now),
            ..market
        };
        let plan = self.plan(resolved, resolution, operators, positions, now)?;
        match self.store.resolve_market(&plan).await {
            Err(StoreError::Conflict(ChangedRecord::OpenTrade)) => {
                let open = self.store.count_open_trades(id).await?;
                return Err(open_trades_refusal(open.max(1)));
            }
            Err(StoreError::Conflict(ChangedRecord::Market)) => {
                return Err(status_conflict("the market changed meanwhile; read it again"));
            }
            Err(StoreError::Conflict(record)) => {
                tracing::debug!(market_id = %id, %record, "changed concurrently");
                return Ok(None);
            }
            other => other?,
        }
        tracing::info!(market_id = %id, %resolution, redemptions = plan.redemptions.len(), "market resolved");
        Ok(Some(ResolvedMarket {
            market: plan.market,
            resolutions: plan.resolutions,
        }))
    }

    /// Everything the resolution writes, with each payout from the domain's rule.
    fn plan(
        &self,
        market: Market,
        resolution: Resolution,
        operators: Vec<MarketOperator>,
        positions: Vec<RedeemablePosition>,
        now: OffsetDateTime,
    ) -> Result<ResolutionPlan, AppError> {
        let mut totals: BTreeMap<OperatorId, MarketResolution> = operators
            .iter()
            .map(|operator| {
                let row = MarketResolution {
                    operator_id: operator.operator_id,
                    market_id: market.id,
                    resolution,
                    resolved_at: now,
                    redemption_count: 0,
                    payout_total: 0,
                    currency: operator.currency,
                };
                (operator.operator_id, row)
            })
            .collect();
        let mut redemptions = Vec::new();
        let mut operations = Vec::new();
        for held in &positions {
            let amount = redemption(&held.record.position, resolution);
            let Ok(payable) = Amount::new(amount) else {
                continue;
            };
            let total = totals.get_mut(&held.operator_id).ok_or_else(|| {
                AppError::Internal(format!("position of operator {} without its pool", held.operator_id))
            })?;
            total.redemption_count += 1;
            total.payout_total = total
                .payout_total
                .checked_add(amount)
                .ok_or_else(|| AppError::Internal("payout total overflows".to_owned()))?;
            let redemption = Redemption {
                id: RedemptionId::from_ulid(self.trading.ports.random.ulid()),
                operator_id: held.operator_id,
                user_id: held.record.user_id,
                external_user_id: held.external_user_id.clone(),
                market_id: market.id,
                resolution,
                amount,
                currency: total.currency,
                status: RedemptionStatus::Pending,
                created_at: now,
                paid_at: None,
            };
            let metadata = FlowMetadata::Redemption(RedemptionMetadata {
                market_id: market.id,
                redemption_id: redemption.id,
                resolution,
            });
            let mutation = WalletMutation::new(held.external_user_id.clone(), payable, redemption.currency, metadata)
                .map_err(|e| AppError::Internal(e.to_string()))?;
            let subject = OperationSubject {
                operator_id: held.operator_id,
                user_id: held.record.user_id,
                market_id: market.id,
                trade_id: None,
                redemption_id: Some(redemption.id),
            };
            operations.push(
                self.trading
                    .new_operation(subject, &mutation, OperationState::Prepared, now),
            );
            redemptions.push(redemption);
        }
        let events = operators
            .iter()
            .map(|operator| self.trading.market_resolved(operator, &market, now))
            .collect();
        Ok(ResolutionPlan {
            market,
            expected: MarketStatus::Closed,
            positions,
            resolutions: totals.into_values().collect(),
            redemptions,
            operations,
            events,
        })
    }
}
