//! Command-line arguments.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

/// Stillpoint builds and serves a website of guided-meditation and mindfulness articles.
#[derive(Debug, Parser)]
#[command(name = "stillpoint", version, long_version = LONG_VERSION.as_str(), about)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Build a site directory into a static site.
    Build(BuildArgs),
    /// Validate a site directory and report every content error; writes nothing.
    Check(crate::cmd::check::CheckArgs),
    /// Serve a built site over HTTP.
    Serve(crate::cmd::serve::ServeArgs),
    /// Create a new site directory that checks and builds as written.
    New(crate::cmd::new::NewArgs),
    /// Convert another generator's site into a Stillpoint site (`import hugo HUGO_SITE SITE`).
    Import(crate::cmd::import::ImportArgs),
    /// Build, serve and watch a site directory; open tabs follow every change.
    Dev(crate::cmd::dev::DevArgs),
    /// Publish a built site to its S3-compatible bucket, uploading only what changed.
    Deploy(crate::cmd::deploy::DeployArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell).
    Completions(crate::cmd::shell::CompletionsArgs),
    /// Print the manual page (roff), or write one page per command into a directory.
    Man(crate::cmd::shell::ManArgs),
}

/// `--version`: the version, then the commit, the target and whether the web bundle is inside.
static LONG_VERSION: std::sync::LazyLock<String> = std::sync::LazyLock::new(long_version);

fn long_version() -> String {
    let commit = env!("STILLPOINT_COMMIT");
    let bundle = match crate::web_bundle::digest() {
        "" => "not embedded (found on disk or with --web)".to_string(),
        digest => format!("embedded ({digest})"),
    };
    format!(
        "{}\ncommit: {}\ntarget: {}\nweb bundle: {bundle}",
        env!("CARGO_PKG_VERSION"),
        if commit.is_empty() { "unknown" } else { commit },
        env!("STILLPOINT_TARGET"),
    )
}

#[derive(Debug, Args)]
pub struct BuildArgs {
    /// The site directory (stillpoint.toml, data/, articles/, pages/, static/).
    pub site: PathBuf,
    /// Where to write the site; replaced only when the build succeeds.
    #[arg(long, short, default_value = "dist")]
    pub out: PathBuf,
    /// Another web bundle (a built web/dist) than the one inside the executable.
    #[arg(long, env = "STILLPOINT_WEB")]
    pub web: Option<PathBuf>,
    /// The Node.js executable that runs the render workers.
    #[arg(long, env = "STILLPOINT_NODE", default_value = "node")]
    pub node: PathBuf,
    /// Render workers (0: one per core).
    #[arg(long, short, default_value_t = 0)]
    pub jobs: usize,
    /// The build cache directory [default: SITE/.stillpoint].
    #[arg(long, value_name = "DIR", conflicts_with = "no_cache")]
    pub cache: Option<PathBuf>,
    /// Render every page and keep no cache (a clean build).
    #[arg(long)]
    pub no_cache: bool,
    /// The image cache: processed images, kept by content and shared by builds and `dev` (any
    /// site may share one) [default: SITE/.stillpoint/images].
    #[arg(long, value_name = "DIR", env = "STILLPOINT_IMAGE_CACHE")]
    pub image_cache: Option<PathBuf>,
    /// After building, build again clean into a temporary directory and report every file that
    /// differs from the output (exit 1 if any).
    #[arg(long)]
    pub verify: bool,
    /// Build only shard I of N: the article pages whose slug hashes to I, and with I = 0 every
    /// shared page and file (see docs/scale.md). Validates the whole site.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<stillpoint_site::Shard>,
    /// Build for this environment: `production`, `dev`, or an `[env.NAME]` section of
    /// stillpoint.toml, whose url, bucket and scripts replace the site's. Pages of every
    /// environment but production ask robots not to index them (see docs/configuration.md).
    #[arg(long, value_name = "NAME", env = "STILLPOINT_ENV", default_value = "production")]
    pub env: String,
    /// Publish as of this instant (RFC 3339, e.g. 2027-03-01T00:00:00Z) instead of the clock:
    /// articles dated later wait, those past their `expires` are gone. For tests and
    /// reproducible builds.
    #[arg(long, value_name = "RFC3339")]
    pub now: Option<jiff::Timestamp>,
    /// Publish drafts too: a private preview (every page asks robots not to index it).
    #[arg(long)]
    pub drafts: bool,
    /// Run as the build server of these arguments (started by `build` itself, see
    /// docs/incremental.md).
    #[arg(long, hide = true)]
    pub serve_builds: bool,
}
