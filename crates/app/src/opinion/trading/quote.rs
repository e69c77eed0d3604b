//! Quotes: what an order would cost or pay now, without trading, priced by the same
//! function a buy or sale is, with the slippage limit its order should carry.

use opinion_market::SlippageTolerance;

use crate::access::operator_currency;
use crate::error::AppError;
use crate::opinion::trading::{OrderRequest, QuoteView, Trading, order};
use crate::players::PlayerPrincipal;

impl Trading {
    /// Prices `order` for the player at the operator's pool as it is now.
    pub async fn quote(&self, player: &PlayerPrincipal, request: &OrderRequest) -> Result<QuoteView, AppError> {
        let market = self.tradable_market(player, request).await?;
        let quote = order::price(&market, request)?;
        let tolerance = SlippageTolerance::DEFAULT;
        Ok(QuoteView {
            market_id: request.market_id,
            quote,
            currency: operator_currency(self.ports.operators.as_ref(), player.operator_id).await?,
            limit: tolerance.limit_for(&quote),
            tolerance,
        })
    }

    /// The operator's view of the order's market, if the player may trade it now.
    pub(crate) async fn tradable_market(
        &self,
        player: &PlayerPrincipal,
        request: &OrderRequest,
    ) -> Result<crate::model::OperatorMarket, AppError> {
        let market = self
            .ports
            .markets
            .find_operator_market(player.operator_id, request.market_id)
            .await?
            .ok_or(AppError::NotFound("market"))?;
        order::ensure_tradable(&market, self.ports.clock.now())?;
        Ok(market)
    }
}
