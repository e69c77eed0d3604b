//! `POST /markets/{id}/visibility`: hide a market from the operator's players or show it
//! again. A change is announced by a `mini_app.market.visibility_changed` event written with it;
//! asking for the visibility a market already has changes nothing and announces nothing.

use opinion_core::{EventId, MarketId, OperatorId};
use opinion_webhook::EventType;
use serde_json::{Map, Value};
use time::format_description::well_known::Rfc3339;

use crate::error::AppError;
use crate::model::{NewEvent, OperatorMarket};
use crate::opinion::reads::OperatorReads;

impl OperatorReads {
    /// Shows (`visible`) or hides the market to the operator's players; 404 if no such market.
    #[tracing::instrument(skip_all, fields(operator_id = %operator, market_id = %market, visible))]
    pub async fn set_market_visibility(
        &self,
        operator: OperatorId,
        market: MarketId,
        visible: bool,
    ) -> Result<OperatorMarket, AppError> {
        let now = self.ports.clock.now();
        let changed_at = now
            .format(&Rfc3339)
            .map_err(|e| AppError::Internal(format!("formatting a time: {e}")))?;
        let mut data = Map::new();
        data.insert("marketId".into(), Value::String(market.to_string()));
        data.insert("visible".into(), Value::Bool(visible));
        data.insert("changedAt".into(), Value::String(changed_at));
        let event = NewEvent {
            id: EventId::from_ulid(self.ports.random.ulid()),
            operator_id: operator,
            event_type: EventType::MarketVisibilityChanged,
            data,
            created_at: now,
        };
        let outcome = self
            .ports
            .markets
            .set_market_visibility(operator, market, !visible, &event)
            .await?
            .ok_or(AppError::NotFound("market"))?;
        if outcome.changed {
            tracing::info!(event_id = %event.id, "market visibility changed");
        }
        Ok(outcome.market)
    }
}

#[cfg(test)]
mod tests {
    use opinion_market::MarketStatus;
    use serde_json::json;

    use super::*;
    use crate::opinion::ports::VisibilityOutcome;
    use crate::test_support::reads::*;
    use crate::test_support::{NOW, OPERATOR};

    #[tokio::test]
    async fn hiding_asks_the_store_to_hide_with_the_event_it_must_write() {
        let mut mocks = ReadMocks::default();
        let id = MarketId::from_u128(3);
        mocks
            .markets
            .expect_set_market_visibility()
            .times(1)
            .withf(move |operator, market, hidden, event| {
                *operator == OPERATOR
                    && *market == id
                    && *hidden
                    && event.operator_id == OPERATOR
                    && event.event_type == EventType::MarketVisibilityChanged
                    && event.created_at == NOW
                    && Value::Object(event.data.clone())
                        == json!({"marketId": id.to_string(), "visible": false, "changedAt": "2026-11-22T12:00:00Z"})
            })
            .returning(|_, _, _, _| {
                let mut hidden = market(3, MarketStatus::Open);
                hidden.hidden = true;
                Ok(Some(VisibilityOutcome {
                    market: hidden,
                    changed: true,
                }))
            });
        let market = mocks
            .build()
            .set_market_visibility(OPERATOR, id, false)
            .await
            .expect("hidden");
        assert!(market.hidden);
    }

    #[tokio::test]
    async fn an_unknown_market_is_not_found() {
        let mut mocks = ReadMocks::default();
        mocks
            .markets
            .expect_set_market_visibility()
            .returning(|_, _, _, _| Ok(None));
        let error = mocks
            .build()
            .set_market_visibility(OPERATOR, MarketId::from_u128(9), true)
            .await
            .expect_err("missing");
        assert!(matches!(error, AppError::NotFound("market")));
    }
}
