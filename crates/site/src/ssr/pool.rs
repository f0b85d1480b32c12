//! A pool of long-lived Node workers that render pages: one JSON line in, one JSON line out
//! and a rendered page's HTML after it (the envelopes are `crate::protocol`, mirrored by
//! `web/src/protocol.ts`). Each worker has a writer thread that prepares and sends requests and
//! a reader thread that finishes pages as answers arrive, so Rust work and Node rendering
//! overlap. A bounded window keeps memory flat however many pages there are.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::sync_channel;
use std::sync::{Arc, Mutex};

use crate::error::BuildError;
use crate::protocol::{
    Preserialized, WorkerRequest, WorkerResponse as Response, read_html, to_json,
    write_render_request,
};
use crate::route::Route;

/// Requests in flight per worker.
const WINDOW: usize = 32;

/// One Node process.
struct Worker {
    id: usize,
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: Option<BufReader<ChildStdout>>,
    stderr: Arc<Mutex<String>>,
}

/// One page to render, as prepared on a writer thread.
pub struct Job {
    pub template: &'static str,
    pub path: Route,
    /// The props sent to the worker, serialised (`protocol::props_json`), with `BODY_MARKER` for
    /// the body: a page without a body has these in its page-data too.
    pub props_json: String,
    /// A page with a body: the HTML the builder splices in place of `BODY_MARKER` after
    /// rendering (an article body, a biography): Node never parses, escapes or copies it.
    pub body: Option<Body>,
}

/// The body of a page, held back from its worker.
pub struct Body {
    pub html: String,
    /// Its field in the props (`bodyHtml`, `bioHtml`).
    pub field: &'static str,
    /// Whether page-data holds it too (not an article's: its HTML alone does).
    pub in_data: bool,
}

/// Stands for the body HTML in the props a worker sees; React inserts it as raw HTML.
pub const BODY_MARKER: &str = "<!--stillpoint:body-->";

/// A page the worker failed to render.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RenderFailure {
    pub path: String,
    pub worker: usize,
    pub message: String,
}

pub struct SsrPool {
    workers: Vec<Worker>,
}

impl SsrPool {
    /// How many workers are running.
    pub fn len(&self) -> usize {
        self.workers.len()
    }

    /// Starts `n` workers running `script` with `node`, all at once, and waits for each to say it
    /// is ready.
    pub fn start(node: &Path, script: &Path, n: usize) -> Result<Self, BuildError> {
        let mut pool = Self { workers: Vec::with_capacity(n) };
        pool.grow(node, script, n.max(1))?;
        Ok(pool)
    }

    /// Starts workers running `script` with `node` (the pool's own) until there are `n`, all at
    /// once, and waits for each new one to say it is ready.
    pub fn grow(&mut self, node: &Path, script: &Path, n: usize) -> Result<(), BuildError> {
        let first = self.workers.len();
        for id in first..n {
            let mut child = Command::new(node)
                .arg(script)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .map_err(|e| BuildError::Node(format!("cannot start render worker {id}: {e}")))?;
            let stderr = Arc::new(Mutex::new(String::new()));
            let mut err_pipe = child.stderr.take().expect("piped");
            let sink = Arc::clone(&stderr);
            std::thread::spawn(move || {
                let mut buf = String::new();
                let _ = err_pipe.read_to_string(&mut buf);
                sink.lock().expect("stderr lock").push_str(&buf);
            });
            self.workers.push(Worker {
                id,
                stdin: child.stdin.take(),
                stdout: child.stdout.take().map(BufReader::new),
                child,
                stderr,
            });
        }
        for i in first..n {
            let w = &mut self.workers[i];
            let ready = match w.read() {
                Ok(Response::Ready) => Ok(()),
                Ok(_) => Err(w.crashed("starting up", "expected a ready line")),
                Err(e) => Err(e),
            };
            if let Err(e) = ready {
                // The pool stays as it was: the new workers end.
                for mut w in self.workers.drain(first..) {
                    w.end();
                }
                return Err(e);
            }
        }
        Ok(())
    }

