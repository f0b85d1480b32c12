//! The build server: a process that keeps what a `build` learns about a site (its cache decoded,
//! its output opened, the render workers started) and a file watcher's word on what changed, so
//! that the owner's next `build` with the same arguments asks it instead of doing the work a
//! new process does in proportion to the site (docs/incremental.md: at 100,000 articles that is
//! most of a body edit's 2.7 s).
//!
//! - `build` in a terminal (or with `STILLPOINT_BUILD_SERVER=1`) that finds no server builds as
//!   usual and then starts one in the background (`build ARGS --serve-builds`), which loads the
//!   site, fills the output's spare generation and waits; the next `build` with the same
//!   arguments, from the same folder, connects to it and prints what it says.
//! - One server per (executable, folder, options): the socket's name is their digest. A server
//!   stops after [`idle_limit`] without a build, or when its socket or its site is removed.
//! - It lets the output's lock go between builds, so a `build --verify`, a `--no-cache` build or
//!   another engine can write the same output; the server then reads everything afresh.
//! - Off in CI (`CI` set) and when stderr is not a terminal, unless `STILLPOINT_BUILD_SERVER=1`;
//!   `STILLPOINT_BUILD_SERVER=0` turns it off everywhere. Unix only.

#[cfg(unix)]
mod serve;

use std::path::PathBuf;
use std::time::Duration;

use stillpoint_site::BuildOptions;

use crate::cli::BuildArgs;
use crate::cmd::build::Line;

#[cfg(unix)]
pub use serve::serve;

#[cfg(not(unix))]
pub fn serve(_: &BuildArgs, _: &BuildOptions) -> anyhow::Result<std::process::ExitCode> {
    anyhow::bail!("the build server runs on Unix only")
}

/// How long a server waits for a build before it stops (`STILLPOINT_BUILD_SERVER_IDLE`, in
/// seconds; 30 minutes by default).
pub fn idle_limit() -> Duration {
    let secs = std::env::var("STILLPOINT_BUILD_SERVER_IDLE").ok().and_then(|s| s.parse().ok());
    Duration::from_secs(secs.unwrap_or(30 * 60))
}

/// What a server answers: what the build says, and whether it succeeded.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
pub struct Reply {
    pub lines: Vec<Line>,
    pub ok: bool,
}

/// The server of one build's arguments: where it listens and where it logs.
pub struct Server {
    pub socket: PathBuf,
    pub log: PathBuf,
}

impl Server {
    /// The server for a build with `opts`, when one is wanted (see the module's docs); `None`
    /// for `--verify`, `--shard` and `--no-cache` builds, which a server does not keep.
    pub fn for_build(args: &BuildArgs, opts: &BuildOptions) -> Option<Self> {
        if args.verify || args.shard.is_some() || opts.cache.is_none() || !wanted() {
            return None;
        }
        Self::of(opts)
    }

    /// The server for `opts`, from this folder, wanted or not.
    pub fn of(opts: &BuildOptions) -> Option<Self> {
        let cwd = std::env::current_dir().ok()?;
        let exe = std::env::current_exe().ok()?;
        let key = format!("{}\0{}\0{opts:?}", exe.display(), cwd.display());
        let name = stillpoint_fingerprint::Digest::of(key.as_bytes()).short(16);
        let dir = dirs::runtime_dir().or_else(dirs::cache_dir)?.join("stillpoint/servers");
        Some(Self {
            socket: dir.join(format!("{name}.sock")),
            log: dir.join(format!("{name}.log")),
        })
    }

    /// Asks the server to build; `None` when there is none (or it went away): build here.
    pub fn request(&self) -> Option<Reply> {
        #[cfg(unix)]
        {
            use std::io::{Read as _, Write as _};
            let mut stream = std::os::unix::net::UnixStream::connect(&self.socket).ok()?;
            stream.write_all(b"build\n").ok()?;
            stream.shutdown(std::net::Shutdown::Write).ok()?;
            let mut reply = Vec::new();
            stream.read_to_end(&mut reply).ok()?;
            match serde_json::from_slice(&reply) {
                Ok(reply) => Some(reply),
                Err(e) => {
                    tracing::debug!("the build server gave no answer ({e}): building here");
                    None
                }
            }
        }
        #[cfg(not(unix))]
        None
    }

    /// Starts the server in the background with this process's arguments and environment; it
    /// outlives this process.
    pub fn start(&self) {
        #[cfg(unix)]
        match self.spawn() {
            Ok(()) => tracing::info!(
                "A build server keeps this site's state for the next build (it stops after {} min without one; STILLPOINT_BUILD_SERVER=0 turns it off)",
                idle_limit().as_secs().div_ceil(60)
            ),
            Err(e) => tracing::debug!("no build server started: {e}"),
        }
    }

    #[cfg(unix)]
    fn spawn(&self) -> std::io::Result<()> {
        use std::os::unix::fs::DirBuilderExt as _;
        use std::os::unix::process::CommandExt as _;
        let dir = self.socket.parent().expect("in a folder");
        std::fs::DirBuilder::new().recursive(true).mode(0o700).create(dir)?;
        let log = std::fs::File::create(&self.log)?;
        std::process::Command::new(std::env::current_exe()?)
            .args(std::env::args_os().skip(1))
            .arg("--serve-builds")
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(log)
            // Its own process group: a Ctrl-C in the terminal stops the next build, not it.
            .process_group(0)
            .spawn()?;
        Ok(())
    }
}

/// Whether builds should use a server: `STILLPOINT_BUILD_SERVER=1` or `0` says; otherwise only
/// builds run by a person (stderr a terminal) outside CI.
fn wanted() -> bool {
    if !cfg!(unix) {
        return false;
    }
    match std::env::var("STILLPOINT_BUILD_SERVER").as_deref() {
        Ok("1" | "on" | "true") => true,
        Ok("0" | "off" | "false") => false,
        _ => {
            std::env::var_os("CI").is_none() && std::io::IsTerminal::is_terminal(&std::io::stderr())
        }
    }
}
