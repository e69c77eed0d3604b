//! Why a presented credential does not authenticate. Every variant is a 401; the
//! distinctions help the credential's legitimate holder fix their set-up.

/// Why authentication failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum AuthFailure {
    /// No `Authorization: Bearer` credential (and no session cookie).
    #[error("no credential was presented; send `Authorization: Bearer <API key or session token>`")]
    Missing,
    /// Not a well-formed `Authorization` header.
    #[error("the credential is malformed")]
    Malformed,
    /// Something presented as an API key that fails the key format (shape or checksum).
    #[error(transparent)]
    ApiKeyFormat(#[from] opinion_access::SecretFormatError),
    /// An API key issued by another environment (a `test` key sent to production, …).
    #[error(
        "this is an API key of the `{}` environment; this service accepts only `{}` keys",
        presented.tag(),
        accepted.tag()
    )]
    WrongEnvironment {
        /// The environment the key names.
        presented: opinion_access::ApiKeyEnvironment,
        /// The environment of this service.
        accepted: opinion_access::ApiKeyEnvironment,
    },
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
    /// A launch token that fails verification.
    #[error("the launch token is invalid")]
    InvalidLaunch,
    /// A launch token already exchanged, or past its expiry: ask the operator for a new launch.
    #[error("the launch token was already used or has expired; launch again")]
    LaunchUsedOrExpired,
    /// A launch token or player session presented on another operator's launch host.
    #[error("this host serves another operator; open the launch URL your operator gave you")]
    ForeignLaunchHost,
    /// Wrong e-mail or password at login (never says which).
    #[error("the e-mail address or password is wrong")]
    BadLogin,
    /// A scrape of `/metrics` with a bearer token other than the configured one.
    #[error("the metrics token is not the configured one")]
    WrongMetricsToken,
    /// A portfolio view link whose signature or shape does not hold.
    #[error("the view link is invalid; ask the operator for a new one")]
    InvalidViewLink,
    /// A portfolio view link past its expiry.
    #[error("the view link has expired; ask the operator for a new one")]
    ExpiredViewLink,
}
