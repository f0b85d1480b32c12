//! `stillpoint dev`: build, serve, watch, rebuild, and tell the open tabs.
//!
//! - `watch`: which file events count, and the `notify` watcher with its debouncer;
//! - `root`: notices the site directory deleted and made again, or swapped, and watches the new one;
//! - `rebuild`: the rebuild loop (web bundle with `--web-dev`, then the site) and the terminal output;
//! - `outputs`: what a build changed (pages, web bundle), by comparing the output with the last one;
//! - `events`: the events sent to tabs and the hub that fans them out;
//! - `server`: the production router plus the events stream, the dev client and the dev `/sw.js`;
//! - `local_only`: the `Host`/`Origin` check against DNS rebinding;
//! - `inject`: the client's `<script>` tag in HTML answers;
//! - `client/`: the browser side (`dev.js`, `dev.css`, `sw.js`), served from the binary.

mod events;
mod inject;
mod local_only;
mod outputs;
mod rebuild;
mod root;
mod server;
pub(crate) mod watch;

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use anyhow::Context as _;
use notify_debouncer_full::notify::RecursiveMode;
use stillpoint_server::ServeConfig;
use tokio::sync::watch as signal_watch;

use crate::cmd::dev::DevArgs;
use events::Hub;
use rebuild::Rebuilder;
use watch::Filter;

pub fn run(args: &DevArgs) -> anyhow::Result<ExitCode> {
    let site = args
        .site
        .canonicalize()
        .with_context(|| format!("{}: not a site directory", args.site.display()))?;
    let out = absolute(args.out.clone().unwrap_or_else(|| site.join(".stillpoint/dev-dist")))?;
    let web_dev = if args.web_dev { Some(checkout_web_dir()?) } else { None };
    // Bound before the first build: a busy port fails at once, and a browser that connects
    // during the build is answered when it is done.
    let addr = SocketAddr::new(args.host, args.port);
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    let listener = runtime
        .block_on(tokio::net::TcpListener::bind(addr))
        .with_context(|| format!("cannot listen on {addr}"))?;

    let hub = Arc::new(Hub::new());
    let mut rebuilder = Rebuilder::new(site.clone(), out.clone(), hub.clone());
    rebuilder.web = crate::settings::web_candidates(match &web_dev {
        Some(w) => Some(w.join("dist")),
        None => crate::web_bundle::resolve(args.web.as_deref())?,
    });
    rebuilder.node = args.node.clone();
    rebuilder.jobs = args.jobs;
    rebuilder.drafts = !args.no_drafts;
    rebuilder.now = args.now;
    rebuilder.image_cache = std::env::var_os("STILLPOINT_IMAGE_CACHE").map(PathBuf::from);
    rebuilder.web_dev = web_dev.clone();
    tracing::info!("Building {}…", site.display());
    rebuilder.initial();

    let filter = Filter::new(site.clone(), out.clone(), web_dev.map(|w| w.join("src")));
    let (tx, batches) = std::sync::mpsc::channel::<Vec<PathBuf>>();
    let stop = tx.clone();
    let watcher = {
        let tx = tx.clone();
        Arc::new(Mutex::new(watch::start(&filter, rebuilder.lost.clone(), move |paths| {
            let _ = tx.send(paths);
        })?))
    };
    let stop_polling = Arc::new(AtomicBool::new(false));
    let poller = {
        let (watcher, filter, lost, site) =
            (watcher.clone(), filter.clone(), rebuilder.lost.clone(), site.clone());
        root::spawn(site.clone(), stop_polling.clone(), move || {
            let batches = tx.clone();
            let started = watch::start(&filter, lost.clone(), move |paths| {
                let _ = batches.send(paths);
            });
            match started {
                Ok(new) => {
                    // The old watches followed the old directory; drop them with their watcher.
                    *watcher.lock().expect("watcher lock") = new;
                    // Nothing the old watcher saw covers the new directory: every file's stamp
                    // is checked, and the site path (never reported by the watcher) asks for
                    // the rebuild.
                    lost.store(true, Ordering::SeqCst);
                    let _ = tx.send(vec![site.clone()]);
                    true
                }
                Err(e) => {
                    tracing::warn!("{e}");
                    false
                }
            }
        })
    };
    let watch_dir = {
        let watcher = watcher.clone();
        move |dir: &Path| {
            if let Err(e) =
                watcher.lock().expect("watcher lock").watch(dir, RecursiveMode::Recursive)
            {
                tracing::warn!("{}: cannot watch: {e}", dir.display());
            }
        }
    };
    // An empty batch (the watcher never sends one) stops the loop.
    let builder = std::thread::spawn(move || rebuilder.run(&filter, &batches, watch_dir));

    let info = stillpoint_site::BuildInfo::from_dist(&out).ok();
    let (proxy_allow, style_hashes, csp) =
        info.map(|i| (i.site.proxy_allow, i.style_hashes, i.csp)).unwrap_or_default();
    let config = ServeConfig {
        root: out,
        proxy_allow,
        style_hashes,
        csp,
        uncompressed: true,
        workers: crate::settings::accept_loops(),
        ..ServeConfig::default()
    };
    let names = local_only::LocalNames::new(args.host);
    let served = runtime.block_on(serve(config, listener, hub, names, args.open, &site));
    stop_polling.store(true, Ordering::SeqCst);
    let _ = poller.join();
    drop(watcher);
    let _ = stop.send(Vec::new());
    if builder.join().is_err() {
        tracing::error!("the rebuild loop panicked");
    }
    served?;
    Ok(ExitCode::SUCCESS)
}

async fn serve(
    config: ServeConfig,
    listener: tokio::net::TcpListener,
    hub: Arc<Hub>,
    names: local_only::LocalNames,
    open: bool,
    site: &Path,
) -> anyhow::Result<()> {
    let shutdown = stillpoint_server::shutdown_signal()?;
    let (stop_tx, stop_rx) = signal_watch::channel(false);
    let bound = listener.local_addr()?;
    let router = server::router(&config, hub, stop_rx, names);
    let url = format!("http://{bound}");
    tracing::info!("Serving {} at {url} (Ctrl-C to stop)", site.display());
    if open && let Err(e) = open::that_detached(&url) {
        tracing::debug!("no browser opened: {e}");
    }
    axum::serve(listener, router)
        .with_graceful_shutdown(async move {
            shutdown.await;
            tracing::info!("Stopping");
            let _ = stop_tx.send(true);
        })
        .await?;
    Ok(())
}

/// `path`, made absolute against the current folder.
pub(crate) fn absolute(path: PathBuf) -> anyhow::Result<PathBuf> {
    Ok(if path.is_absolute() { path } else { std::env::current_dir()?.join(path) })
}

/// The `web/` directory of the Stillpoint checkout the binary (or the current directory) is in.
fn checkout_web_dir() -> anyhow::Result<PathBuf> {
    let exe = std::env::current_exe()?;
    let cwd = std::env::current_dir()?;
    exe.ancestors()
        .chain(cwd.ancestors())
        .map(|dir| dir.join("web"))
        .find(|web| web.join("package.json").is_file() && web.join("src").is_dir())
        .ok_or_else(|| {
            anyhow::anyhow!(
                "--web-dev needs a Stillpoint checkout: no web/package.json above {} or {}",
                exe.display(),
                cwd.display()
            )
        })
}
