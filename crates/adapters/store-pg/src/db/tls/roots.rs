//! The CA certificates a connection trusts: a PEM bundle named by `sslrootcert` or
//! `OPINION_DATABASE_CA_FILE`, or the Mozilla roots built into the binary.

use std::path::{Path, PathBuf};

use rustls::RootCertStore;
use rustls::pki_types::CertificateDer;
use rustls::pki_types::pem::PemObject;

/// Where trusted CA certificates come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum CaSource {
    /// The Mozilla roots compiled into the binary (`webpki-roots`), the same the
    /// service's HTTPS clients trust: the same on every machine, whatever the image.
    BuiltIn,
    /// A PEM file of one or more CA certificates.
    File(PathBuf),
}

/// The CA a connection was given: the URL's `sslrootcert` (`system` meaning the
/// built-in roots, as in libpq) before the configured file; `None` when neither.
pub(crate) fn given_ca(url_root_cert: Option<&str>, configured: Option<&Path>) -> Option<CaSource> {
    match url_root_cert {
        Some("system") => Some(CaSource::BuiltIn),
        Some(path) => Some(CaSource::File(PathBuf::from(path))),
        None => configured.map(|path| CaSource::File(path.to_path_buf())),
    }
}

/// The trust store of `source`. A file that cannot be read or holds no certificate is
/// an error naming it.
pub(crate) fn load(source: &CaSource) -> Result<RootCertStore, String> {
    match source {
        CaSource::BuiltIn => Ok(RootCertStore {
            roots: webpki_roots::TLS_SERVER_ROOTS.to_vec(),
        }),
        CaSource::File(path) => {
            let problem = |what: &dyn std::fmt::Display| format!("the database CA file {}: {what}", path.display());
            let certificates = CertificateDer::pem_file_iter(path)
                .map_err(|error| problem(&error))?
                .collect::<Result<Vec<_>, _>>()
                .map_err(|error| problem(&error))?;
            if certificates.is_empty() {
                return Err(problem(&"holds no PEM certificate"));
            }
            let mut roots = RootCertStore::empty();
            for certificate in certificates {
                roots.add(certificate).map_err(|error| problem(&error))?;
            }
            Ok(roots)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_url_names_the_ca_before_the_configuration() {
        let configured = Path::new("/etc/opinion/db-ca.pem");
        assert_eq!(given_ca(None, None), None);
        assert_eq!(
            given_ca(None, Some(configured)),
            Some(CaSource::File(configured.to_path_buf()))
        );
        assert_eq!(
            given_ca(Some("/elsewhere.pem"), Some(configured)),
            Some(CaSource::File("/elsewhere.pem".into()))
        );
        assert_eq!(given_ca(Some("system"), Some(configured)), Some(CaSource::BuiltIn));
    }

    #[test]
    fn a_missing_or_empty_file_is_named() {
        let missing = load(&CaSource::File("/nonexistent/ca.pem".into())).expect_err("refused");
        assert!(missing.contains("/nonexistent/ca.pem"), "{missing}");
        let dir = std::env::temp_dir().join(format!("opinion-ca-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let empty = dir.join("empty.pem");
        std::fs::write(&empty, "not a certificate\n").expect("write");
        let refused = load(&CaSource::File(empty)).expect_err("refused");
        assert!(refused.contains("no PEM certificate"), "{refused}");
        std::fs::remove_dir_all(&dir).expect("clean up");
    }

    #[test]
    fn the_built_in_roots_are_not_empty() {
        assert!(!load(&CaSource::BuiltIn).expect("loaded").is_empty());
    }
}
