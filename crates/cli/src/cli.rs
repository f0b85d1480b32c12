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
    Serve(crate::cmd::serve::ServeArgs),
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
