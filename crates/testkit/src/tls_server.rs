//! A private PostgreSQL cluster serving TLS, for tests of the service's database TLS. Its
//! certificate names [`TLS_HOST`] only and is signed by a CA made here; a second,
//! unrelated CA stands in for a wrong one. One cluster per test process; each test
//! makes its own database on it.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use opinion_devdb::{Cluster, ServerTls};
use rcgen::{
    BasicConstraints, CertificateParams, CertifiedIssuer, DnType, ExtendedKeyUsagePurpose, IsCa, KeyPair,
    KeyUsagePurpose,
};

use crate::admin::execute;
use crate::names::{quoted, unique};

/// The only host name in the server's certificate; connections reach it at 127.0.0.1
/// through `hostaddr`, so no name resolution is involved.
pub const TLS_HOST: &str = "db.test";

/// The TLS cluster and the CA files a connection may be given.
pub struct TlsServer {
    cluster: Cluster,
    ca_file: PathBuf,
    wrong_ca_file: PathBuf,
    /// Holds the CA files until the process ends.
    _files: tempfile::TempDir,
}

/// Set up by the first test that needs it; a failure is kept too, so every test reports it.
static TLS_SERVER: OnceLock<Result<TlsServer, String>> = OnceLock::new();

impl TlsServer {
    /// The process's TLS cluster, started on first use. Blocks for seconds the first time,
    /// so call it off the async threads. Panics with the reason if it cannot start.
    pub fn shared() -> &'static TlsServer {
        TLS_SERVER
            .get_or_init(set_up)
            .as_ref()
            .unwrap_or_else(|err| panic!("{err}"))
    }

    /// The PEM file of the CA that signed the server's certificate.
    pub fn ca_file(&self) -> &Path {
        &self.ca_file
    }

    /// The PEM file of a CA that signed nothing the server has.
    pub fn wrong_ca_file(&self) -> &Path {
        &self.wrong_ca_file
    }

    /// URL of `database` reached as `host` (the name the certificate is checked against)
    /// at 127.0.0.1, followed by the URL parameters `params` (e.g. `sslmode=verify-full`).
    pub fn url(&self, host: &str, database: &str, params: &str) -> String {
        format!(
            "postgres://postgres@{host}:{}/{database}?hostaddr=127.0.0.1&{params}",
            self.cluster.port()
        )
    }

    /// Creates a new empty database for one test and returns its name.
    pub async fn create_database(&self) -> String {
        let name = unique("tls");
        let admin = self.url("127.0.0.1", "postgres", "sslmode=disable");
        let sql = format!("CREATE DATABASE {}", quoted(&name));
        if let Err(err) = execute(&admin, &sql).await {
            panic!("cannot create a database on the TLS cluster: {err}");
        }
        name
    }
}

/// Makes both CAs and the server certificate, writes the CA files and starts the cluster.
fn set_up() -> Result<TlsServer, String> {
    let ca = certificate_authority("opinion test CA")?;
    let wrong_ca = certificate_authority("an unrelated CA")?;
    let server_key = KeyPair::generate().map_err(|err| format!("cannot make a key: {err}"))?;
    let mut params =
        CertificateParams::new(vec![TLS_HOST.to_owned()]).map_err(|err| format!("bad certificate name: {err}"))?;
    params.distinguished_name.push(DnType::CommonName, TLS_HOST);
    params.extended_key_usages = vec![ExtendedKeyUsagePurpose::ServerAuth];
    let certificate = params
        .signed_by(&server_key, &ca)
        .map_err(|err| format!("cannot sign the server certificate: {err}"))?;
    let files = tempfile::tempdir().map_err(|err| format!("cannot make a directory for the CA files: {err}"))?;
    let ca_file = files.path().join("ca.pem");
    let wrong_ca_file = files.path().join("wrong-ca.pem");
    std::fs::write(&ca_file, ca.pem())
        .and_then(|()| std::fs::write(&wrong_ca_file, wrong_ca.pem()))
        .map_err(|err| format!("cannot write the CA files: {err}"))?;
    let cluster = Cluster::start_ephemeral_tls(&ServerTls {
        certificate_pem: certificate.pem(),
        private_key_pem: server_key.serialize_pem(),
    })
    .map_err(|err| format!("cannot start a private PostgreSQL with TLS for the tests: {err}"))?;
    Ok(TlsServer {
        cluster,
        ca_file,
        wrong_ca_file,
        _files: files,
    })
}

/// A self-signed CA called `name`.
fn certificate_authority(name: &str) -> Result<CertifiedIssuer<'static, KeyPair>, String> {
    let key = KeyPair::generate().map_err(|err| format!("cannot make a key: {err}"))?;
    let mut params = CertificateParams::default();
    params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    params.distinguished_name.push(DnType::CommonName, name);
    params.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign];
    CertifiedIssuer::self_signed(params, key).map_err(|err| format!("cannot make the CA {name}: {err}"))
}
