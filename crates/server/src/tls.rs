//! Loading the certificate and key for HTTPS (rustls with the `ring` provider), offering
//! HTTP/2 and HTTP/1.1 by ALPN.

use std::{path::Path, sync::Arc};

use tokio_rustls::{
    TlsAcceptor,
    rustls::{self, pki_types::CertificateDer},
};

use crate::{ServeError, TlsFiles};

pub(crate) fn acceptor(files: &TlsFiles) -> Result<TlsAcceptor, ServeError> {
    let certs = read_certs(&files.cert)?;
    let key = read_pem(&files.key, |mut r| rustls_pemfile::private_key(&mut r))?
        .ok_or_else(|| tls_error(&files.key, "no private key found in it"))?;
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| tls_error(&files.cert, &e.to_string()))?
        .with_no_client_auth()
        .with_single_cert(certs, key)
        .map_err(|e| tls_error(&files.key, &format!("does not match the certificate: {e}")))?;
    config.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
    Ok(TlsAcceptor::from(Arc::new(config)))
}

fn read_certs(path: &Path) -> Result<Vec<CertificateDer<'static>>, ServeError> {
    let certs =
        read_pem(path, |mut r| rustls_pemfile::certs(&mut r).collect::<Result<Vec<_>, _>>())?;
    if certs.is_empty() {
        return Err(tls_error(path, "no certificate found in it"));
    }
    Ok(certs)
}

fn read_pem<T>(
    path: &Path,
    parse: impl FnOnce(&[u8]) -> std::io::Result<T>,
) -> Result<T, ServeError> {
    let bytes = std::fs::read(path).map_err(|e| tls_error(path, &e.to_string()))?;
    parse(&bytes).map_err(|e| tls_error(path, &format!("not valid PEM: {e}")))
}

fn tls_error(path: &Path, reason: &str) -> ServeError {
    ServeError::Tls { path: path.to_path_buf(), reason: reason.to_owned() }
}

/// A throwaway self-signed certificate for `names` (host names or IP addresses), written as
/// `cert.pem` and `key.pem` into `dir`, for trying HTTPS (and the service worker) on a
/// device that is not localhost. Returns the files and the base64 SHA-256 of the
/// certificate's public key (what Chromium's `--ignore-certificate-errors-spki-list` takes).
pub fn self_signed(names: &[String], dir: &Path) -> Result<(TlsFiles, String), ServeError> {
    use base64::Engine;
    use sha2::Digest;
    let key = dir.join("key.pem");
    let generated = rcgen::generate_simple_self_signed(names.to_vec())
        .map_err(|e| tls_error(&key, &format!("cannot generate a certificate: {e}")))?;
    let files = TlsFiles { cert: dir.join("cert.pem"), key, self_signed: true };
    let write = |path: &Path, text: String| {
        std::fs::write(path, text).map_err(|e| tls_error(path, &e.to_string()))
    };
    std::fs::create_dir_all(dir).map_err(|e| tls_error(dir, &e.to_string()))?;
    write(&files.cert, generated.cert.pem())?;
    write(&files.key, generated.key_pair.serialize_pem())?;
    let spki = sha2::Sha256::digest(generated.key_pair.public_key_der());
    Ok((files, base64::engine::general_purpose::STANDARD.encode(spki)))
}
