//! The scopes of the operator contract: grant strings that each open a set of routes.

use std::fmt;
use std::str::FromStr;

use serde_with::{DeserializeFromStr, SerializeDisplay};

macro_rules! scopes {
    ($($variant:ident => $text:literal),+ $(,)?) => {
        /// One grant string of the contract's scope list (the wildcard `*` is a [`crate::Grant`], not a scope).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, SerializeDisplay, DeserializeFromStr)]
        pub enum Scope {
            $(#[doc = concat!("`", $text, "`")] $variant,)+
        }

        impl Scope {
            /// Every scope, in the contract's order.
            pub const ALL: &'static [Scope] = &[$(Scope::$variant,)+];

            /// The grant string.
            pub const fn as_str(self) -> &'static str {
                match self { $(Scope::$variant => $text,)+ }
            }
        }

        impl FromStr for Scope {
            type Err = UnknownScope;
            fn from_str(text: &str) -> Result<Self, Self::Err> {
                match text {
                    $($text => Ok(Scope::$variant),)+
                    other => Err(UnknownScope(other.to_owned())),
                }
            }
        }
    };
}

scopes! {
    LaunchWrite => "launch:write",
    UsersRead => "users:read",
    MarketsRead => "markets:read",
    MarketsWrite => "markets:write",
    TradesRead => "trades:read",
    RedemptionsRead => "redemptions:read",
    BalanceOperationsRead => "balance_operations:read",
    FlightRead => "flight:read",
    FlightTermsRead => "flight_terms:read",
    FlightSettlementsRead => "flight_settlements:read",
    WalletAdapterRead => "wallet_adapter:read",
    WalletAdapterWrite => "wallet_adapter:write",
    ApiKeysRead => "api_keys:read",
    ApiKeysWrite => "api_keys:write",
    WebhooksRead => "webhooks:read",
    WebhooksWrite => "webhooks:write",
    SimulatorRead => "simulator:read",
    SimulatorWrite => "simulator:write",
    StaffsRead => "staffs:read",
    StaffsWrite => "staffs:write",
}

impl Scope {
    /// Staff scopes are assignable only to dashboard staff memberships (contract rules 1 and 7).
    pub const fn is_staff_only(self) -> bool {
        matches!(self, Scope::StaffsRead | Scope::StaffsWrite)
    }
}

/// A grant string that is not in the contract's scope list.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown scope `{0}`")]
pub struct UnknownScope(pub String);

impl fmt::Display for Scope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_contract_lists_twenty_scopes_and_each_round_trips() {
        assert_eq!(Scope::ALL.len(), 20);
        for scope in Scope::ALL {
            assert_eq!(scope.as_str().parse::<Scope>(), Ok(*scope));
        }
    }

    #[test]
    fn only_the_two_staff_scopes_are_staff_only() {
        let staff_only: Vec<_> = Scope::ALL.iter().filter(|s| s.is_staff_only()).collect();
        assert_eq!(staff_only, [&Scope::StaffsRead, &Scope::StaffsWrite]);
    }

    #[test]
    fn scope_names_are_exact() {
        assert!("Users:Read".parse::<Scope>().is_err());
        assert!("*".parse::<Scope>().is_err());
        assert!("users:read ".parse::<Scope>().is_err());
    }
}
