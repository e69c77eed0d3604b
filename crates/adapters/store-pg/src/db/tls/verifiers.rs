//! The two certificate checks rustls does not offer itself: none at all (`require`
//! without a CA, as libpq) and the chain without the name (`verify-ca`). Both still check
//! the handshake's signatures, so the server holds the key of the certificate it sent.

use std::sync::Arc;

use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::client::verify_server_cert_signed_by_trust_anchor;
use rustls::crypto::{CryptoProvider, verify_tls12_signature, verify_tls13_signature};
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::server::ParsedCertificate;
use rustls::{DigitallySignedStruct, Error, RootCertStore, SignatureScheme};

/// Which certificate check a [`LibpqVerifier`] makes.
#[derive(Debug)]
pub(crate) enum Check {
    /// Any certificate: the connection is encrypted, not authenticated.
    Nothing,
    /// A chain to one of these roots; the name in the certificate is not compared.
    ChainTo(Arc<RootCertStore>),
}

/// A server certificate verifier for the libpq modes that check less than rustls'
/// default (`verify-full`'s), which the connector uses instead.
#[derive(Debug)]
pub(crate) struct LibpqVerifier {
    check: Check,
    provider: Arc<CryptoProvider>,
}

impl LibpqVerifier {
    /// A verifier making `check`, with `provider`'s signature algorithms.
    pub(crate) fn new(check: Check, provider: Arc<CryptoProvider>) -> Self {
        Self { check, provider }
    }
}

impl ServerCertVerifier for LibpqVerifier {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, Error> {
        if let Check::ChainTo(roots) = &self.check {
            let certificate = ParsedCertificate::try_from(end_entity)?;
            verify_server_cert_signed_by_trust_anchor(
                &certificate,
                roots,
                intermediates,
                now,
                self.provider.signature_verification_algorithms.all,
            )?;
        }
        Ok(ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, Error> {
        verify_tls12_signature(message, cert, dss, &self.provider.signature_verification_algorithms)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, Error> {
        verify_tls13_signature(message, cert, dss, &self.provider.signature_verification_algorithms)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.provider.signature_verification_algorithms.supported_schemes()
    }
}
