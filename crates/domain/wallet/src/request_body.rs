//! The JSON body of `POST {baseUrl}/v1/mutations`, as the platform writes it and as a
//! wallet (the staging simulator, the test wallet, an operator's own) reads it. One type
//! for both sides, so what is sent and what is read cannot drift apart.
//!
//! Written compact, fields in this order, metadata keys sorted:
//! `{"idempotencyKey","flow","direction","reason","externalUserId","amount","currency","metadata","requestedAt"}`.
//! The signature covers the exact bytes sent, so a wallet verifies them before parsing;
//! the order only makes bodies easy to compare by eye.
//!
//! "Same payload" (contract rule 2) means the same [`RequestFingerprint`]: every field but
//! `idempotencyKey` (the key itself) and `requestedAt` (the time of the attempt, which
//! changes on every retry). `flow` and `direction` are implied by `reason` and so add
//! nothing to it.

use std::collections::BTreeMap;

use opinion_webhook::CreatedAt;
use serde::{Deserialize, Serialize};

use crate::fingerprint::{FingerprintInput, RequestFingerprint};
use crate::flow::{Direction, WalletFlow};
use crate::idempotency_key::IdempotencyKey;
use crate::metadata_matrix::{MetadataKey, required_metadata};
use crate::money::{Amount, Currency};
use crate::mutation::WalletMutation;
use crate::reason::ReasonKey;

/// One mutation request on the wire. Unknown fields are ignored when reading, so fields
/// added to REST v1 later (contract rule 10) do not break a wallet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MutationRequest {
    /// The one key of the business action; also the `Idempotency-Key` and `webhook-id` headers.
    pub idempotency_key: IdempotencyKey,
    /// `buy`, `sell`, `buy_compensation`, `redemption`, `flight_ticket_purchase`,
    /// `flight_ticket_payout` or `flight_ticket_refund`.
    pub flow: WalletFlow,
    /// `debit` (`buy`, `flight_ticket_purchase`) or `credit`.
    pub direction: Direction,
    /// The stable reason key the wallet allowlists (`opinion.buy`, `flight_ticket_payout`, …).
    pub reason: ReasonKey,
    /// The operator's own identifier of the player.
    pub external_user_id: String,
    /// Minor units, a string of decimal digits, above zero.
    pub amount: Amount,
    /// ISO 4217 code; always `IDR` for the flight product's flows.
    pub currency: Currency,
    /// The flow's required metadata (camelCase keys, string values); more keys may come.
    pub metadata: BTreeMap<String, String>,
    /// When this attempt was sent, RFC 3339 UTC; differs between attempts of one key.
    pub requested_at: CreatedAt,
}

/// Why a body is not a mutation request a wallet may act on. The wallet answers
/// 400 `invalid_request` with this text as the message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RequestBodyError {
    /// Not JSON, or a field missing or malformed.
    #[error("the body is not a mutation request: {0}")]
    Malformed(String),
    /// `direction` is not the flow's.
    #[error("a {flow} mutation is a {expected}, not a {found}")]
    DirectionMismatch {
        /// The flow.
        flow: WalletFlow,
        /// Its direction.
        expected: Direction,
        /// The direction sent.
        found: Direction,
    },
    /// `reason` is not the flow's.
    #[error("the reason `{found}` is not a reason of the {flow} flow")]
    ReasonMismatch {
        /// The flow.
        flow: WalletFlow,
        /// The reason sent.
        found: ReasonKey,
    },
    /// The currency is not the one the flow's product moves (flight money is IDR).
    #[error("a {flow} mutation is always in {required}, not {found}")]
    CurrencyNotAllowed {
        /// The flow.
        flow: WalletFlow,
        /// The product's currency.
        required: Currency,
        /// The currency sent.
        found: Currency,
    },
    /// A key of the flow's row of the metadata matrix is absent (contract rule 1).
    #[error("{flow} metadata lacks the required `{key}`", key = key.as_str())]
    MissingMetadata {
        /// The flow.
        flow: WalletFlow,
        /// The first absent key, in the matrix's order.
        key: MetadataKey,
    },
}

