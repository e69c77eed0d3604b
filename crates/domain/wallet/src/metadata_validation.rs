//! The validator of generic metadata against the matrix (contract rule 1): for what a
//! wallet echoes back, what the staging simulator receives, and what is read from
//! storage. It is strict, because it checks what the platform itself sends: every
//! required key present, no other key, every value in its one accepted form. (Operators'
//! wallets, in contrast, must tolerate keys added later: rule 10.)

use std::collections::BTreeMap;
use std::str::FromStr;

use crate::flow::WalletFlow;
use crate::metadata::{
    BuyCompensationMetadata, FlowMetadata, RedemptionMetadata, TicketPayoutMetadata, TicketPurchaseMetadata,
    TicketRefundMetadata, TradeMetadata,
};
use crate::metadata_matrix::{MetadataKey, required_metadata};
use crate::metadata_values::{BadValue, read_auto_cash_out, read_cash_out};

/// Why metadata does not fit its flow's row of the matrix; names the field at fault.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MetadataError {
    /// A required key is absent.
    #[error("{flow} metadata lacks the required `{key}`", key = key.as_str())]
    Missing {
        /// The flow checked.
        flow: WalletFlow,
        /// The first absent key, in the matrix's order.
        key: MetadataKey,
    },
    /// A key the flow does not carry.
    #[error("{flow} metadata carries `{key}`, which the flow does not define")]
    Extra {
        /// The flow checked.
        flow: WalletFlow,
        /// The first such key, in key order.
        key: String,
    },
    /// A required key whose value is not in its accepted form.
    #[error("{flow} metadata `{key}` has the unaccepted value `{value}`", key = key.as_str())]
    Invalid {
        /// The flow checked.
        flow: WalletFlow,
        /// The key at fault.
        key: MetadataKey,
        /// The value as received.
        value: String,
    },
}

/// Checks `metadata` against `flow`'s row of the matrix and reads it into its typed shape.
pub fn validate_metadata(flow: WalletFlow, metadata: &BTreeMap<String, String>) -> Result<FlowMetadata, MetadataError> {
    let required = required_metadata(flow);
    if let Some(key) = required.iter().find(|key| !metadata.contains_key(key.as_str())) {
        return Err(MetadataError::Missing { flow, key: *key });
    }
    if let Some(extra) = metadata
        .keys()
        .find(|present| !required.iter().any(|key| key.as_str() == present.as_str()))
    {
        return Err(MetadataError::Extra {
            flow,
            key: extra.clone(),
        });
    }
    let fields = Fields { flow, metadata };
    Ok(match flow {
        WalletFlow::Buy => FlowMetadata::Buy(fields.trade()?),
        WalletFlow::Sell => FlowMetadata::Sell(fields.trade()?),
        WalletFlow::BuyCompensation => FlowMetadata::BuyCompensation(BuyCompensationMetadata {
            market_id: fields.read(MetadataKey::MarketId)?,
            trade_id: fields.read(MetadataKey::TradeId)?,
            compensated_operation_id: fields.read(MetadataKey::CompensatedOperationId)?,
        }),
        WalletFlow::Redemption => FlowMetadata::Redemption(RedemptionMetadata {
            market_id: fields.read(MetadataKey::MarketId)?,
            redemption_id: fields.read(MetadataKey::RedemptionId)?,
            resolution: fields.read(MetadataKey::Resolution)?,
        }),
        WalletFlow::FlightTicketPurchase => FlowMetadata::FlightTicketPurchase(TicketPurchaseMetadata {
            flight_id: fields.read(MetadataKey::FlightId)?,
            ticket_id: fields.read(MetadataKey::TicketId)?,
            auto_cash_out: fields.read_with(MetadataKey::AutoCashOut, read_auto_cash_out)?,
        }),
        WalletFlow::FlightTicketPayout => FlowMetadata::FlightTicketPayout(TicketPayoutMetadata {
            flight_id: fields.read(MetadataKey::FlightId)?,
            ticket_id: fields.read(MetadataKey::TicketId)?,
            multiplier: fields.read_with(MetadataKey::Multiplier, read_cash_out)?,
        }),
        WalletFlow::FlightTicketRefund => FlowMetadata::FlightTicketRefund(TicketRefundMetadata {
            flight_id: fields.read(MetadataKey::FlightId)?,
            ticket_id: fields.read(MetadataKey::TicketId)?,
            refund_of: fields.read(MetadataKey::RefundOf)?,
        }),
    })
}

struct Fields<'a> {
    flow: WalletFlow,
    metadata: &'a BTreeMap<String, String>,
}

