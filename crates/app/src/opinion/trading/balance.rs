//! The player's wallet balance, read through the operator's wallet adapter for the hosted
//! app's header. A read changes nothing, so a failed read is shown as "unknown" rather
//! than refused: the player can still trade, and the wallet decides each debit itself.

use opinion_wallet::{BalanceReading, Currency};

use crate::access::operator_currency;
use crate::error::AppError;
use crate::opinion::trading::Trading;
use crate::players::PlayerPrincipal;

/// What the hosted app shows as the player's balance.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PlayerBalance {
    /// The wallet told it.
    Known {
        /// Minor units.
        balance: i64,
        /// The wallet's currency.
        currency: Currency,
    },
    /// The wallet refused or did not answer usably; nothing is known.
    Unknown,
}

impl Trading {
    /// The operator's currency, in which the hosted app shows every amount.
    pub async fn currency(&self, player: &PlayerPrincipal) -> Result<Currency, AppError> {
        operator_currency(self.ports.operators.as_ref(), player.operator_id).await
    }

    /// Reads the player's balance once through the operator's wallet adapter.
    #[tracing::instrument(skip_all, fields(operator_id = %player.operator_id, user_id = %player.user.id))]
    pub async fn balance(&self, player: &PlayerPrincipal) -> Result<PlayerBalance, AppError> {
        let target = self.wallet_target(player.operator_id).await?;
        let outcome = self.ports.wallet.balance(&target, &player.user.external_user_id).await;
        Ok(match outcome.reading {
            BalanceReading::Balance { balance, currency } => PlayerBalance::Known { balance, currency },
            other => {
                tracing::warn!(reading = ?other, "the player's balance could not be read");
                PlayerBalance::Unknown
            }
        })
    }
}
