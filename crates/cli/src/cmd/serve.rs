//! `stillpoint serve DIST`: the production server (see docs/serve.md).

use std::{net::SocketAddr, path::PathBuf, process::ExitCode};

use anyhow::Context;
use clap::{Args, ValueEnum};
use stillpoint_dist::layout::BUILD_INFO;
use stillpoint_server::{AccessLog, ServeConfig, TlsFiles};
use stillpoint_site::BuildInfo;

#[derive(Debug, Args)]
pub struct ServeArgs {
    /// The built site directory (or the symlink a build swaps).
    #[arg(default_value = "dist")]
    pub dist: PathBuf,
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: std::net::IpAddr,
    /// Port to listen on (0: any free port).
    #[arg(long, short, default_value_t = 8080)]
    pub port: u16,
    /// PEM certificate chain: serve HTTPS (HTTP/2 and HTTP/1.1). Needs --tls-key.
    #[arg(long, requires = "tls_key")]
    pub tls_cert: Option<PathBuf>,
    /// PEM private key for --tls-cert.
    #[arg(long, requires = "tls_cert")]
    pub tls_key: Option<PathBuf>,
    /// Serve HTTPS with a throwaway self-signed certificate for these names (comma separated),
    /// e.g. to try the service worker from another device. Prints the key's SPKI hash.
    #[arg(long, value_delimiter = ',', conflicts_with = "tls_cert")]
    pub tls_self_signed: Vec<String>,
    /// With TLS: also answer plain HTTP on this port with a 308 redirect to HTTPS.
    #[arg(long)]
    pub redirect_http: Option<u16>,
    /// Write one access log line per request to stdout.
    #[arg(long, value_enum)]
    pub access_log: Option<LogFormat>,
    /// Bound on the in-memory file cache, in MiB.
    #[arg(long, default_value_t = 256)]
    pub cache_mib: u64,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum LogFormat {
    Common,
    Json,
}

pub fn run(args: &ServeArgs) -> anyhow::Result<ExitCode> {
    let tls = match (&args.tls_cert, &args.tls_key) {
        (Some(cert), Some(key)) => {
            Some(TlsFiles { cert: cert.clone(), key: key.clone(), self_signed: false })
        }
        _ if !args.tls_self_signed.is_empty() => {
            let dir = std::env::temp_dir().join(format!("stillpoint-tls-{}", std::process::id()));
            let (files, spki) = stillpoint_server::tls::self_signed(&args.tls_self_signed, &dir)?;
            tracing::info!(
                "Self-signed certificate for {} in {} (SPKI sha256 {spki})",
                args.tls_self_signed.join(", "),
                dir.display()
            );
            Some(files)
        }
        _ => None,
    };
    if args.redirect_http.is_some() && tls.is_none() {
        anyhow::bail!("--redirect-http needs TLS (--tls-cert and --tls-key, or --tls-self-signed)");
    }
    let info = build_info(&args.dist)?;
    let config = ServeConfig {
        root: args.dist.clone(),
        proxy_allow: info.as_ref().map(|i| i.site.proxy_allow.clone()).unwrap_or_default(),
        noindex: info.as_ref().is_some_and(|i| i.noindex),
        style_hashes: info.as_ref().map(|i| i.style_hashes.clone()).unwrap_or_default(),
        csp: info.as_ref().and_then(|i| i.csp.clone()),
        cache_bytes: args.cache_mib << 20,
        access_log: args.access_log.map(|f| match f {
            LogFormat::Common => AccessLog::Common,
            LogFormat::Json => AccessLog::Json,
        }),
        tls,
        redirect_http: args.redirect_http,
        workers: crate::settings::accept_loops(),
        ..ServeConfig::default()
    };
    let scheme = if config.tls.is_some() { "https" } else { "http" };
    let addr = SocketAddr::new(args.host, args.port);
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    let env = match &info {
        Some(i) if i.noindex => format!(" ({}, not indexed)", i.env),
        _ => String::new(),
    };
    runtime.block_on(stillpoint_server::serve(config, addr, |bound| {
        tracing::info!(
            "Serving {}{env} at {scheme}://{bound} (Ctrl-C to stop)",
            args.dist.display()
        );
    }))?;
    Ok(ExitCode::SUCCESS)
}

/// The build information (`proxy.allow`, the inline styles' CSP hashes); a site built without
/// it proxies nothing and allows no inline style.
fn build_info(dist: &std::path::Path) -> anyhow::Result<Option<BuildInfo>> {
    if !dist.join(BUILD_INFO).exists() {
        tracing::warn!(
            "{} not found: the third-party proxy allows nothing",
            dist.join(BUILD_INFO).display()
        );
        return Ok(None);
    }
    Ok(Some(BuildInfo::from_dist(dist).context("cannot read the build information")?))
}
