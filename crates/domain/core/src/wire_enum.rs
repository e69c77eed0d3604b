//! Enums whose values have stable lower-case names on the wire and in storage (statuses,
//! triggers, kinds): one macro writes the enum, its list of values, its names, `Display`
//! and `FromStr`, so every such enum reads and refuses names the same way.

/// A name that is not one of an enum's wire names.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown {kind} `{name}`")]
pub struct UnknownName {
    /// What was being named (e.g. `trade status`).
    pub kind: &'static str,
    /// The name given.
    pub name: String,
}

/// Declares an enum with wire names:
///
/// ```
/// opinion_core::wire_enum!(
///     /// Whether a light is on.
///     Light, "light state" {
///         /// It is on.
///         On = "on",
///         /// It is off.
///         Off = "off",
///     }
/// );
/// assert_eq!("on".parse::<Light>(), Ok(Light::On));
/// assert_eq!(Light::Off.to_string(), "off");
/// assert!("dim".parse::<Light>().is_err());
/// ```
///
/// Further attributes (e.g. serde derives) go before the name with the doc comment.
#[macro_export]
macro_rules! wire_enum {
    ($(#[$meta:meta])* $name:ident, $kind:literal { $($(#[$vmeta:meta])* $variant:ident = $text:literal),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum $name {
            $($(#[$vmeta])* $variant),+
        }

        impl $name {
            /// Every value, in declaration order.
            pub const ALL: &'static [$name] = &[$(Self::$variant),+];

            /// The name on the wire and in storage.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $(Self::$variant => $text),+
                }
            }
        }

        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl ::std::str::FromStr for $name {
            type Err = $crate::UnknownName;

            fn from_str(text: &str) -> Result<Self, Self::Err> {
                Self::ALL
                    .iter()
                    .copied()
                    .find(|value| value.as_str() == text)
                    .ok_or_else(|| $crate::UnknownName { kind: $kind, name: text.to_owned() })
            }
        }
    };
}
