//! The signing secrets of an operator's wallet adapter and their rotation. One secret is
//! current; after a rotation the previous one keeps signing too for
//! [`SECRET_OVERLAP_SECS`], so the operator can deploy the new secret without a moment in
//! which calls fail to verify. At most two ever sign: rotating again during an overlap
//! retires the older secret at once. Times are unix seconds, the caller's.

use opinion_webhook::SigningSecret;

/// How long a replaced secret keeps signing: a day, time for an operator to deploy the
/// new secret to every wallet instance through an ordinary change process.
pub const SECRET_OVERLAP_SECS: i64 = 24 * 60 * 60;

/// Characters of the secret's text shown as its hint (after `whsec_`).
const HINT_CHARS: usize = 4;

/// A replaced secret, still signing until a time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RetiringSecret {
    /// The secret.
    pub secret: SigningSecret,
    /// Unix seconds from which it no longer signs.
    pub signs_until: i64,
}

/// The secrets of one wallet adapter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AdapterSecrets {
    current: SigningSecret,
    previous: Option<RetiringSecret>,
}

impl AdapterSecrets {
    /// The first secret of a new adapter.
    pub fn new(current: SigningSecret) -> Self {
        Self {
            current,
            previous: None,
        }
    }

    /// Secrets as stored.
    pub fn restore(current: SigningSecret, previous: Option<RetiringSecret>) -> Self {
        Self { current, previous }
    }

    /// `new` becomes current; the current one signs on until `now + SECRET_OVERLAP_SECS`;
    /// an older one stops at once.
    pub fn rotate(&self, new: SigningSecret, now: i64) -> Self {
        Self {
            previous: Some(RetiringSecret {
                secret: self.current.clone(),
                signs_until: now.saturating_add(SECRET_OVERLAP_SECS),
            }),
            current: new,
        }
    }

    /// The current secret.
    pub fn current(&self) -> &SigningSecret {
        &self.current
    }

    /// The previous secret, whether or not it still signs.
    pub fn previous(&self) -> Option<&RetiringSecret> {
        self.previous.as_ref()
    }

    /// The previous secret if it still signs at `now`.
    pub fn overlapping(&self, now: i64) -> Option<&RetiringSecret> {
        self.previous.as_ref().filter(|previous| now < previous.signs_until)
    }

    /// The secrets that sign a call made at `now`: current first, then the previous one
    /// during its overlap.
    pub fn signing(&self, now: i64) -> Vec<SigningSecret> {
        let mut secrets = vec![self.current.clone()];
        secrets.extend(self.overlapping(now).map(|previous| previous.secret.clone()));
        secrets
    }

    /// The beginning of the current secret's text (`whsec_AbCd…`), to tell secrets apart
    /// without revealing them.
    pub fn hint(&self) -> String {
        let text = self.current.reveal();
        let shown: String = text.chars().take(SigningSecret::PREFIX.len() + HINT_CHARS).collect();
        format!("{shown}…")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: i64 = 1_795_342_530;

    fn secret(byte: u8) -> SigningSecret {
        SigningSecret::from_random_bytes(&[byte; 32]).unwrap()
    }

    #[test]
    fn a_new_adapter_signs_with_its_one_secret() {
        let secrets = AdapterSecrets::new(secret(1));
        assert_eq!(secrets.signing(NOW), [secret(1)]);
        assert_eq!(secrets.overlapping(NOW), None);
    }

    #[test]
    fn after_a_rotation_both_sign_for_a_day_new_first() {
        let rotated = AdapterSecrets::new(secret(1)).rotate(secret(2), NOW);
        assert_eq!(rotated.current(), &secret(2));
        assert_eq!(rotated.signing(NOW), [secret(2), secret(1)]);
        assert_eq!(rotated.signing(NOW + SECRET_OVERLAP_SECS - 1), [secret(2), secret(1)]);
        assert_eq!(rotated.signing(NOW + SECRET_OVERLAP_SECS), [secret(2)]);
        assert_eq!(
            rotated.previous().map(|previous| previous.signs_until),
            Some(NOW + 86_400)
        );
    }

    #[test]
    fn rotating_during_an_overlap_retires_the_oldest_at_once() {
        let twice = AdapterSecrets::new(secret(1))
            .rotate(secret(2), NOW)
            .rotate(secret(3), NOW + 60);
        assert_eq!(twice.signing(NOW + 60), [secret(3), secret(2)]);
        assert!(!twice.signing(NOW + 60).contains(&secret(1)));
    }

    #[test]
    fn the_hint_shows_only_the_beginning() {
        let secrets = AdapterSecrets::new(secret(0));
        assert_eq!(secrets.hint(), "whsec_AAAA…");
        assert!(secrets.current().reveal().len() > secrets.hint().len() + 20);
    }
}
