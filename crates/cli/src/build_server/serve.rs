//! The server's loop: listen, watch the site, build on request, fill the output's spare while
//! idle, stop when idle too long.
//!
//! A request is answered only once the watcher has reported every change made before it: the
//! server writes a sync file into the site folder and waits for the watcher to report it (the
//! kernel reports a folder's events in order), as Watchman does with its cookies. Until then a
//! save made just before `build` could still be on its way. When the sync file cannot be
//! written, or is not reported in time, or the watcher may have missed events, the build checks
//! every file's stamp, as a new process would.

use std::collections::VecDeque;
use std::io::{Read as _, Write as _};
use std::os::unix::fs::MetadataExt as _;
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, TryRecvError};
use std::time::{Duration, Instant};

use anyhow::Context as _;
use notify_debouncer_full::notify::RecursiveMode;
use stillpoint_site::{BuildOptions, Session, Silent};

use super::{Reply, Server, idle_limit};
use crate::cli::BuildArgs;
use crate::cmd::build::{Line, outcome};
use crate::dev::watch::{self, Changes, Filter};

/// How often an idle server looks at whether it should stop.
const TICK: Duration = Duration::from_secs(2);
/// How long a request waits for the watcher to report its sync file.
const SYNC_WAIT: Duration = Duration::from_secs(2);
/// The start of a sync file's name, in the site folder.
const SYNC_PREFIX: &str = ".stillpoint-sync-";

enum Msg {
    Changed(Vec<PathBuf>),
    Request(UnixStream),
}

/// Runs the server of `args` until it is idle for [`idle_limit`], or its socket or site is gone.
pub fn serve(args: &BuildArgs, opts: &BuildOptions) -> anyhow::Result<ExitCode> {
    let server = Server::of(opts).context("no folder for the build server's socket")?;
    let Some(listener) = bind(&server.socket)? else {
        tracing::info!("another build server answers at {}", server.socket.display());
        return Ok(ExitCode::SUCCESS);
    };
    let socket_inode = std::fs::metadata(&server.socket)?.ino();
    let site = args.site.canonicalize().with_context(|| args.site.display().to_string())?;
    let out = crate::dev::absolute(opts.out.clone())?;
    let gens = stillpoint_site::generations_dir(&out);
    let filter = Filter::new(site.clone(), out.clone(), None).ignoring(gens);
    let (tx, rx) = std::sync::mpsc::channel();
    let lost = Arc::new(AtomicBool::new(false));
    let watcher = {
        let tx = tx.clone();
        watch::start(&filter, lost.clone(), move |paths| {
            let _ = tx.send(Msg::Changed(paths));
        })?
    };
    accept(listener, tx);
    tracing::info!(
        "build server {} for {} at {}",
        std::process::id(),
        site.display(),
        server.socket.display()
    );
    let mut state = State {
        args,
        opts,
        site,
        filter,
        watcher,
        lost,
        session: Session::deferring_save(),
        changes: Changes::default(),
        waiting: VecDeque::new(),
        spare_full: false,
        syncs: 0,
    };
    // The first build reads the cache and opens the output the build that started this one
    // left, with the watcher already running: from then on its word holds.
    state.build();
    let mut last = Instant::now();
    loop {
        if let Some(stream) = state.waiting.pop_front() {
            state.answer(stream, &rx);
            last = Instant::now();
            continue;
        }
        if !state.spare_full {
            state.fill_spare(&rx);
            continue;
        }
        match rx.recv_timeout(TICK) {
            Ok(msg) => state.take(msg),
            Err(RecvTimeoutError::Timeout) => {
                let gone =
                    std::fs::metadata(&server.socket).map_or(true, |m| m.ino() != socket_inode);
                if gone || !state.site.is_dir() || last.elapsed() >= idle_limit() {
                    break;
                }
            }
            Err(RecvTimeoutError::Disconnected) => break,
        }
    }
    tracing::info!("build server {} stops", std::process::id());
    if let Err(e) = state.session.save() {
        tracing::warn!("the build cache was not saved: {e}");
    }
    if std::fs::metadata(&server.socket).is_ok_and(|m| m.ino() == socket_inode) {
        let _ = std::fs::remove_file(&server.socket);
    }
    state.session.release();
    Ok(ExitCode::SUCCESS)
}

/// Listens at `socket`; `None` when another server answers there already.
fn bind(socket: &Path) -> anyhow::Result<Option<UnixListener>> {
    use std::os::unix::fs::DirBuilderExt as _;
    let dir = socket.parent().expect("in a folder");
    std::fs::DirBuilder::new().recursive(true).mode(0o700).create(dir)?;
    match UnixListener::bind(socket) {
        Ok(listener) => Ok(Some(listener)),
        Err(e) if e.kind() == std::io::ErrorKind::AddrInUse => {
            if UnixStream::connect(socket).is_ok() {
                return Ok(None);
            }
            // Left by a server that was killed.
            std::fs::remove_file(socket)?;
            Ok(Some(UnixListener::bind(socket)?))
        }
        Err(e) => Err(e).with_context(|| format!("cannot listen at {}", socket.display())),
    }
}

/// Hands each connection to the loop, from a thread of its own.
fn accept(listener: UnixListener, tx: Sender<Msg>) {
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            if tx.send(Msg::Request(stream)).is_err() {
                break;
            }
        }
    });
}

