//! Why an operation waits for platform staff, stored with it so `opinion admin review`
//! can say so: staff read the wallet's log differently for a call whose outcome is
//! unknown and for a credit the wallet is known to have refused.

use std::fmt;
use std::str::FromStr;

/// Why an operation is in manual review.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ReviewReason {
    /// A primary mutation's answer was ambiguous (contract rule 4).
    Ambiguous,
    /// The answer to a sent call was lost (time-out plus grace, or a crash).
    LostAnswer,
    /// Money owed to the player could not be sent within the retry limit.
    RetriesExhausted,
    /// The wallet definitely refused a credit owed to the player; the amount is still owed.
    RefusedCredit,
    /// The wallet refused the key as reused with another payload.
    KeyReused,
}

/// A stored review reason that is not one of ours.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown review reason `{0}`")]
pub struct UnknownReviewReason(pub String);

impl ReviewReason {
    /// Every reason.
    pub const ALL: [ReviewReason; 5] = [
        Self::Ambiguous,
        Self::LostAnswer,
        Self::RetriesExhausted,
        Self::RefusedCredit,
        Self::KeyReused,
    ];

    /// Stable snake_case name, for storage and the admin tool.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Ambiguous => "ambiguous",
            Self::LostAnswer => "lost_answer",
            Self::RetriesExhausted => "retries_exhausted",
            Self::RefusedCredit => "refused_credit",
            Self::KeyReused => "key_reused",
        }
    }
}

impl fmt::Display for ReviewReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for ReviewReason {
    type Err = UnknownReviewReason;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|reason| reason.as_str() == text)
            .ok_or_else(|| UnknownReviewReason(text.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The migration's check constraint lists these exact names.
    #[test]
    fn names_are_stable_and_round_trip() {
        let names: Vec<_> = ReviewReason::ALL.into_iter().map(ReviewReason::as_str).collect();
        assert_eq!(
            names,
            [
                "ambiguous",
                "lost_answer",
                "retries_exhausted",
                "refused_credit",
                "key_reused"
            ]
        );
        for reason in ReviewReason::ALL {
            assert_eq!(reason.as_str().parse::<ReviewReason>(), Ok(reason));
        }
        assert!("Ambiguous".parse::<ReviewReason>().is_err());
    }
}
