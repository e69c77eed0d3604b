//! libpq's `sslmode` values and what each asks of the server's certificate.

use std::fmt;

/// How a connection uses TLS, as libpq's `sslmode` names it. `allow` (plain first, TLS
/// only when refused) is not offered: it never protects anything `prefer` does not.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SslMode {
    /// Never TLS.
    Disable,
    /// TLS when the server offers it, plain otherwise; the certificate is not checked.
    /// libpq's default, and so the default here.
    Prefer,
    /// TLS or no connection. The certificate is checked against a CA only when one is
    /// given (`sslrootcert` or `OPINION_DATABASE_CA_FILE`), as libpq does.
    Require,
    /// TLS with a certificate signed by a trusted CA, whatever name it carries.
    VerifyCa,
    /// TLS with a certificate signed by a trusted CA and naming the host connected to.
    VerifyFull,
}

impl SslMode {
    /// Reads an `sslmode` value; the error lists the accepted ones.
    pub fn parse(text: &str) -> Result<SslMode, String> {
        match text {
            "disable" => Ok(SslMode::Disable),
            "prefer" => Ok(SslMode::Prefer),
            "require" => Ok(SslMode::Require),
            "verify-ca" => Ok(SslMode::VerifyCa),
            "verify-full" => Ok(SslMode::VerifyFull),
            other => Err(format!(
                "sslmode `{other}` is not supported (use disable, prefer, require, verify-ca or verify-full)"
            )),
        }
    }

    /// What the wire protocol layer is told: every mode that insists on TLS is its
    /// `require`; the certificate checks are the connector's.
    pub(crate) fn wire(self) -> tokio_postgres::config::SslMode {
        match self {
            SslMode::Disable => tokio_postgres::config::SslMode::Disable,
            SslMode::Prefer => tokio_postgres::config::SslMode::Prefer,
            SslMode::Require | SslMode::VerifyCa | SslMode::VerifyFull => tokio_postgres::config::SslMode::Require,
        }
    }
}

impl fmt::Display for SslMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SslMode::Disable => "disable",
            SslMode::Prefer => "prefer",
            SslMode::Require => "require",
            SslMode::VerifyCa => "verify-ca",
            SslMode::VerifyFull => "verify-full",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_libpq_mode_but_allow_reads_back_as_written() {
        for text in ["disable", "prefer", "require", "verify-ca", "verify-full"] {
            assert_eq!(SslMode::parse(text).expect("accepted").to_string(), text);
        }
        let allow = SslMode::parse("allow").expect_err("refused");
        assert!(allow.contains("verify-full"), "{allow}");
    }

    #[test]
    fn only_disable_and_prefer_let_the_connection_go_plain() {
        use tokio_postgres::config::SslMode as Wire;
        assert_eq!(SslMode::Disable.wire(), Wire::Disable);
        assert_eq!(SslMode::Prefer.wire(), Wire::Prefer);
        for mode in [SslMode::Require, SslMode::VerifyCa, SslMode::VerifyFull] {
            assert_eq!(mode.wire(), Wire::Require);
        }
    }
}
