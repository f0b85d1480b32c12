//! Access log lines on stdout, one per request, in the Common Log Format or as JSON.
//!
//! Lines go through a bounded channel to one writer thread, so a request never waits on
//! stdout; when the writer falls behind, lines are dropped and the count is reported.

use std::{
    io::Write,
    net::SocketAddr,
    sync::{
        Arc,
        atomic::{AtomicU64, Ordering},
        mpsc::{SyncSender, TrySendError, sync_channel},
    },
    time::Instant,
};

use axum::{
    extract::{ConnectInfo, Request, State},
    middleware::Next,
    response::Response,
};
use http::header;

/// The line format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AccessLog {
    /// `host - - [day/Mon/year:hh:mm:ss +0000] "GET /path HTTP/1.1" 200 1234`
    Common,
    /// One JSON object a line: time, remote, method, path, protocol, status, bytes, ms.
    Json,
}

#[derive(Clone)]
pub(crate) struct Writer {
    format: AccessLog,
    lines: SyncSender<String>,
    dropped: Arc<AtomicU64>,
}

impl Writer {
    pub(crate) fn start(format: AccessLog) -> Self {
        let (lines, receiver) = sync_channel::<String>(16 * 1024);
        std::thread::Builder::new()
            .name("access-log".into())
            .spawn(move || {
                let stdout = std::io::stdout();
                let mut out = std::io::BufWriter::new(stdout.lock());
                while let Ok(line) = receiver.recv() {
                    let _ = out.write_all(line.as_bytes());
                    while let Ok(line) = receiver.try_recv() {
                        let _ = out.write_all(line.as_bytes());
                    }
                    let _ = out.flush();
                }
            })
            .expect("spawn the access log thread");
        Self { format, lines, dropped: Arc::new(AtomicU64::new(0)) }
    }

    fn send(&self, line: String) {
        if let Err(TrySendError::Full(_)) = self.lines.try_send(line) {
            let dropped = self.dropped.fetch_add(1, Ordering::Relaxed) + 1;
            if dropped.is_power_of_two() {
                tracing::warn!(dropped, "access log behind: lines dropped");
            }
        }
    }
}

pub(crate) async fn log(State(writer): State<Writer>, request: Request, next: Next) -> Response {
    let started = Instant::now();
    let remote = request.extensions().get::<ConnectInfo<SocketAddr>>().map(|c| c.0.ip());
    let remote = remote.map_or_else(|| "-".to_owned(), |ip| ip.to_string());
    let method = request.method().clone();
    let target = request.uri().path_and_query().map_or("/", |p| p.as_str()).to_owned();
    let version = request.version();
    let response = next.run(request).await;
    let status = response.status().as_u16();
    let bytes = response
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("-")
        .to_owned();
    let now = jiff::Timestamp::now();
    let line = match writer.format {
        AccessLog::Common => format!(
            "{remote} - - [{}] \"{method} {target} {version:?}\" {status} {bytes}\n",
            now.strftime("%d/%b/%Y:%H:%M:%S +0000")
        ),
        AccessLog::Json => {
            let line = serde_json::json!({
                "time": now.to_string(),
                "remote": remote,
                "method": method.as_str(),
                "path": target,
                "protocol": format!("{version:?}"),
                "status": status,
                "bytes": bytes.parse::<u64>().ok(),
                "ms": started.elapsed().as_secs_f64() * 1000.0,
            });
            format!("{line}\n")
        }
    };
    writer.send(line);
    response
}
