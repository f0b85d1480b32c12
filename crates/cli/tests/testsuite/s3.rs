//! A real S3 server for the deploy tests: moto's server mode, started per test on 127.0.0.1.
//! `make s3-server` installs it and `make test-rust` passes its path in `STILLPOINT_MOTO_SERVER`.
//! Without that variable the tests are skipped with a message, except under `CI=true`, where
//! they fail.

use std::collections::BTreeMap;
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

pub const SERVER_ENV: &str = "STILLPOINT_MOTO_SERVER";

pub struct S3 {
    child: Child,
    pub endpoint: String,
    python: PathBuf,
}

impl Drop for S3 {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An object as the independent client (boto3) sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Object {
    pub size: u64,
    pub etag: String,
    pub sha256: String,
    pub content_type: Option<String>,
    pub cache_control: Option<String>,
    pub content_encoding: Option<String>,
    pub last_modified: String,
}

impl S3 {
    /// Starts the server, or returns `None` (after saying so loudly) when it is not installed
    /// and this is not CI.
    pub fn start() -> Option<Self> {
        let Some(server) = std::env::var_os(SERVER_ENV).map(PathBuf::from) else {
            assert!(
                std::env::var("CI").as_deref() != Ok("true"),
                "{SERVER_ENV} is not set under CI=true: run the tests with `make test-rust`"
            );
            eprintln!(
                "\n*** SKIPPED: deploy test needs an S3 server; set {SERVER_ENV} (`make s3-server` \
                 installs moto in .venv-s3) ***\n"
            );
            return None;
        };
        let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let child = Command::new(&server)
            .args(["-H", "127.0.0.1", "-p", &port.to_string()])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("{}: {e}", server.display()));
        let s3 = Self {
            child,
            endpoint: format!("http://127.0.0.1:{port}"),
            python: server.with_file_name("python"),
        };
        let deadline = Instant::now() + Duration::from_secs(30);
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < deadline, "moto_server did not listen on {port} in 30 s");
            std::thread::sleep(Duration::from_millis(100));
        }
        Some(s3)
    }

    fn ctl(&self, args: &[&str]) -> Output {
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/support/s3ctl.py");
        let out =
            Command::new(&self.python).arg(script).arg(&self.endpoint).args(args).output().unwrap();
        assert!(out.status.success(), "s3ctl {args:?}: {}", String::from_utf8_lossy(&out.stderr));
        out
    }

    pub fn create_buckets(&self, names: &[&str]) {
        let mut args = vec!["mkbucket"];
        args.extend(names);
        self.ctl(&args);
    }

    /// Every object of the bucket, read back with boto3.
    pub fn dump(&self, bucket: &str) -> BTreeMap<String, Object> {
        let out = self.ctl(&["dump", bucket]);
        let v: BTreeMap<String, Value> = serde_json::from_slice(&out.stdout).unwrap();
        let s = |v: &Value, k: &str| v[k].as_str().map(str::to_string);
        v.into_iter()
            .map(|(k, o)| {
                let obj = Object {
                    size: o["size"].as_u64().unwrap(),
                    etag: s(&o, "etag").unwrap(),
                    sha256: s(&o, "sha256").unwrap(),
                    content_type: s(&o, "contentType"),
                    cache_control: s(&o, "cacheControl"),
                    content_encoding: s(&o, "contentEncoding"),
                    last_modified: s(&o, "lastModified").unwrap(),
                };
                (k, obj)
            })
            .collect()
    }

    /// The environment `stillpoint deploy` needs to reach this server.
    pub fn env(&self) -> Vec<(&'static str, String)> {
        vec![
            ("AWS_ACCESS_KEY_ID", "test".into()),
            ("AWS_SECRET_ACCESS_KEY", "test".into()),
            ("AWS_REGION", "us-east-1".into()),
            ("AWS_ENDPOINT_URL", self.endpoint.clone()),
        ]
    }
}

/// One object's bytes, read with boto3.
pub fn get(s3: &S3, bucket: &str, key: &str) -> Vec<u8> {
    s3.ctl(&["get", bucket, key]).stdout
}

/// HEAD of one object with boto3: `(WebsiteRedirectLocation, ContentType, CacheControl)`.
pub fn head(s3: &S3, bucket: &str, key: &str) -> (Option<String>, Option<String>, Option<String>) {
    let v: Value = serde_json::from_slice(&s3.ctl(&["head", bucket, key]).stdout).unwrap();
    let s = |k: &str| v[k].as_str().map(str::to_string);
    (s("websiteRedirectLocation"), s("contentType"), s("cacheControl"))
}

pub fn put(s3: &S3, bucket: &str, key: &str, body: &[u8]) {
    let tmp = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(tmp.path(), body).unwrap();
    s3.ctl(&["put", bucket, key, tmp.path().to_str().unwrap()]);
}

/// `n` objects `format` with `{}` replaced by 0..n, each holding its key.
pub fn fill(s3: &S3, bucket: &str, format: &str, n: usize) {
    s3.ctl(&["fill", bucket, format, &n.to_string()]);
}

pub fn delete(s3: &S3, bucket: &str, key: &str) {
    s3.ctl(&["delete", bucket, key]);
}
