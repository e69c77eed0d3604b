//! The playground console setting: what the documentation's console may send for an
//! operator in production, read and chosen by the operator, and checked on every
//! request the console marks as its own.

use opinion_access::{ApiKeyEnvironment, HttpMethod, PlaygroundConsole, RouteId};
use opinion_core::OperatorId;

use crate::access::{Access, Principal};
use crate::error::{AppError, ProblemCode};
use crate::model::PlaygroundSetting;

impl Access {
    /// The caller's operator's console choice.
    pub async fn playground_setting(&self, caller: &Principal) -> Result<PlaygroundSetting, AppError> {
        Ok(self.ports.operators.find_playground_setting(caller.operator_id).await?)
    }

    /// Chooses what the console may send for the caller's operator in production.
    #[tracing::instrument(skip_all, fields(operator_id = %caller.operator_id, console = %console))]
    pub async fn set_playground_console(
        &self,
        caller: &Principal,
        console: PlaygroundConsole,
    ) -> Result<PlaygroundSetting, AppError> {
        let now = self.ports.clock.now();
        self.ports
            .operators
            .save_playground_console(caller.operator_id, console, now)
            .await?;
        tracing::info!(actor = %caller.actor_id(), "playground console set");
        Ok(PlaygroundSetting {
            console,
            updated_at: Some(now),
        })
    }

    /// Lets a console request of `method` go on for `operator`, or refuses it: in
    /// production a read-only console sends reads only. Reads, and every request
    /// outside production, never touch the store.
    pub async fn admit_console_request(&self, operator: OperatorId, method: HttpMethod) -> Result<(), AppError> {
        let production = self.settings.environment == ApiKeyEnvironment::Production;
        if PlaygroundConsole::ReadOnly.admits(method, production) {
            return Ok(());
        }
        let setting = self.ports.operators.find_playground_setting(operator).await?;
        if setting.console.admits(method, production) {
            Ok(())
        } else {
            Err(AppError::Conflict {
                code: ProblemCode::PlaygroundReadOnly,
                detail: format!(
                    "the playground console is read-only in production for this operator; \
                     `PUT {}` with `{{\"console\": \"read_write\"}}` turns it on",
                    RouteId::PlaygroundPut.spec().path
                ),
            })
        }
    }
}
