//! One wallet mutation as the platform prepares it: who, how much, and the typed metadata
//! of its flow. The flow, the reason key and the idempotency key are not inputs: they
//! are derived from the metadata, so none of them can disagree with the business action.
//! The currency is an input, checked against the flow's product: flight money is IDR
//! whatever the operator's Opinion currency, so a flight mutation in another currency
//! cannot be built.

use std::collections::BTreeMap;

use crate::fingerprint::{FingerprintInput, RequestFingerprint};
use crate::flow::{Product, WalletFlow};
use crate::idempotency_key::IdempotencyKey;
use crate::metadata::FlowMetadata;
use crate::money::{Amount, Currency};
use crate::reason::ReasonKey;

/// A mutation in a currency its flow's product does not move.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("a {flow} mutation moves {product} money, which is always {required}, not {found}")]
pub struct CurrencyNotAllowed {
    /// The flow of the mutation.
    pub flow: WalletFlow,
    /// Its product.
    pub product: Product,
    /// The only currency the product moves.
    pub required: Currency,
    /// The currency asked for.
    pub found: Currency,
}

/// A wallet mutation request, complete except for transport details (signature, time).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WalletMutation {
    external_user_id: String,
    amount: Amount,
    currency: Currency,
    metadata: FlowMetadata,
}

impl WalletMutation {
    /// Assembles a mutation for the operator's player `external_user_id`, refused when
    /// the flow's product moves only another currency (a flight mutation not in IDR).
    pub fn new(
        external_user_id: impl Into<String>,
        amount: Amount,
        currency: Currency,
        metadata: FlowMetadata,
    ) -> Result<Self, CurrencyNotAllowed> {
        let flow = metadata.flow();
        let product = flow.product();
        if let Some(required) = product.native_currency()
            && required != currency
        {
            return Err(CurrencyNotAllowed {
                flow,
                product,
                required,
                found: currency,
            });
        }
        Ok(Self {
            external_user_id: external_user_id.into(),
            amount,
            currency,
            metadata,
        })
    }

    /// The flow, from the metadata.
    pub const fn flow(&self) -> WalletFlow {
        self.metadata.flow()
    }

    /// The reason key sent (contract rule 10).
    pub const fn reason(&self) -> ReasonKey {
        ReasonKey::for_flow(self.flow())
    }

    /// The one idempotency key of the business action (rules 2 and 5).
    pub fn idempotency_key(&self) -> IdempotencyKey {
        IdempotencyKey::for_action(self.metadata.action())
    }

    /// The operator's own identifier of the player.
    pub fn external_user_id(&self) -> &str {
        &self.external_user_id
    }

    /// How much moves.
    pub const fn amount(&self) -> Amount {
        self.amount
    }

    /// The currency of the amount.
    pub const fn currency(&self) -> Currency {
        self.currency
    }

    /// The typed metadata.
    pub const fn metadata(&self) -> &FlowMetadata {
        &self.metadata
    }

    /// The metadata as sent (rule 1).
    pub fn metadata_map(&self) -> BTreeMap<String, String> {
        self.metadata.to_map()
    }

    /// The fingerprint stored with the operation, to refuse the same key with another payload.
    pub fn fingerprint(&self) -> RequestFingerprint {
        let metadata = self.metadata_map();
        RequestFingerprint::of(&FingerprintInput {
            flow: self.flow(),
            external_user_id: &self.external_user_id,
            amount: self.amount,
            currency: self.currency,
            reason: self.reason(),
            metadata: &metadata,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metadata::samples;

    fn mutation(metadata: FlowMetadata, amount: i64) -> WalletMutation {
        WalletMutation::new(
            "player-7",
            Amount::new(amount).unwrap(),
            "IDR".parse().unwrap(),
            metadata,
        )
        .unwrap()
    }

    #[test]
    fn flow_reason_and_key_come_from_the_metadata() {
        let expected = [
            ("opinion.buy", "buy:trd_00000000000000000000000002"),
            ("opinion.sell", "sell:trd_00000000000000000000000002"),
            (
                "opinion.buy_compensation",
                "buy_compensation:trd_00000000000000000000000002",
            ),
            ("opinion.redemption", "redemption:red_00000000000000000000000004"),
            (
                "flight_ticket_purchase",
                "flight_ticket_purchase:tkt_00000000000000000000000006",
            ),
            (
                "flight_ticket_payout",
                "flight_ticket_payout:tkt_00000000000000000000000006",
            ),
            (
                "flight_ticket_refund",
                "flight_ticket_refund:tkt_00000000000000000000000006",
            ),
        ];
        for (metadata, (reason, key)) in samples::all().into_iter().zip(expected) {
            let mutation = mutation(metadata, 500);
            assert_eq!(mutation.flow(), metadata.flow());
            assert_eq!(mutation.reason().as_str(), reason);
            assert_eq!(mutation.idempotency_key().as_str(), key);
        }
    }

    #[test]
    fn flight_mutations_are_only_built_in_idr_and_opinion_ones_in_any_currency() {
        let usd: Currency = "USD".parse().unwrap();
        for metadata in samples::all() {
            let built = WalletMutation::new("player-7", Amount::new(5).unwrap(), usd, metadata);
            match metadata.flow().product() {
                Product::Opinion => assert_eq!(built.map(|m| m.currency()), Ok(usd)),
                Product::Flight => assert_eq!(
                    built,
                    Err(CurrencyNotAllowed {
                        flow: metadata.flow(),
                        product: Product::Flight,
                        required: Currency::IDR,
                        found: usd,
                    })
                ),
            }
        }
        let error = WalletMutation::new("p", Amount::new(5).unwrap(), usd, samples::all()[4]).unwrap_err();
        assert_eq!(
            error.to_string(),
            "a flight_ticket_purchase mutation moves flight money, which is always IDR, not USD"
        );
    }

    #[test]
    fn the_fingerprint_covers_the_payload_but_not_the_key() {
        let [buy, ..] = samples::all();
        assert_eq!(mutation(buy, 500).fingerprint(), mutation(buy, 500).fingerprint());
        let more = mutation(buy, 501);
        assert_eq!(more.idempotency_key(), mutation(buy, 500).idempotency_key());
        assert_ne!(more.fingerprint(), mutation(buy, 500).fingerprint());
    }
}