    /// Renders the header and footer slices once, on the first worker.
    pub fn render_slices(&mut self, site_json: &str) -> Result<(String, String), BuildError> {
        let w = &mut self.workers[0];
        let site = Preserialized(site_json);
        let request: WorkerRequest<(), _> = WorkerRequest::Slices { id: 0, site };
        w.write(&(to_json(&request, Some(site)) + "\n"), "the header and footer")?;
        match w.read()? {
            Response::Slices { header, footer, .. } => Ok((header, footer)),
            Response::Error { message, .. } => Err(BuildError::Render(vec![RenderFailure {
                path: "(header and footer)".into(),
                worker: 0,
                message,
            }])),
            _ => Err(w.crashed("the header and footer", "unexpected answer")),
        }
    }

    /// Renders `count` pages. `prepare(i)` makes page i's job (called on a writer thread);
    /// `finish(i, job, html)` receives the page's HTML (on a reader thread).
    /// Returns the pages that failed to render; a crashed worker is an error (after which the
    /// pool is not to be used again). The workers stay ready for another call.
    pub fn render_all<P, F>(
        &mut self,
        count: usize,
        prepare: P,
        finish: F,
    ) -> Result<Vec<RenderFailure>, BuildError>
    where
        P: Fn(usize) -> Job + Sync,
        F: Fn(usize, Job, String) -> Result<(), BuildError> + Sync,
    {
        let next = AtomicUsize::new(0);
        let failures = Mutex::new(Vec::new());
        let fatal: Mutex<Option<BuildError>> = Mutex::new(None);
        std::thread::scope(|scope| {
            for w in &mut self.workers {
                let (tx, rx) = sync_channel::<(usize, Job)>(WINDOW);
                let stdin = w.stdin.as_mut().expect("worker stdin");
                let stdout = w.stdout.as_mut().expect("worker stdout");
                let (worker_id, stderr) = (w.id, Arc::clone(&w.stderr));
                let (next, prepare, finish, failures, fatal) =
                    (&next, &prepare, &finish, &failures, &fatal);
                scope.spawn(move || {
                    let mut line = Vec::new();
                    loop {
                        if fatal.lock().expect("lock").is_some() {
                            break;
                        }
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= count {
                            break;
                        }
                        let job = prepare(i);
                        line.clear();
                        write_render_request(&mut line, i as u64, job.template, &job.props_json);
                        if tx.send((i, job)).is_err() || stdin.write_all(&line).is_err() {
                            break;
                        }
                    }
                    let _ = stdin.flush(); // the worker stays, for the next call
                });
                scope.spawn(move || {
                    let mut line = String::new();
                    for (i, job) in rx {
                        line.clear();
                        let response = match stdout.read_line(&mut line) {
                            Ok(0) | Err(_) => None,
                            Ok(_) => serde_json::from_str::<Response>(&line).ok(),
                        };
                        let result = match response {
                            Some(Response::Rendered { id, bytes }) if id as usize == i => {
                                match read_html(stdout, bytes) {
                                    Some(html) => finish(i, job, html),
                                    None => Err(crash_error(
                                        worker_id,
                                        &job.path,
                                        "its HTML was cut short",
                                        &stderr,
                                    )),
                                }
                            }
                            Some(Response::Error { id, message }) if id == i as i64 => {
                                failures.lock().expect("lock").push(RenderFailure {
                                    path: job.path.to_string(),
                                    worker: worker_id,
                                    message,
                                });
                                Ok(())
                            }
                            _ => Err(crash_error(worker_id, &job.path, "no answer", &stderr)),
                        };
                        if let Err(e) = result {
                            fatal.lock().expect("lock").get_or_insert(e);
                            break;
                        }
                    }
                });
            }
        });
        if let Some(e) = fatal.into_inner().expect("lock") {
            return Err(e);
        }
        let mut failures = failures.into_inner().expect("lock");
        failures.sort_by(|a, b| a.path.cmp(&b.path));
        Ok(failures)
    }
}

