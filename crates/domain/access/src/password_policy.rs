//! The staff password policy: long enough to resist guessing, short enough to hash cheaply.

use std::fmt;

/// A staff password that meets the policy. `Debug` never prints it.
#[derive(Clone, PartialEq, Eq)]
pub struct Password(String);

/// Why a password is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PasswordError {
    /// Fewer characters than the minimum.
    #[error("the password must have at least {min} characters", min = Password::MIN_CHARS)]
    TooShort,
    /// More characters than the maximum.
    #[error("the password must have at most {max} characters", max = Password::MAX_CHARS)]
    TooLong,
}

impl Password {
    /// Fewest characters accepted (length beats composition rules).
    pub const MIN_CHARS: usize = 12;
    /// Most characters accepted, bounding the hashing cost of a request.
    pub const MAX_CHARS: usize = 256;

    /// Validates a new password.
    pub fn new(text: String) -> Result<Self, PasswordError> {
        let chars = text.chars().count();
        if chars < Self::MIN_CHARS {
            Err(PasswordError::TooShort)
        } else if chars > Self::MAX_CHARS {
            Err(PasswordError::TooLong)
        } else {
            Ok(Self(text))
        }
    }

    /// A new password from 32 random bytes, for members whose password the service
    /// chooses: 32 characters of letters and digits (about 190 bits).
    pub fn from_random(random: [u8; 32]) -> Self {
        Self(crate::base62::from_random(&random))
    }

    /// The password itself, for hashing only.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Password {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Password(…)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_are_counted_in_characters() {
        assert_eq!(Password::new("é".repeat(11)), Err(PasswordError::TooShort));
        assert!(Password::new("é".repeat(12)).is_ok());
        assert!(Password::new("x".repeat(256)).is_ok());
        assert_eq!(Password::new("x".repeat(257)), Err(PasswordError::TooLong));
    }

    #[test]
    fn generated_passwords_meet_the_policy() {
        let generated = Password::from_random([200; 32]);
        assert_eq!(Password::new(generated.expose().to_owned()), Ok(generated));
    }

    #[test]
    fn debug_hides_the_password() {
        let password = Password::new("correct horse battery".into()).expect("valid");
        assert!(!format!("{password:?}").contains("horse"));
    }
}