impl Fields<'_> {
    fn read<T: FromStr>(&self, key: MetadataKey) -> Result<T, MetadataError> {
        self.read_with(key, |text| text.parse().map_err(|_| BadValue(text.to_owned())))
    }

    fn read_with<T>(&self, key: MetadataKey, parse: fn(&str) -> Result<T, BadValue>) -> Result<T, MetadataError> {
        let value = self
            .metadata
            .get(key.as_str())
            .ok_or(MetadataError::Missing { flow: self.flow, key })?;
        parse(value).map_err(|_| MetadataError::Invalid {
            flow: self.flow,
            key,
            value: value.clone(),
        })
    }

    fn trade(&self) -> Result<TradeMetadata, MetadataError> {
        Ok(TradeMetadata {
            market_id: self.read(MetadataKey::MarketId)?,
            trade_id: self.read(MetadataKey::TradeId)?,
            outcome: self.read(MetadataKey::Outcome)?,
            shares: self.read(MetadataKey::Shares)?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metadata::samples;

    #[test]
    fn what_the_platform_writes_validates_back_to_the_same_metadata() {
        for metadata in samples::all() {
            assert_eq!(validate_metadata(metadata.flow(), &metadata.to_map()), Ok(metadata));
        }
    }

    #[test]
    fn missing_each_required_key_is_named() {
        for metadata in samples::all() {
            let flow = metadata.flow();
            for key in required_metadata(flow) {
                let mut map = metadata.to_map();
                map.remove(key.as_str());
                assert_eq!(
                    validate_metadata(flow, &map),
                    Err(MetadataError::Missing { flow, key: *key }),
                    "{flow} without {}",
                    key.as_str()
                );
            }
        }
    }

    #[test]
    fn an_extra_key_is_named() {
        for metadata in samples::all() {
            let flow = metadata.flow();
            let mut map = metadata.to_map();
            map.insert("promoCode".into(), "x".into());
            assert_eq!(
                validate_metadata(flow, &map),
                Err(MetadataError::Extra {
                    flow,
                    key: "promoCode".into()
                })
            );
        }
    }

    #[test]
    fn another_flows_keys_are_extra() {
        let [buy, _, _, redemption, ..] = samples::all();
        let mut map = buy.to_map();
        map.extend(redemption.to_map());
        assert_eq!(
            validate_metadata(WalletFlow::Buy, &map),
            Err(MetadataError::Extra {
                flow: WalletFlow::Buy,
                key: "redemptionId".into()
            })
        );
    }

    #[test]
    fn keys_are_case_sensitive_camel_case() {
        let [buy, ..] = samples::all();
        let mut map = buy.to_map();
        if let Some(value) = map.remove("marketId") {
            map.insert("market_id".into(), value);
        }
        assert_eq!(
            validate_metadata(WalletFlow::Buy, &map),
            Err(MetadataError::Missing {
                flow: WalletFlow::Buy,
                key: MetadataKey::MarketId
            })
        );
    }

    #[test]
    fn malformed_values_are_named() {
        let cases = [
            (WalletFlow::Buy, MetadataKey::MarketId, "trd_00000000000000000000000001"),
            (WalletFlow::Buy, MetadataKey::TradeId, "trd_1"),
            (WalletFlow::Buy, MetadataKey::Outcome, "void"),
            (WalletFlow::Buy, MetadataKey::Outcome, "YES"),
            (WalletFlow::Sell, MetadataKey::Shares, "0"),
            (WalletFlow::Sell, MetadataKey::Shares, "1.5"),
            (
                WalletFlow::BuyCompensation,
                MetadataKey::CompensatedOperationId,
                "buy:trd_x",
            ),
            (WalletFlow::Redemption, MetadataKey::RedemptionId, "red_"),
            (WalletFlow::Redemption, MetadataKey::Resolution, "MAYBE"),
            (
                WalletFlow::FlightTicketPurchase,
                MetadataKey::FlightId,
                "tkt_00000000000000000000000001",
            ),
            (WalletFlow::FlightTicketPurchase, MetadataKey::AutoCashOut, "null"),
            (WalletFlow::FlightTicketPurchase, MetadataKey::AutoCashOut, ""),
            (WalletFlow::FlightTicketPurchase, MetadataKey::AutoCashOut, "2.5"),
            (WalletFlow::FlightTicketPurchase, MetadataKey::AutoCashOut, "1.00"),
            (
                WalletFlow::FlightTicketPayout,
                MetadataKey::TicketId,
                "flt_00000000000000000000000001",
            ),
            (WalletFlow::FlightTicketPayout, MetadataKey::Multiplier, "1.00"),
            (WalletFlow::FlightTicketPayout, MetadataKey::Multiplier, "3.460"),
            (
                WalletFlow::FlightTicketRefund,
                MetadataKey::RefundOf,
                "flight_ticket_purchase:tkt_x",
            ),
        ];
        for (flow, key, value) in cases {
            let Some(metadata) = samples::all().into_iter().find(|m| m.flow() == flow) else {
                panic!("no sample for {flow}");
            };
            let mut map = metadata.to_map();
            map.insert(key.as_str().into(), value.into());
            assert_eq!(
                validate_metadata(flow, &map),
                Err(MetadataError::Invalid {
                    flow,
                    key,
                    value: value.into()
                }),
                "{flow} {value}"
            );
        }
    }
}
