//! Typed identifiers. Every id is a ULID (time-ordered, so keyset pagination by id is
//! creation order) written on the wire with a prefix naming its kind, e.g. `key_01j…`.
//! The type parameter keeps an operator id from ever being passed where a key id is due.

use std::fmt;
use std::hash::{Hash, Hasher};
use std::marker::PhantomData;
use std::str::FromStr;

use serde_with::{DeserializeFromStr, SerializeDisplay};
use ulid::Ulid;

/// What kind of thing an id names; gives the id its wire prefix.
pub trait IdKind: 'static {
    /// Wire prefix, without the underscore.
    const PREFIX: &'static str;
}

macro_rules! id_kind {
    ($kind:ident, $alias:ident, $prefix:literal, $doc:literal) => {
        #[doc = concat!("Marker for ids of ", $doc, ".")]
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $kind {}
        impl IdKind for $kind {
            const PREFIX: &'static str = $prefix;
        }
        #[doc = concat!("Identifier of ", $doc, ", written `", $prefix, "_…`.")]
        pub type $alias = Id<$kind>;
    };
}

id_kind!(OperatorKind, OperatorId, "op", "an operator (a tenant)");
id_kind!(ApiKeyKind, ApiKeyId, "key", "an operator API key");
id_kind!(StaffKind, StaffId, "stf", "a dashboard staff member");
id_kind!(StaffSessionKind, StaffSessionId, "ses", "a dashboard staff session");
id_kind!(MarketKind, MarketId, "mkt", "a prediction market");
id_kind!(TradeKind, TradeId, "trd", "a trade (one buy or one sell by one player)");
id_kind!(RedemptionKind, RedemptionId, "red", "a position's redemption");
id_kind!(WalletOperationKind, WalletOperationId, "wop", "a wallet mutation");
id_kind!(EventKind, EventId, "evt", "a webhook event");
id_kind!(WebhookEndpointKind, WebhookEndpointId, "whe", "a webhook endpoint");
id_kind!(WebhookDeliveryKind, WebhookDeliveryId, "whd", "a webhook delivery");
id_kind!(UserKind, UserId, "usr", "an operator's player");
id_kind!(
    SimulatorUserKind,
    SimulatorUserId,
    "smu",
    "a simulated user of the staging simulator"
);
id_kind!(
    SimulatorLogKind,
    SimulatorLogId,
    "swl",
    "an entry of the staging simulator's wallet log"
);
id_kind!(
    WalletTestRunKind,
    WalletTestRunId,
    "wtr",
    "one run of the full-contract wallet test, kept with its verdict"
);
id_kind!(
    LaunchKind,
    LaunchId,
    "lch",
    "a launch of the hosted app (its single-use token)"
);
id_kind!(
    PlayerSessionKind,
    PlayerSessionId,
    "pls",
    "a player's session in the hosted app"
);

id_kind!(
    FlightChainKind,
    FlightChainId,
    "fch",
    "a flight seed chain (its commitment and salt)"
);
id_kind!(FlightKind, FlightId, "flt", "one flight (one round) of the flight game");
id_kind!(TicketKind, TicketId, "tkt", "a flight ticket (one stake on one flight)");
id_kind!(
    FlightTermsKind,
    FlightTermsId,
    "ftv",
    "a version of an operator's flight terms"
);

id_kind!(
    ProductionAuthorizationKind,
    ProductionAuthorizationId,
    "fpa",
    "a production authorization of an operator's flight product"
);

id_kind!(
    SettlementReportKind,
    SettlementReportId,
    "fsr",
    "an operator's flight settlement report of one period"
);
id_kind!(
    StatementCorrectionKind,
    StatementCorrectionId,
    "fsc",
    "a signed correction of a flight settlement statement"
);
id_kind!(
    SettlementPaymentKind,
    SettlementPaymentId,
    "fpy",
    "a payment recorded against a flight settlement report"
);

/// A typed, prefixed identifier.
#[derive(SerializeDisplay, DeserializeFromStr)]
pub struct Id<K: IdKind> {
    value: Ulid,
    kind: PhantomData<K>,
}

