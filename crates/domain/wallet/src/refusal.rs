//! The error codes with which an operator's wallet definitely refuses a mutation (a 4xx
//! answer naming one of them means nothing moved), the HTTP status a wallet answers each
//! with, and who has to act on each.

use std::fmt;

/// A definite refusal by the operator's wallet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RefusalCode {
    /// `insufficient_funds`: the player cannot pay.
    InsufficientFunds,
    /// `user_not_found`: the wallet does not know the player.
    UserNotFound,
    /// `user_blocked`: the operator has blocked the player.
    UserBlocked,
    /// `limit_exceeded`: a limit of the operator's (responsible gaming, per-day, …) applies.
    LimitExceeded,
    /// `currency_mismatch`: the player's wallet is in another currency.
    CurrencyMismatch,
    /// `invalid_signature`: the wallet could not verify the platform's signature.
    InvalidSignature,
    /// `invalid_request`: the wallet found the request malformed.
    InvalidRequest,
    /// `idempotency_key_reused`: the key was first used with a different payload.
    IdempotencyKeyReused,
}

/// Who has to act on a refusal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Blame {
    /// An ordinary business refusal: tell the player.
    Player,
    /// The integration is set up wrong on one side or the other: alert the operator and platform staff.
    Integration,
    /// The platform broke its own contract (one key, one payload): a bug, log it as an error.
    Platform,
}

impl RefusalCode {
    /// Every code.
    pub const ALL: [RefusalCode; 8] = [
        Self::InsufficientFunds,
        Self::UserNotFound,
        Self::UserBlocked,
        Self::LimitExceeded,
        Self::CurrencyMismatch,
        Self::InvalidSignature,
        Self::InvalidRequest,
        Self::IdempotencyKeyReused,
    ];

    /// The code on the wire.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::InsufficientFunds => "insufficient_funds",
            Self::UserNotFound => "user_not_found",
            Self::UserBlocked => "user_blocked",
            Self::LimitExceeded => "limit_exceeded",
            Self::CurrencyMismatch => "currency_mismatch",
            Self::InvalidSignature => "invalid_signature",
            Self::InvalidRequest => "invalid_request",
            Self::IdempotencyKeyReused => "idempotency_key_reused",
        }
    }

    /// The refusal a wire code names, if it names one.
    pub fn from_code(code: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|refusal| refusal.as_str() == code)
    }

    /// The status a wallet answers this refusal with. The platform reads the code, not
    /// the status: any 4xx but 429 naming the code is the same definite refusal.
    pub const fn http_status(self) -> u16 {
        match self {
            Self::InvalidRequest => 400,
            Self::InvalidSignature => 401,
            Self::InsufficientFunds => 402,
            Self::UserBlocked => 403,
            Self::UserNotFound => 404,
            Self::LimitExceeded | Self::CurrencyMismatch | Self::IdempotencyKeyReused => 422,
        }
    }

    /// Who has to act.
    pub const fn blame(self) -> Blame {
        match self {
            Self::InsufficientFunds | Self::UserBlocked | Self::LimitExceeded => Blame::Player,
            Self::UserNotFound | Self::CurrencyMismatch | Self::InvalidSignature | Self::InvalidRequest => {
                Blame::Integration
            }
            Self::IdempotencyKeyReused => Blame::Platform,
        }
    }
}

impl fmt::Display for RefusalCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip_and_are_exact() {
        for code in RefusalCode::ALL {
            assert_eq!(RefusalCode::from_code(code.as_str()), Some(code));
        }
        assert_eq!(RefusalCode::from_code("Insufficient_Funds"), None);
        assert_eq!(RefusalCode::from_code("idempotency_key_in_progress"), None);
    }

    #[test]
    fn every_refusal_is_a_4xx_other_than_409_and_429() {
        for code in RefusalCode::ALL {
            let status = code.http_status();
            assert!((400..500).contains(&status) && status != 409 && status != 429, "{code}");
        }
        assert_eq!(RefusalCode::IdempotencyKeyReused.http_status(), 422);
        assert_eq!(RefusalCode::InsufficientFunds.http_status(), 402);
    }

    #[test]
    fn only_a_reused_key_is_the_platforms_fault() {
        let platform: Vec<_> = RefusalCode::ALL
            .into_iter()
            .filter(|code| code.blame() == Blame::Platform)
            .collect();
        assert_eq!(platform, [RefusalCode::IdempotencyKeyReused]);
        assert_eq!(RefusalCode::InsufficientFunds.blame(), Blame::Player);
        assert_eq!(RefusalCode::InvalidSignature.blame(), Blame::Integration);
    }
}
