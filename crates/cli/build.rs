//! Embeds the web bundle (`web/dist`: client assets, SSR worker, service worker) in the binary,
//! so an installed `stillpoint` is one file plus Node.js, and stamps the commit it was built from.
//!
//! `STILLPOINT_EMBED_WEB=DIR` names another bundle; `STILLPOINT_EMBED_WEB=` (empty) embeds none.
//! Without a built `web/dist` nothing is embedded and the binary looks for the bundle on disk, as
//! before (`cargo clippy` and Rust-only work need no npm).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    let manifest_dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let root = manifest_dir.join("../..");
    println!("cargo:rerun-if-env-changed=STILLPOINT_EMBED_WEB");
    println!("cargo:rerun-if-env-changed=STILLPOINT_COMMIT");

    let bundle = match std::env::var_os("STILLPOINT_EMBED_WEB") {
        Some(dir) if dir.is_empty() => None,
        Some(dir) => Some(PathBuf::from(dir)),
        None => Some(root.join("web/dist")),
    };
    if let Some(dir) = &bundle {
        // Cargo scans a directory named here for any change below it; a missing one is checked
        // again on every build, so the first `make build` after `npm run build` embeds it.
        println!("cargo:rerun-if-changed={}", dir.display());
    }
    let files = bundle.filter(|d| is_bundle(d)).map(|d| files_of(&d)).unwrap_or_default();
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("set by cargo"));
    std::fs::write(out.join("web_bundle.rs"), source(&files)).expect("write web_bundle.rs");

    let commit = std::env::var("STILLPOINT_COMMIT").ok().or_else(|| git_commit(&root));
    println!("cargo:rustc-env=STILLPOINT_COMMIT={}", commit.unwrap_or_default());
    let target = std::env::var("TARGET").expect("set by cargo");
    println!("cargo:rustc-env=STILLPOINT_TARGET={target}");
}

fn is_bundle(dir: &Path) -> bool {
    dir.join("server/worker.js").is_file() && dir.join("client/.vite/manifest.json").is_file()
}

/// Every regular file below `dir` as (path relative to `dir` with `/`, absolute path), sorted.
fn files_of(dir: &Path) -> Vec<(String, PathBuf)> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).expect("read the web bundle") {
            let path = entry.expect("read the web bundle").path();
            let kind = std::fs::metadata(&path).expect("stat the web bundle");
            if kind.is_dir() {
                stack.push(path);
            } else if kind.is_file() {
                let rel = path.strip_prefix(dir).expect("below the bundle");
                let rel = rel.components().map(|c| c.as_os_str().to_string_lossy());
                let abs = path.canonicalize().expect("canonical path");
                files.push((rel.collect::<Vec<_>>().join("/"), abs));
            }
        }
    }
    files.sort();
    files
}

/// `FILES`, each `(path, bytes)` through `include_bytes!` (so cargo tracks every file), and
/// `DIGEST`, which names the unpacked copy: a hash of every path and its bytes.
fn source(files: &[(String, PathBuf)]) -> String {
    let mut hash = xxhash_rust::xxh3::Xxh3::new();
    let mut src = String::from("pub static FILES: &[(&str, &[u8])] = &[\n");
    for (rel, abs) in files {
        let bytes = std::fs::read(abs).expect("read a bundle file");
        hash.update(rel.as_bytes());
        hash.update(&(bytes.len() as u64).to_le_bytes());
        hash.update(&bytes);
        let _ = writeln!(src, "    ({rel:?}, include_bytes!({:?})),", abs.display().to_string());
    }
    src.push_str("];\n");
    let _ = writeln!(src, "pub const DIGEST: &str = \"{:016x}\";", hash.digest());
    src
}

/// The commit of the checkout, when built from one (`git` present); a source tarball has none.
fn git_commit(root: &Path) -> Option<String> {
    let git_dir = Command::new("git")
        .args(["rev-parse", "--absolute-git-dir"])
        .current_dir(root)
        .output()
        .ok()
        .filter(|o| o.status.success())?;
    let git_dir = PathBuf::from(String::from_utf8(git_dir.stdout).ok()?.trim());
    // A path that does not exist would make every build rerun this script.
    for moves in ["HEAD", "refs/heads", "packed-refs"].map(|p| git_dir.join(p)) {
        if moves.exists() {
            println!("cargo:rerun-if-changed={}", moves.display());
        }
    }
    let out = Command::new("git")
        .args(["rev-parse", "--short=12", "HEAD"])
        .current_dir(root)
        .output()
        .ok()
        .filter(|o| o.status.success())?;
    Some(String::from_utf8(out.stdout).ok()?.trim().to_string())
}