impl<K: IdKind> Id<K> {
    /// Wraps a ULID as an id of this kind.
    pub const fn from_ulid(value: Ulid) -> Self {
        Self {
            value,
            kind: PhantomData,
        }
    }

    /// The id's 128-bit value, as stored.
    pub const fn as_u128(&self) -> u128 {
        self.value.0
    }

    /// Rebuilds an id from its stored 128-bit value.
    pub const fn from_u128(value: u128) -> Self {
        Self::from_ulid(Ulid(value))
    }

    /// The underlying ULID.
    pub const fn ulid(&self) -> Ulid {
        self.value
    }
}

/// Why a string is not an id of the expected kind.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseIdError {
    /// The prefix names another kind of object (or is missing).
    #[error("expected an id starting with `{expected}_`")]
    WrongPrefix {
        /// The prefix this kind of id carries.
        expected: &'static str,
    },
    /// The part after the prefix is not a valid ULID.
    #[error("the id is malformed")]
    Malformed,
}

impl<K: IdKind> FromStr for Id<K> {
    type Err = ParseIdError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let body = text
            .strip_prefix(K::PREFIX)
            .and_then(|rest| rest.strip_prefix('_'))
            .ok_or(ParseIdError::WrongPrefix { expected: K::PREFIX })?;
        if body.len() != ulid::ULID_LEN {
            return Err(ParseIdError::Malformed);
        }
        Ulid::from_string(body)
            .map(Self::from_ulid)
            .map_err(|_| ParseIdError::Malformed)
    }
}

impl<K: IdKind> fmt::Display for Id<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut buffer = [0; ulid::ULID_LEN];
        let body = self.value.array_to_str(&mut buffer);
        body.make_ascii_lowercase();
        write!(f, "{}_{body}", K::PREFIX)
    }
}

impl<K: IdKind> fmt::Debug for Id<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl<K: IdKind> Clone for Id<K> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<K: IdKind> Copy for Id<K> {}
impl<K: IdKind> PartialEq for Id<K> {
    fn eq(&self, other: &Self) -> bool {
        self.value == other.value
    }
}
impl<K: IdKind> Eq for Id<K> {}
impl<K: IdKind> Hash for Id<K> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.value.hash(state);
    }
}
impl<K: IdKind> PartialOrd for Id<K> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl<K: IdKind> Ord for Id<K> {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.value.cmp(&other.value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn displays_with_prefix_in_lower_case() {
        let id = ApiKeyId::from_u128(1);
        assert_eq!(id.to_string(), "key_00000000000000000000000001");
    }

    #[test]
    fn refuses_another_kinds_prefix() {
        let text = OperatorId::from_u128(7).to_string();
        assert_eq!(
            text.parse::<ApiKeyId>(),
            Err(ParseIdError::WrongPrefix { expected: "key" })
        );
    }

    #[test]
    fn refuses_malformed_bodies() {
        for text in [
            "key_",
            "key_xyz",
            "key_0000000000000000000000000!",
            "key_000000000000000000000000011",
        ] {
            assert_eq!(text.parse::<ApiKeyId>(), Err(ParseIdError::Malformed), "{text}");
        }
    }

    #[test]
    fn accepts_upper_case_bodies() {
        let id = StaffId::from_u128(u128::MAX);
        let upper = format!("stf_{}", id.ulid());
        assert_eq!(upper.parse::<StaffId>(), Ok(id));
    }

    proptest! {
        #[test]
        fn round_trips_through_text(value in any::<u128>()) {
            let id = OperatorId::from_u128(value);
            prop_assert_eq!(id.to_string().parse::<OperatorId>(), Ok(id));
        }

        #[test]
        fn the_body_is_the_ulids_text_in_lower_case(value in any::<u128>()) {
            let id = TradeId::from_u128(value);
            prop_assert_eq!(id.to_string(), format!("trd_{}", Ulid(value).to_string().to_lowercase()));
        }
    }
}