impl MutationRequest {
    /// The body of one attempt to send `mutation`, at `requested_at`.
    pub fn of(mutation: &WalletMutation, requested_at: CreatedAt) -> Self {
        Self {
            idempotency_key: mutation.idempotency_key(),
            flow: mutation.flow(),
            direction: mutation.flow().direction(),
            reason: mutation.reason(),
            external_user_id: mutation.external_user_id().to_owned(),
            amount: mutation.amount(),
            currency: mutation.currency(),
            metadata: mutation.metadata_map(),
            requested_at,
        }
    }

    /// The exact bytes sent (and signed).
    pub fn to_bytes(&self) -> Result<Vec<u8>, serde_json::Error> {
        serde_json::to_vec(self)
    }

    /// Reads a received body and checks what a wallet must check before acting on it:
    /// the direction, reason and (for the flight product) currency belong to the flow,
    /// and every required metadata key is present (extra keys are allowed: contract
    /// rule 10).
    pub fn parse(body: &[u8]) -> Result<Self, RequestBodyError> {
        let request: Self = serde_json::from_slice(body).map_err(|e| RequestBodyError::Malformed(e.to_string()))?;
        let flow = request.flow;
        if request.direction != flow.direction() {
            return Err(RequestBodyError::DirectionMismatch {
                flow,
                expected: flow.direction(),
                found: request.direction,
            });
        }
        if request.reason != ReasonKey::for_flow(flow) {
            return Err(RequestBodyError::ReasonMismatch {
                flow,
                found: request.reason,
            });
        }
        if let Some(required) = flow.product().native_currency()
            && request.currency != required
        {
            return Err(RequestBodyError::CurrencyNotAllowed {
                flow,
                required,
                found: request.currency,
            });
        }
        if let Some(key) = required_metadata(flow)
            .iter()
            .find(|key| !request.metadata.contains_key(key.as_str()))
        {
            return Err(RequestBodyError::MissingMetadata { flow, key: *key });
        }
        Ok(request)
    }