impl Worker {
    fn write(&mut self, line: &str, what: &str) -> Result<(), BuildError> {
        let ok = self
            .stdin
            .as_mut()
            .is_some_and(|s| s.write_all(line.as_bytes()).and_then(|_| s.flush()).is_ok());
        if ok { Ok(()) } else { Err(self.crashed(what, "its input is closed")) }
    }

    fn read(&mut self) -> Result<Response, BuildError> {
        let mut line = String::new();
        let n = self.stdout.as_mut().map_or(Ok(0), |s| s.read_line(&mut line)).unwrap_or(0);
        if n == 0 {
            return Err(self.crashed("starting up", "it exited"));
        }
        serde_json::from_str(&line)
            .map_err(|e| self.crashed("reading an answer", &format!("bad answer line ({e})")))
    }

    /// Ends the worker and waits for it. Closing both pipes ends it even if it is blocked
    /// writing an unread answer.
    fn end(&mut self) {
        drop(self.stdin.take());
        drop(self.stdout.take());
        let _ = self.child.wait();
    }

    fn crashed(&mut self, what: &str, why: &str) -> BuildError {
        let _ = self.child.wait();
        std::thread::sleep(std::time::Duration::from_millis(50)); // let the stderr reader finish
        crash_error(self.id, what, why, &self.stderr)
    }
}

fn crash_error(worker: usize, what: &str, why: &str, stderr: &Mutex<String>) -> BuildError {
    let stderr = stderr.lock().map(|s| s.clone()).unwrap_or_default();
    let tail: Vec<&str> =
        stderr.lines().rev().take(20).collect::<Vec<_>>().into_iter().rev().collect();
    BuildError::Node(format!(
        "render worker {worker} failed while rendering {what}: {why}{}",
        if tail.is_empty() {
            String::new()
        } else {
            format!("\n  worker stderr:\n    {}", tail.join("\n    "))
        }
    ))
}

impl Drop for SsrPool {
    fn drop(&mut self) {
        for w in &mut self.workers {
            w.end();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A worker that says it is ready, then answers nothing until its input ends.
    fn ready_script(dir: &Path) -> std::path::PathBuf {
        let script = dir.join("worker.js");
        std::fs::write(
            &script,
            "process.stdout.write('{\"type\":\"ready\"}\\n'); process.stdin.resume();",
        )
        .unwrap();
        script
    }

    #[test]
    fn a_pool_grows_to_the_workers_asked_for_and_keeps_those_it_has() {
        let dir = tempfile::tempdir().unwrap();
        let script = ready_script(dir.path());
        let node = Path::new("node");
        let mut pool = SsrPool::start(node, &script, 1).unwrap();
        let first = pool.workers[0].child.id();
        pool.grow(node, &script, 3).unwrap();
        assert_eq!(pool.len(), 3);
        assert_eq!(pool.workers[0].child.id(), first, "the running worker is kept");
        let ids: Vec<usize> = pool.workers.iter().map(|w| w.id).collect();
        assert_eq!(ids, [0, 1, 2]);
        pool.grow(node, &script, 2).unwrap();
        assert_eq!(pool.len(), 3, "a pool never shrinks by growing");
    }

    #[test]
    fn a_worker_that_exits_before_it_is_ready_is_an_error_naming_it() {
        let dir = tempfile::tempdir().unwrap();
        let script = ready_script(dir.path());
        let broken = dir.path().join("broken.js");
        std::fs::write(&broken, "console.error('no bundle here'); process.exit(3);").unwrap();
        let mut pool = SsrPool::start(Path::new("node"), &script, 1).unwrap();
        let err = pool.grow(Path::new("node"), &broken, 3).unwrap_err().to_string();
        assert!(err.contains("worker 1") && err.contains("no bundle here"), "{err}");
        assert_eq!(pool.len(), 1, "the pool is left as it was");
    }
}
