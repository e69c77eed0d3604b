//! Reading a connection string. `sslmode` and `sslrootcert` are taken out of a
//! `postgres://` URL here, because the wire layer knows neither `verify-ca` /
//! `verify-full` nor a root file; tokio-postgres parses the rest. A `key=value` string
//! goes to tokio-postgres whole, so it offers `disable`, `prefer` and `require` only.

use std::borrow::Cow;

use percent_encoding::percent_decode_str;

use crate::db::error::with_causes;
use crate::db::tls::sslmode::SslMode;

/// A parsed connection string with its TLS wishes.
#[derive(Debug)]
pub(crate) struct ConnectionString {
    /// Everything but TLS, with `sslmode` already told in the wire layer's terms.
    pub(crate) config: tokio_postgres::Config,
    /// The `sslmode` asked for; `prefer` when absent, as with libpq.
    pub(crate) mode: SslMode,
    /// The `sslrootcert` parameter, decoded: a PEM file or `system`.
    pub(crate) root_cert: Option<String>,
}

/// Parses `text`. Errors never repeat the string, which may hold a password.
pub(crate) fn parse(text: &str) -> Result<ConnectionString, String> {
    let is_url = text.starts_with("postgres://") || text.starts_with("postgresql://");
    if !is_url {
        let config: tokio_postgres::Config = text.parse().map_err(|error| {
            format!(
                "{} (verify-ca, verify-full and sslrootcert need the postgres:// URL form)",
                with_causes(&error)
            )
        })?;
        let mode = match config.get_ssl_mode() {
            tokio_postgres::config::SslMode::Disable => SslMode::Disable,
            tokio_postgres::config::SslMode::Require => SslMode::Require,
            _ => SslMode::Prefer,
        };
        return Ok(ConnectionString {
            config,
            mode,
            root_cert: None,
        });
    }
    let (base, query) = text.split_once('?').unwrap_or((text, ""));
    let mut mode = SslMode::Prefer;
    let mut root_cert = None;
    let mut kept = Vec::new();
    for pair in query.split('&').filter(|pair| !pair.is_empty()) {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        match key {
            "sslmode" => mode = SslMode::parse(&decoded(key, value)?)?,
            "sslrootcert" => root_cert = Some(decoded(key, value)?.into_owned()),
            _ => kept.push(pair),
        }
    }
    let rest = if kept.is_empty() {
        base.to_owned()
    } else {
        format!("{base}?{}", kept.join("&"))
    };
    let mut config: tokio_postgres::Config = rest.parse().map_err(|error| with_causes(&error))?;
    config.ssl_mode(mode.wire());
    Ok(ConnectionString {
        config,
        mode,
        root_cert,
    })
}

/// A percent-decoded URL parameter value.
fn decoded<'a>(key: &str, value: &'a str) -> Result<Cow<'a, str>, String> {
    percent_decode_str(value)
        .decode_utf8()
        .map_err(|_| format!("the {key} parameter is not UTF-8 once decoded"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_url_without_tls_parameters_prefers_tls_like_libpq() {
        let parsed = parse("postgres://app:secret@db.internal:5433/opinion").expect("parsed");
        assert_eq!(parsed.mode, SslMode::Prefer);
        assert_eq!(parsed.root_cert, None);
        assert_eq!(parsed.config.get_ports(), [5433]);
        assert_eq!(parsed.config.get_ssl_mode(), tokio_postgres::config::SslMode::Prefer);
    }

    #[test]
    fn verify_modes_and_the_root_file_are_taken_out_and_the_rest_kept() {
        let parsed = parse(
            "postgresql://app@db.internal/opinion?application_name=opinion&sslmode=verify-full&sslrootcert=%2Fetc%2Fdb%20ca.pem&connect_timeout=3",
        )
        .expect("parsed");
        assert_eq!(parsed.mode, SslMode::VerifyFull);
        assert_eq!(parsed.root_cert.as_deref(), Some("/etc/db ca.pem"));
        assert_eq!(parsed.config.get_application_name(), Some("opinion"));
        assert_eq!(
            parsed.config.get_connect_timeout(),
            Some(&std::time::Duration::from_secs(3))
        );
        assert_eq!(parsed.config.get_ssl_mode(), tokio_postgres::config::SslMode::Require);
    }

    #[test]
    fn a_key_value_string_offers_the_wire_modes_only() {
        let parsed = parse("host=db.internal user=app sslmode=require").expect("parsed");
        assert_eq!(parsed.mode, SslMode::Require);
        let refused = parse("host=db.internal password=hunter2 sslmode=verify-full").expect_err("refused");
        assert!(refused.contains("postgres:// URL form"), "{refused}");
        assert!(!refused.contains("hunter2"), "{refused}");
    }

    #[test]
    fn an_unknown_mode_or_a_broken_url_is_named_without_the_password() {
        let mode = parse("postgres://app:hunter2@db/opinion?sslmode=allow").expect_err("refused");
        assert!(mode.contains("allow") && !mode.contains("hunter2"), "{mode}");
        let port = parse("postgres://app:hunter2@db:notaport/opinion").expect_err("refused");
        assert!(!port.contains("hunter2"), "{port}");
    }
}