    /// What "same payload" compares: equal to the fingerprint the platform stored for the
    /// mutation this body was written from.
    pub fn fingerprint(&self) -> RequestFingerprint {
        RequestFingerprint::of(&FingerprintInput {
            flow: self.flow,
            external_user_id: &self.external_user_id,
            amount: self.amount,
            currency: self.currency,
            reason: self.reason,
            metadata: &self.metadata,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metadata::samples;

    fn at(text: &str) -> CreatedAt {
        text.parse().unwrap()
    }

    fn mutation(index: usize, amount: i64) -> WalletMutation {
        WalletMutation::new(
            "player-42",
            Amount::new(amount).unwrap(),
            "IDR".parse().unwrap(),
            samples::all()[index],
        )
        .unwrap()
    }

    #[test]
    fn writes_the_documented_body() {
        let body = MutationRequest::of(&mutation(0, 150_000), at("2026-11-22T10:15:30.123Z"));
        let text = String::from_utf8(body.to_bytes().unwrap()).unwrap();
        assert_eq!(
            text,
            concat!(
                r#"{"idempotencyKey":"buy:trd_00000000000000000000000002","flow":"buy","direction":"debit","#,
                r#""reason":"opinion.buy","externalUserId":"player-42","amount":"150000","currency":"IDR","#,
                r#""metadata":{"marketId":"mkt_00000000000000000000000001","outcome":"yes","shares":"10","#,
                r#""tradeId":"trd_00000000000000000000000002"},"requestedAt":"2026-11-22T10:15:30.123Z"}"#
            )
        );
    }

    #[test]
    fn what_the_platform_writes_a_wallet_reads_with_the_same_fingerprint() {
        for index in 0..samples::all().len() {
            let mutation = mutation(index, 500);
            let body = MutationRequest::of(&mutation, at("2026-11-22T10:15:30Z"));
            let read = MutationRequest::parse(&body.to_bytes().unwrap()).unwrap();
            assert_eq!(read, body);
            assert_eq!(read.fingerprint(), mutation.fingerprint());
        }
    }

    #[test]
    fn the_attempt_time_is_not_part_of_the_payload() {
        let first = MutationRequest::of(&mutation(0, 500), at("2026-11-22T10:15:30Z"));
        let retry = MutationRequest::of(&mutation(0, 500), at("2026-11-22T10:20:00Z"));
        assert_ne!(first, retry);
        assert_eq!(first.fingerprint(), retry.fingerprint());
    }

    #[test]
    fn tolerates_added_fields_and_metadata() {
        let body = MutationRequest::of(&mutation(1, 500), at("2026-11-22T10:15:30Z"));
        let mut value = serde_json::to_value(&body).unwrap();
        value["productVersion"] = "2".into();
        value["metadata"]["roundId"] = "r-1".into();
        let read = MutationRequest::parse(value.to_string().as_bytes()).unwrap();
        assert_eq!(read.metadata["roundId"], "r-1");
    }

    #[test]
    fn refuses_what_a_wallet_must_not_act_on() {
        let good = serde_json::to_value(MutationRequest::of(&mutation(0, 500), at("2026-11-22T10:15:30Z"))).unwrap();
        let with = |field: &str, value: serde_json::Value| {
            let mut body = good.clone();
            body[field] = value;
            MutationRequest::parse(body.to_string().as_bytes())
        };
        assert_eq!(
            with("direction", "credit".into()),
            Err(RequestBodyError::DirectionMismatch {
                flow: WalletFlow::Buy,
                expected: Direction::Debit,
                found: Direction::Credit
            })
        );
        assert_eq!(
            with("reason", "opinion.sell".into()),
            Err(RequestBodyError::ReasonMismatch {
                flow: WalletFlow::Buy,
                found: ReasonKey::OpinionSell
            })
        );
        let mut without_market = good.clone();
        if let Some(metadata) = without_market["metadata"].as_object_mut() {
            metadata.remove("marketId");
        }
        assert_eq!(
            MutationRequest::parse(without_market.to_string().as_bytes()),
            Err(RequestBodyError::MissingMetadata {
                flow: WalletFlow::Buy,
                key: MetadataKey::MarketId
            })
        );
        for (field, value) in [
            ("amount", serde_json::json!(150)),
            ("amount", "0".into()),
            ("amount", "1.5".into()),
            ("currency", "idr".into()),
            ("idempotencyKey", "buy trd".into()),
            ("flow", "bet".into()),
            ("reason", "opinion.tip".into()),
            ("requestedAt", "2026-11-22 10:15:30".into()),
            ("metadata", serde_json::json!({"marketId": 1})),
        ] {
            assert!(
                matches!(with(field, value.clone()), Err(RequestBodyError::Malformed(_))),
                "{field} = {value}"
            );
        }
        assert!(matches!(
            MutationRequest::parse(b"OK"),
            Err(RequestBodyError::Malformed(_))
        ));
    }

    #[test]
    fn a_flight_mutation_in_another_currency_is_refused() {
        let mut body =
            serde_json::to_value(MutationRequest::of(&mutation(5, 500), at("2026-11-22T10:15:30Z"))).unwrap();
        body["currency"] = "USD".into();
        assert_eq!(
            MutationRequest::parse(body.to_string().as_bytes()),
            Err(RequestBodyError::CurrencyNotAllowed {
                flow: WalletFlow::FlightTicketPayout,
                required: Currency::IDR,
                found: "USD".parse().unwrap()
            })
        );
    }

    #[test]
    fn reads_a_flight_body_with_its_metadata() {
        let body = MutationRequest::of(&mutation(4, 25_000), at("2026-11-22T10:15:30.123Z"));
        let text = String::from_utf8(body.to_bytes().unwrap()).unwrap();
        assert_eq!(
            text,
            concat!(
                r#"{"idempotencyKey":"flight_ticket_purchase:tkt_00000000000000000000000006","#,
                r#""flow":"flight_ticket_purchase","direction":"debit","reason":"flight_ticket_purchase","#,
                r#""externalUserId":"player-42","amount":"25000","currency":"IDR","#,
                r#""metadata":{"autoCashOut":"2.50","flightId":"flt_00000000000000000000000005","#,
                r#""ticketId":"tkt_00000000000000000000000006"},"requestedAt":"2026-11-22T10:15:30.123Z"}"#
            )
        );
    }
}
