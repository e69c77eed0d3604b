//! TLS on a throwaway cluster, so tests can check the service's database TLS against a
//! real server: the certificate and key go into the data directory under the names
//! PostgreSQL reads by default, and `ssl = on` is appended to its settings.

use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use crate::DevDbError;
use crate::privilege::RunAs;

/// The server's certificate chain and private key, both PEM.
#[derive(Debug, Clone)]
pub struct ServerTls {
    /// The server certificate, optionally followed by intermediates.
    pub certificate_pem: String,
    /// The certificate's private key (PKCS#8 or the key type's own PEM form).
    pub private_key_pem: String,
}

/// Writes `tls` into the initialised cluster `dir` and turns TLS on. The key is made
/// readable by the server's user only, which PostgreSQL insists on.
pub(crate) fn enable(tls: &ServerTls, run_as: &RunAs, dir: &Path) -> Result<(), DevDbError> {
    for (name, contents, mode) in [
        ("server.crt", &tls.certificate_pem, 0o644),
        ("server.key", &tls.private_key_pem, 0o600),
    ] {
        let path = dir.join(name);
        std::fs::write(&path, contents)
            .and_then(|()| std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)))
            .map_err(DevDbError::io(format!("write {}", path.display())))?;
        run_as.hand_over(&path)?;
    }
    let conf = dir.join("postgresql.conf");
    std::fs::OpenOptions::new()
        .append(true)
        .open(&conf)
        .and_then(|mut file| file.write_all(b"ssl = on\n"))
        .map_err(DevDbError::io(format!("turn TLS on in {}", conf.display())))
}
