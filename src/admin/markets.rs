//! `opinion admin market …`: platform staff create, close, resolve and list markets.
//! Markets are platform-wide; each operator trades its own pool on them.

use anyhow::Context;
use opinion_api::ResolutionBody;
use opinion_app::model::Market;
use opinion_app::opinion::settlement::{MarketSettlement, NewMarket};
use opinion_core::MarketId;
use opinion_market::Resolution;
use serde_json::{Value, json};
use time::format_description::well_known::Rfc3339;
use time::{OffsetDateTime, UtcOffset};

use crate::admin::rfc3339;
use crate::cli::MarketCommand;

/// Runs one market command and returns what to print.
pub(crate) async fn run(settlement: &MarketSettlement, command: MarketCommand) -> anyhow::Result<Value> {
    match command {
        MarketCommand::Create {
            question,
            rules,
            close_at,
            liquidity,
            fee_bps,
        } => {
            let close_at = OffsetDateTime::parse(&close_at, &Rfc3339)
                .context("--close-at must be an RFC 3339 time, e.g. 2027-01-31T18:00:00Z")?
                .to_offset(UtcOffset::UTC);
            let market = settlement
                .create_market(NewMarket {
                    question,
                    rules,
                    close_at,
                    liquidity,
                    fee_bps,
                })
                .await?;
            Ok(market_json(&market))
        }
        MarketCommand::Close { market } => Ok(market_json(&settlement.close_market(market_id(&market)?).await?)),
        MarketCommand::Resolve { market, outcome } => {
            let resolution: Resolution = outcome
                .parse()
                .map_err(|_| anyhow::anyhow!("--outcome must be yes, no or void"))?;
            let resolved = settlement.resolve_market(market_id(&market)?, resolution).await?;
            let resolutions: Vec<Value> = resolved
                .resolutions
                .into_iter()
                .map(|row| {
                    let operator = row.operator_id;
                    let mut body = json!(ResolutionBody::from(row));
                    body["operatorId"] = json!(operator);
                    body
                })
                .collect();
            Ok(json!({"market": market_json(&resolved.market), "resolutions": resolutions}))
        }
        MarketCommand::List { limit } => {
            let markets = settlement.list_markets(limit).await?;
            Ok(json!({"data": markets.iter().map(market_json).collect::<Vec<_>>()}))
        }
    }
}

fn market_id(text: &str) -> anyhow::Result<MarketId> {
    text.parse().context("--market must be a market id (mkt_…)")
}

/// A market as platform staff see it.
fn market_json(market: &Market) -> Value {
    json!({
        "id": market.id,
        "question": market.question,
        "rules": market.rules,
        "closeAt": rfc3339(market.close_at),
        "liquidity": market.liquidity.minor_units(),
        "feeBps": market.fee.bps(),
        "status": market.status.as_str(),
        "resolution": market.status.resolution().map(Resolution::as_str),
        "createdAt": rfc3339(market.created_at),
        "closedAt": market.closed_at.map(rfc3339),
        "resolvedAt": market.resolved_at.map(rfc3339),
    })
}
