//! The rustls connector of one `sslmode` and CA, checking what libpq checks:
//!
//! | sslmode | no CA given | a CA given |
//! |---|---|---|
//! | `disable` | no TLS | no TLS |
//! | `prefer` | TLS if offered, not checked | the same |
//! | `require` | TLS, not checked | TLS, chain checked |
//! | `verify-ca` | chain to the built-in roots | chain to the CA |
//! | `verify-full` | chain to the built-in roots, host name | chain to the CA, host name |

use std::sync::Arc;

use rustls::ClientConfig;
use rustls::crypto::CryptoProvider;
use tokio_postgres_rustls::MakeRustlsConnect;

use crate::db::tls::roots::{CaSource, load};
use crate::db::tls::sslmode::SslMode;
use crate::db::tls::verifiers::{Check, LibpqVerifier};

/// The connector for `mode` given `ca`; `None` for `disable`, which never speaks TLS. A
/// CA that cannot be loaded is an error in every mode, used or not: it is a mistake in
/// the deployment either way.
pub(crate) fn connector(mode: SslMode, ca: Option<&CaSource>) -> Result<Option<MakeRustlsConnect>, String> {
    let given = ca.map(load).transpose()?.map(Arc::new);
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let builder = ClientConfig::builder_with_provider(provider.clone())
        .with_safe_default_protocol_versions()
        .map_err(|error| format!("cannot set up TLS: {error}"))?;
    let trusted = || match &given {
        Some(roots) => Ok(roots.clone()),
        None => load(&CaSource::BuiltIn).map(Arc::new),
    };
    let relaxed = |check: Check, provider: Arc<CryptoProvider>| {
        builder
            .clone()
            .dangerous()
            .with_custom_certificate_verifier(Arc::new(LibpqVerifier::new(check, provider)))
            .with_no_client_auth()
    };
    let config = match (mode, &given) {
        (SslMode::Disable, _) => return Ok(None),
        (SslMode::Prefer, _) | (SslMode::Require, None) => relaxed(Check::Nothing, provider),
        (SslMode::Require, Some(_)) | (SslMode::VerifyCa, _) => relaxed(Check::ChainTo(trusted()?), provider),
        (SslMode::VerifyFull, _) => builder.clone().with_root_certificates(trusted()?).with_no_client_auth(),
    };
    Ok(Some(MakeRustlsConnect::new(config)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn disable_has_no_connector_and_every_other_mode_has_one() {
        assert!(connector(SslMode::Disable, None).expect("built").is_none());
        for mode in [
            SslMode::Prefer,
            SslMode::Require,
            SslMode::VerifyCa,
            SslMode::VerifyFull,
        ] {
            assert!(connector(mode, None).expect("built").is_some(), "{mode}");
        }
    }

    #[test]
    fn an_unreadable_ca_fails_every_mode() {
        let ca = CaSource::File("/nonexistent/ca.pem".into());
        for mode in [
            SslMode::Disable,
            SslMode::Prefer,
            SslMode::Require,
            SslMode::VerifyCa,
            SslMode::VerifyFull,
        ] {
            let refused = connector(mode, Some(&ca)).err().expect("refused");
            assert!(refused.contains("/nonexistent/ca.pem"), "{refused}");
        }
    }
}