struct State<'a> {
    args: &'a BuildArgs,
    opts: &'a BuildOptions,
    site: PathBuf,
    filter: Filter,
    watcher: watch::Debouncer,
    lost: Arc<AtomicBool>,
    session: Session,
    /// The site's files changed since the last build, as the watcher reported them.
    changes: Changes,
    /// Requests that came while another was being answered.
    waiting: VecDeque<UnixStream>,
    /// Whether the output's spare generation holds what the live one does.
    spare_full: bool,
    syncs: u64,
}

impl State<'_> {
    fn take(&mut self, msg: Msg) {
        match msg {
            Msg::Changed(paths) => self.changed(&paths),
            Msg::Request(stream) => self.waiting.push_back(stream),
        }
    }

    fn changed(&mut self, paths: &[PathBuf]) {
        for path in paths {
            if path.is_dir()
                && self.filter.watches_dir(path)
                && let Err(e) = self.watcher.watch(path, RecursiveMode::Recursive)
            {
                tracing::warn!("{}: cannot watch: {e}", path.display());
            }
        }
        let mut changes = self.filter.classify(paths.iter().map(PathBuf::as_path));
        changes.site.retain(|p| !is_sync_file(p));
        self.changes.extend(changes);
    }

    /// Waits until the watcher has reported what changed before now (see the module's docs).
    fn sync(&mut self, rx: &Receiver<Msg>) {
        self.syncs += 1;
        let name = format!("{SYNC_PREFIX}{}-{}", std::process::id(), self.syncs);
        let file = self.site.join(&name);
        if let Err(e) = std::fs::write(&file, b"") {
            tracing::debug!("{}: {e}: every file's stamp is checked", file.display());
            self.lost.store(true, Ordering::SeqCst);
            return;
        }
        let deadline = Instant::now() + SYNC_WAIT;
        let seen = loop {
            let Some(left) = deadline.checked_duration_since(Instant::now()) else { break false };
            match rx.recv_timeout(left) {
                Ok(Msg::Changed(paths)) => {
                    let seen = paths.iter().any(|p| p.file_name() == Some(name.as_ref()));
                    self.changed(&paths);
                    if seen {
                        break true;
                    }
                }
                Ok(Msg::Request(stream)) => self.waiting.push_back(stream),
                Err(_) => break false,
            }
        };
        let _ = std::fs::remove_file(&file);
        if !seen {
            tracing::debug!(
                "the watcher did not report {name} in time: every file's stamp is checked"
            );
            self.lost.store(true, Ordering::SeqCst);
        }
    }

    /// Builds, with the watcher's word on what changed when it holds.
    fn build(&mut self) -> (Vec<Line>, bool) {
        let changes = std::mem::take(&mut self.changes);
        if changes.root {
            self.lost.store(true, Ordering::SeqCst);
        }
        if !self.lost.swap(false, Ordering::SeqCst) {
            self.session.vouch(changes.site);
        }
        let built = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            stillpoint_site::build_in(&mut self.session, self.opts, &Silent)
        }));
        let built = match built {
            Ok(built) => built,
            Err(_) => {
                self.session = Session::deferring_save();
                let line =
                    Line::Text("error: the build panicked (see the build server's log)\n".into());
                return (vec![line], false);
            }
        };
        // The manifest and the cache are written before the answer: when `build` returns, the
        // output and the cache are what a build in the process would have left.
        if let Err(e) = self.session.save() {
            tracing::warn!("the build cache or the output's manifest was not saved: {e}");
        }
        if let Err(e) = self.session.unlock_output() {
            tracing::warn!("the output was not let go cleanly: {e}");
        }
        self.spare_full = false;
        let (mut lines, ok) = outcome(self.args, &built);
        for line in &mut lines {
            if let Line::Info(text) = line
                && text.starts_with("Built ")
            {
                text.push_str(&format!(" (build server {})", std::process::id()));
            }
        }
        (lines, ok)
    }

    fn answer(&mut self, mut stream: UnixStream, rx: &Receiver<Msg>) {
        let mut request = Vec::new();
        if stream.read_to_end(&mut request).is_err() || request != b"build\n" {
            return;
        }
        self.sync(rx);
        let started = Instant::now();
        let (lines, ok) = self.build();
        tracing::info!("built in {:.2} s", started.elapsed().as_secs_f64());
        let reply = serde_json::to_vec(&Reply { lines, ok }).expect("a reply encodes");
        if let Err(e) = stream.write_all(&reply) {
            tracing::debug!("the build's answer was not delivered: {e}");
        }
    }

    /// Brings the output's spare generation up to date, a slice at a time, until a message comes.
    fn fill_spare(&mut self, rx: &Receiver<Msg>) {
        let (mut next, mut stopped) = (None, false);
        let mut stop = || {
            stopped = match rx.try_recv() {
                Ok(msg) => {
                    next = Some(msg);
                    true
                }
                Err(TryRecvError::Empty) => false,
                Err(TryRecvError::Disconnected) => true,
            };
            stopped
        };
        match self.session.fill_spare_unlocked(&self.opts.out, &mut stop) {
            // Not stopped and yet not full: there is no live generation to catch up with.
            Ok(full) => self.spare_full = full || !stopped,
            Err(e) => {
                tracing::warn!("the output's other generation was not brought up to date: {e}");
                self.spare_full = true;
            }
        }
        if let Some(msg) = next {
            self.take(msg);
        }
    }
}

fn is_sync_file(rel: &Path) -> bool {
    rel.to_str().is_some_and(|name| name.starts_with(SYNC_PREFIX))
}
