//! The access model of the operator contract, in one place: every scope, what `*`
//! means for each kind of credential, who may grant what, the API key secret format,
//! and the requirement of every route of the endpoint table. Pure: no I/O.

#![warn(missing_docs)]

mod api_key_secret;
mod base62;
mod credential;
mod grant;
mod http_method;
mod issuance;
mod login_throttle;
mod operator_cap;
mod password_policy;
mod playground_console;
mod requirement;
mod route_table;
mod scope;
mod staff_email;
mod user_agent;

pub use api_key_secret::{ApiKeyEnvironment, ApiKeySecret, SecretFormatError, SecretHash};
pub use credential::CredentialKind;
pub use grant::{Grant, GrantError};
pub use http_method::HttpMethod;
pub use issuance::{IssuanceError, check_api_key_grant, check_issuance};
pub use login_throttle::{
    Admission, AttemptCounter, LoginThrottle, LoginThrottleError, ThrottleKey, ThrottleKind, retry_after_secs,
};
pub use operator_cap::OperatorCap;
pub use password_policy::{Password, PasswordError};
pub use playground_console::{PLAYGROUND_CONSOLE_HEADER, PlaygroundConsole, UnknownPlaygroundConsole};
pub use requirement::{CredentialRule, Denial, Requirement, ScopeRule};
pub use route_table::{ROUTES, RouteId, RouteSpec};
pub use scope::{Scope, UnknownScope};
pub use staff_email::{StaffEmail, StaffEmailError};
pub use user_agent::{RecordedUserAgent, USER_AGENT_MAX_CHARS};
