//! `SiteTest`: a fixture site in a temporary directory and the real binary to run on it.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// 2026-01-01T00:00:00Z: a fixed copyright year, so snapshots do not change with the calendar.
pub const SOURCE_DATE_EPOCH: &str = "1767225600";

pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap()
}

/// The web bundle: `STILLPOINT_WEB`, else the repository's `web/dist` (built by `make build`).
pub fn web_bundle() -> PathBuf {
    std::env::var_os("STILLPOINT_WEB")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace().join("web/dist"))
}

/// The image cache every test's builds share (`STILLPOINT_IMAGE_CACHE`, else
/// `target/test-image-cache`): its entries are named by content, so a photograph is processed
/// once for the whole suite.
pub fn image_cache() -> PathBuf {
    std::env::var_os("STILLPOINT_IMAGE_CACHE")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace().join("target/test-image-cache"))
}

pub struct SiteTest {
    pub tmp: tempfile::TempDir,
}

impl SiteTest {
    /// A copy of `tests/fixtures/{name}` at `<tmp>/site`.
    pub fn from_fixture(name: &str) -> Self {
        Self::from_dir(&fixtures().join(name))
    }

    /// A copy of the demo site, whose pictures the shared image cache holds: the first test to
    /// ask builds the demo once under a lock on that cache, so the tests that start together wait
    /// for one encoder instead of each processing every photograph.
    pub fn demo() -> Self {
        let demo = workspace().join("examples/demo");
        let cache = image_cache();
        std::fs::create_dir_all(&cache).unwrap();
        let lock = std::fs::File::create(cache.with_extension("lock")).unwrap();
        lock.lock().unwrap();
        Self::from_dir(&demo).build();
        drop(lock);
        Self::from_dir(&demo)
    }

    pub fn from_dir(dir: &Path) -> Self {
        let tmp = tempfile::tempdir().unwrap();
        copy_sources(dir, &tmp.path().join("site"));
        Self { tmp }
    }

    /// The minimal site with `tests/fixtures/invalid/{case}` laid over it.
    pub fn invalid(case: &str) -> Self {
        let t = Self::from_fixture("minimal");
        copy_sources(&fixtures().join("invalid").join(case), &t.site());
        t
    }

    pub fn site(&self) -> PathBuf {
        self.tmp.path().join("site")
    }

    pub fn out(&self) -> PathBuf {
        self.tmp.path().join("dist")
    }

    /// Runs `stillpoint ARGS` in the temporary directory.
    pub fn run(&self, args: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_stillpoint"))
            .args(args)
            .current_dir(self.tmp.path())
            .env("STILLPOINT_WEB", web_bundle())
            .env("STILLPOINT_IMAGE_CACHE", crate::util::image_cache())
            .env("SOURCE_DATE_EPOCH", SOURCE_DATE_EPOCH)
            .env_remove("STILLPOINT_LOG")
            .env_remove("STILLPOINT_BUILD_SERVER")
            .env_remove("STILLPOINT_ENV")
            .output()
            .unwrap()
    }

    /// [`run`](Self::run), failing the test when the command has not finished after `limit` (it
    /// hangs): the process is killed and the test panics. Output goes through files, so a full
    /// pipe cannot block the command.
    pub fn run_bounded(&self, args: &[&str], limit: std::time::Duration) -> Output {
        let file = |name: &str| std::fs::File::create(self.tmp.path().join(name)).unwrap();
        let mut child = Command::new(env!("CARGO_BIN_EXE_stillpoint"))
            .args(args)
            .current_dir(self.tmp.path())
            .env("STILLPOINT_WEB", web_bundle())
            .env("STILLPOINT_IMAGE_CACHE", crate::util::image_cache())
            .env("SOURCE_DATE_EPOCH", SOURCE_DATE_EPOCH)
            .env_remove("STILLPOINT_LOG")
            .env_remove("STILLPOINT_BUILD_SERVER")
            .stdin(std::process::Stdio::null())
            .stdout(file("bounded.out"))
            .stderr(file("bounded.err"))
            .spawn()
            .unwrap();
        let deadline = std::time::Instant::now() + limit;
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break status;
            }
            if std::time::Instant::now() > deadline {
                child.kill().unwrap();
                child.wait().unwrap();
                panic!(
                    "`stillpoint {}` was still running after {limit:?}: it hangs",
                    args.join(" ")
                );
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        };
        let read = |name: &str| std::fs::read(self.tmp.path().join(name)).unwrap();
        Output { status, stdout: read("bounded.out"), stderr: read("bounded.err") }
    }

    /// `stillpoint build site --out dist`, asserting success.
    pub fn build(&self) -> Output {
        let out = self.run(&["build", "site", "--out", "dist"]);
        assert!(out.status.success(), "build failed:\n{}", String::from_utf8_lossy(&out.stderr));
        out
    }

    pub fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.out().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
    }
}

pub use stillpoint_content::test_site::copy_sources;

/// Every file below `dir`, sorted.
pub fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() { stack.push(p) } else { out.push(p) }
        }
    }
    out.sort();
    out
}

/// (relative path, bytes) of every file below `dir`, for byte-for-byte comparisons.
pub fn tree(dir: &Path) -> Vec<(String, Vec<u8>)> {
    walk(dir)
        .into_iter()
        .map(|p| (p.strip_prefix(dir).unwrap().display().to_string(), std::fs::read(&p).unwrap()))
        .collect()
}

/// The text between `start` and the next `end` after it.
pub fn between<'a>(html: &'a str, start: &str, end: &str) -> Option<&'a str> {
    let i = html.find(start)? + start.len();
    let j = html[i..].find(end)? + i;
    Some(&html[i..j])
}

/// `(title, description)` of an HTML document, as written (HTML-escaped).
pub fn title_and_description(html: &str) -> (String, String) {
    (
        between(html, "<title>", "</title>").unwrap_or("").to_string(),
        between(html, "<meta name=\"description\" content=\"", "\">").unwrap_or("").to_string(),
    )
}

pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Replaces the first `from` in the site's file `rel` with `to` (which must be there).
pub fn edit(t: &SiteTest, rel: &str, from: &str, to: &str) {
    let path = t.site().join(rel);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains(from), "{rel} has no {from:?}");
    std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
}

/// A real PNG, `width`×`height`, of a gradient that differs with the size (the image pipeline
/// decodes it).
pub fn png(width: u32, height: u32) -> Vec<u8> {
    let mut bytes = Vec::new();
    let mut encoder = png::Encoder::new(&mut bytes, width, height);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().unwrap();
    let pixels: Vec<u8> = (0..height)
        .flat_map(|y| {
            (0..width).flat_map(move |x| [(x * 7) as u8, (y * 5) as u8, (width + height) as u8])
        })
        .collect();
    writer.write_image_data(&pixels).unwrap();
    writer.finish().unwrap();
    bytes
}
