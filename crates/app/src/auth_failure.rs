//! Why a presented credential does not authenticate. Every variant is a 401; the
//! distinctions help the credential's legitimate holder fix their set-up.

/// Why authentication failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum AuthFailure {
    /// No `Authorization: Bearer` credential (and no session cookie).
    #[error("no credential was presented; send `Authorization: Bearer <API key or session token>`")]
    Missing,
    /// Not a well-formed credential.
    #[error("the credential is malformed")]
    Malformed,
    /// An API key whose checksum does not match (a typo or truncated copy).
    #[error("the API key's checksum does not match; it was probably copied incompletely")]
    BadChecksum,
    /// An API key issued by another environment.
    #[error("the API key was issued for another environment")]
    WrongEnvironment,
    /// A well-formed API key that this service does not know.
    #[error("the API key is not known")]
    UnknownKey,
    /// A revoked API key.
    #[error("the API key has been revoked")]
    RevokedKey,
    /// An API key past its expiry.
    #[error("the API key has expired")]
    ExpiredKey,
    /// A session token that fails verification.
    #[error("the session token is invalid")]
    InvalidSession,
    /// A session that was ended or has expired.
    #[error("the session has ended; log in again")]
    SessionEnded,
    /// A disabled staff member.
    #[error("the staff member is disabled")]
    StaffDisabled,
    /// Wrong e-mail or password at login (never says which).
    #[error("the e-mail address or password is wrong")]
    BadLogin,
}
