//! What an operator's players are offered: the per-market switch (`POST
//! /markets/{id}/visibility`) and the operator's visibility mode (`PUT
//! /markets/visibility-mode`), combined by the domain's rule
//! (`opinion_market::VisibilityMode::shows`). Every change that shows or hides a market
//! to the players is announced by a `mini_app.market.visibility_changed` event written
//! with it; a change that shows or hides nothing (the same choice again, or any choice in
//! `all` mode) announces nothing. Both writes go over the revision they were computed
//! from, and are computed again when another change got there first.

use opinion_core::{EventId, MarketId, OperatorId};
use opinion_market::{MarketChoice, VisibilityMode};
use opinion_webhook::EventType;
use serde_json::json;
use time::OffsetDateTime;

use crate::error::AppError;
use crate::model::{NewEvent, OperatorMarket, rfc3339};
use crate::opinion::ports::{VisibilitySettings, VisibilityWrite};
use crate::opinion::reads::OperatorReads;
use crate::ports::{ChangedRecord, StoreError};

/// How often a visibility change is computed again after losing a race.
const VISIBILITY_ATTEMPTS: usize = 3;

/// What caused a market's visibility to change, as its event says.
#[derive(Debug, Clone, Copy)]
enum VisibilityCause {
    /// The per-market switch.
    Switch,
    /// A change of the operator's mode.
    Mode,
}

impl VisibilityCause {
    const fn as_str(self) -> &'static str {
        match self {
            Self::Switch => "switch",
            Self::Mode => "mode",
        }
    }
}

/// A new mode and how many markets it showed or hid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VisibilityModeChange {
    /// The settings after the change.
    pub settings: VisibilitySettings,
    /// How many markets not yet resolved were shown or hidden by it (one event each).
    pub changed_markets: usize,
}

impl OperatorReads {
    /// Shows (`visible`) or hides the market with the per-market switch; 404 if no such
    /// market. Under the `all` mode the choice is recorded but shows or hides nothing.
    #[tracing::instrument(skip_all, fields(operator_id = %operator, market_id = %market, visible))]
    pub async fn set_market_visibility(
        &self,
        operator: OperatorId,
        market: MarketId,
        visible: bool,
    ) -> Result<OperatorMarket, AppError> {
        let choice = MarketChoice::from_visible(visible);
        for _ in 0..VISIBILITY_ATTEMPTS {
            let settings = self.ports.markets.visibility_settings(operator).await?;
            let current = self
                .ports
                .markets
                .find_operator_market(operator, market)
                .await?
                .ok_or(AppError::NotFound("market"))?;
            if current.choice == choice {
                return Ok(current);
            }
            let now = self.ports.clock.now();
            let shown = settings.mode.shows(choice);
            let events = if settings.mode.shows(current.choice) == shown {
                Vec::new()
            } else {
                vec![self.visibility_event(operator, market, shown, VisibilityCause::Switch, now)]
            };
            let write = VisibilityWrite {
                expected_revision: settings.revision,
                mode: settings.mode,
                at: now,
                events,
            };
            match self
                .ports
                .markets
                .set_market_choice(operator, market, choice, &write)
                .await
            {
                Ok(Some(updated)) => {
                    tracing::info!(choice = %choice, announced = write.events.len(), "market choice recorded");
                    return Ok(updated);
                }
                Ok(None) => return Err(AppError::NotFound("market")),
                Err(StoreError::Conflict(ChangedRecord::Visibility)) => {
                    tracing::debug!("visibility changed meanwhile; computing the change again");
                }
                Err(other) => return Err(other.into()),
            }
        }
        Err(StoreError::Conflict(ChangedRecord::Visibility).into())
    }

    /// The operator's visibility mode.
    pub async fn visibility_mode(&self, operator: OperatorId) -> Result<VisibilitySettings, AppError> {
        Ok(self.ports.markets.visibility_settings(operator).await?)
    }

    /// Sets the operator's visibility mode, announcing every market not yet resolved that
    /// it shows or hides. Setting the mode the operator already has changes nothing.
    #[tracing::instrument(skip_all, fields(operator_id = %operator, mode = %mode))]
    pub async fn set_visibility_mode(
        &self,
        operator: OperatorId,
        mode: VisibilityMode,
    ) -> Result<VisibilityModeChange, AppError> {
        for _ in 0..VISIBILITY_ATTEMPTS {
            let settings = self.ports.markets.visibility_settings(operator).await?;
            if settings.mode == mode {
                return Ok(VisibilityModeChange {
                    settings,
                    changed_markets: 0,
                });
            }
            let now = self.ports.clock.now();
            let events = self
                .ports
                .markets
                .market_choices(operator)
                .await?
                .into_iter()
                .filter(|(_, choice)| settings.mode.shows(*choice) != mode.shows(*choice))
                .map(|(market, choice)| {
                    self.visibility_event(operator, market, mode.shows(choice), VisibilityCause::Mode, now)
                })
                .collect();
            let write = VisibilityWrite {
                expected_revision: settings.revision,
                mode,
                at: now,
                events,
            };
            match self.ports.markets.set_visibility_mode(operator, &write).await {
                Ok(()) => {
                    tracing::info!(changed_markets = write.events.len(), "visibility mode changed");
                    return Ok(VisibilityModeChange {
                        settings: VisibilitySettings {
                            mode,
                            revision: settings.revision + 1,
                            updated_at: Some(now),
                        },
                        changed_markets: write.events.len(),
                    });
                }
                Err(StoreError::Conflict(ChangedRecord::Visibility)) => {
                    tracing::debug!("visibility changed meanwhile; computing the change again");
                }
                Err(other) => return Err(other.into()),
            }
        }
        Err(StoreError::Conflict(ChangedRecord::Visibility).into())
    }

    /// The `mini_app.market.visibility_changed` event of `market` becoming `visible` (or not).
    fn visibility_event(
        &self,
        operator: OperatorId,
        market: MarketId,
        visible: bool,
        cause: VisibilityCause,
        now: OffsetDateTime,
    ) -> NewEvent {
        let data = json!({
            "marketId": market.to_string(),
            "visible": visible,
            "cause": cause.as_str(),
            "changedAt": rfc3339(now),
        });
        NewEvent::new(
            EventId::from_ulid(self.ports.random.ulid()),
            operator,
            EventType::MarketVisibilityChanged,
            data,
            now,
        )
    }
}
