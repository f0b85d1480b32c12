//! Command-line arguments.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

/// Stillpoint builds and serves a website of guided-meditation and mindfulness articles.
#[derive(Debug, Parser)]
#[command(name = "stillpoint", version, about)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Build a site directory into a static site.
    Build(BuildArgs),
    /// Validate a site directory and report every content error; writes nothing.
    Check(CheckArgs),
    /// Serve a built site over HTTP.
    Serve(ServeArgs),
    /// Publish a built site to its S3-compatible bucket, uploading only what changed.
    Deploy(crate::cmd::deploy::DeployArgs),
}

#[derive(Debug, Args)]
pub struct BuildArgs {
    /// The site directory (stillpoint.toml, data/, articles/, pages/, static/).
    pub site: PathBuf,
    /// Where to write the site; replaced only when the build succeeds.
    #[arg(long, short, default_value = "dist")]
    pub out: PathBuf,
    /// The web bundle (web/dist); found beside the executable by default.
    #[arg(long, env = "STILLPOINT_WEB")]
    pub web: Option<PathBuf>,
    /// The Node.js executable that runs the render workers.
    #[arg(long, env = "STILLPOINT_NODE", default_value = "node")]
    pub node: PathBuf,
    /// Render workers (0: one per core).
    #[arg(long, short, default_value_t = 0)]
    pub jobs: usize,
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// The site directory.
    pub site: PathBuf,
}

#[derive(Debug, Args)]
pub struct ServeArgs {
    /// The built site directory.
    #[arg(default_value = "dist")]
    pub dist: PathBuf,
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: std::net::IpAddr,
    /// Port to listen on (0: any free port).
    #[arg(long, short, default_value_t = 8080)]
    pub port: u16,
}
