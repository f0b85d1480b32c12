//! `stillpoint dev SITE`'s arguments; the live preview itself is `crate::dev`.

use std::path::PathBuf;

use clap::Args;

#[derive(Debug, Args)]
pub struct DevArgs {
    /// The site directory.
    pub site: PathBuf,
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: std::net::IpAddr,
    /// Port to listen on (0: any free port).
    #[arg(long, short, default_value_t = 8080)]
    pub port: u16,
    /// Open the site in a browser once it is served.
    #[arg(long)]
    pub open: bool,
    /// Where to build the site [default: SITE/.stillpoint/dev-dist].
    #[arg(long, short)]
    pub out: Option<PathBuf>,
    /// Also watch the checkout's web/src: rebuild the web bundle (`npm run build`), then the site.
    #[arg(long)]
    pub web_dev: bool,
    /// Another web bundle (a built web/dist) than the one inside the executable.
    #[arg(long, env = "STILLPOINT_WEB")]
    pub web: Option<PathBuf>,
    /// The Node.js executable that runs the render workers.
    #[arg(long, env = "STILLPOINT_NODE", default_value = "node")]
    pub node: PathBuf,
    /// Render workers (0: one per core).
    #[arg(long, short, default_value_t = 0)]
    pub jobs: usize,
    /// Preview the site as published: leave drafts out (they are shown, marked "Draft", by
    /// default).
    #[arg(long)]
    pub no_drafts: bool,
    /// Preview the site as published at this instant (RFC 3339) instead of the clock.
    #[arg(long, value_name = "RFC3339")]
    pub now: Option<jiff::Timestamp>,
}
