//! TLS on every connection to the database, with libpq's `sslmode` meanings: which
//! mode and CA a connection string asks for ([`params`], [`sslmode`]), where trusted
//! roots come from ([`roots`]), and the certificate checks each mode makes
//! ([`verifiers`], [`connector`]).

pub(crate) mod connector;
pub(crate) mod params;
pub(crate) mod roots;
pub(crate) mod sslmode;
pub(crate) mod verifiers;
