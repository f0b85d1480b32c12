//! The binary is one file: it carries its web bundle and unpacks it on first use, names its
//! version and commit, and prints its own completions and manual pages.

use std::path::Path;
use std::process::{Command, Output};

use crate::util::{SiteTest, stderr};

/// The binary copied alone into `dir/bin`: no `web/` beside it and no checkout above it.
fn lone_binary(dir: &Path) -> std::path::PathBuf {
    let bin = dir.join("bin/stillpoint");
    std::fs::create_dir_all(bin.parent().unwrap()).unwrap();
    std::fs::copy(env!("CARGO_BIN_EXE_stillpoint"), &bin).unwrap();
    bin
}

fn run(bin: &Path, cwd: &Path, cache: &Path, args: &[&str]) -> Output {
    Command::new(bin)
        .args(args)
        .current_dir(cwd)
        .env_remove("STILLPOINT_WEB")
        .env("STILLPOINT_CACHE_DIR", cache)
        .output()
        .unwrap()
}

#[test]
fn a_lone_binary_builds_with_the_bundle_it_carries() {
    let t = SiteTest::from_fixture("minimal");
    let bin = lone_binary(t.tmp.path());
    let cache = t.tmp.path().join("cache");
    let version = run(&bin, t.tmp.path(), &cache, &["--version"]);
    let version = String::from_utf8(version.stdout).unwrap();
    assert!(
        version.contains("\nweb bundle: embedded ("),
        "this test needs a binary built after the web bundle (make build):\n{version}"
    );

    let out = run(&bin, t.tmp.path(), &cache, &["build", "site", "--out", "dist"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(t.out().join("index.html").is_file());
    let unpacked: Vec<_> = std::fs::read_dir(&cache).unwrap().map(|e| e.unwrap().path()).collect();
    let [dir] = unpacked.as_slice() else { panic!("one unpacked bundle: {unpacked:?}") };
    let name = dir.file_name().unwrap().to_string_lossy();
    assert!(name.starts_with(concat!("web-", env!("CARGO_PKG_VERSION"), "-")), "{name}");
    assert!(dir.join("server/worker.js").is_file());

    // An altered copy is replaced, not trusted.
    std::fs::write(dir.join("server/worker.js"), "process.exit(3)").unwrap();
    let out = run(&bin, t.tmp.path(), &cache, &["build", "site", "--out", "dist", "--no-cache"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_ne!(std::fs::read_to_string(dir.join("server/worker.js")).unwrap(), "process.exit(3)");
}

#[test]
fn an_unwritable_cache_is_one_clear_error() {
    let t = SiteTest::from_fixture("minimal");
    let bin = lone_binary(t.tmp.path());
    let file = t.tmp.path().join("a-file");
    std::fs::write(&file, "").unwrap();
    let out = run(&bin, t.tmp.path(), &file, &["build", "site", "--out", "dist"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.starts_with("error: cannot unpack the web bundle into "), "{err}");
    assert!(err.contains("STILLPOINT_CACHE_DIR"), "{err}");
    assert!(!t.out().exists());
}

#[test]
fn version_names_the_release_commit_and_target() {
    let out = Command::new(env!("CARGO_BIN_EXE_stillpoint")).arg("--version").output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], concat!("stillpoint ", env!("CARGO_PKG_VERSION")));
    let commit = lines[1].strip_prefix("commit: ").expect("a commit line");
    assert!(commit.len() == 12 && commit.chars().all(|c| c.is_ascii_hexdigit()), "{commit}");
    assert!(lines[2].starts_with("target: ") && lines[2].contains('-'), "{text}");
}

#[test]
fn completions_and_manual_pages_cover_every_command() {
    let bin = env!("CARGO_BIN_EXE_stillpoint");
    for (shell, marker) in [
        ("bash", "complete -F"),
        ("zsh", "#compdef stillpoint"),
        ("fish", "complete -c stillpoint"),
    ] {
        let out = Command::new(bin).args(["completions", shell]).output().unwrap();
        assert!(out.status.success(), "{shell}: {}", stderr(&out));
        let script = String::from_utf8(out.stdout).unwrap();
        assert!(script.contains(marker), "{shell}:\n{script}");
        for sub in ["build", "check", "serve", "dev", "deploy", "new"] {
            assert!(script.contains(sub), "{shell} completes `{sub}`");
        }
    }
    let out = Command::new(bin).args(["completions", "tcsh"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "an unknown shell is a usage error");

    let out = Command::new(bin).arg("man").output().unwrap();
    let page = String::from_utf8(out.stdout).unwrap();
    assert!(page.starts_with(".ie") || page.contains(".TH stillpoint 1"), "{page}");
    let tmp = tempfile::tempdir().unwrap();
    let out = Command::new(bin).args(["man", "--dir"]).arg(tmp.path()).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    for page in ["stillpoint.1", "stillpoint-build.1", "stillpoint-deploy.1", "stillpoint-man.1"] {
        let text = std::fs::read_to_string(tmp.path().join(page)).unwrap();
        assert!(text.contains(".TH "), "{page} is a manual page");
    }
}

/// The build cache belongs to the executable's bytes, not its file: the same executable installed
/// again (a new file, a new time, as `npm ci` makes it) reuses every page; another one does not.
#[test]
fn the_same_executable_installed_again_keeps_the_build_cache() {
    let t = SiteTest::from_fixture("minimal");
    let cache = t.tmp.path().join("cache");
    let first = lone_binary(&t.tmp.path().join("first"));
    let out = run(&first, t.tmp.path(), &cache, &["build", "site", "--out", "dist"]);
    assert!(out.status.success(), "{}", stderr(&out));

    std::thread::sleep(std::time::Duration::from_millis(20));
    let again = lone_binary(&t.tmp.path().join("again"));
    let out = run(&again, t.tmp.path(), &cache, &["build", "site", "--out", "dist"]);
    let err = stderr(&out);
    assert!(out.status.success() && err.contains("rendered 0,"), "{err}");

    // One byte more is another engine.
    let mut bytes = std::fs::read(&again).unwrap();
    bytes.push(0);
    let other = t.tmp.path().join("other/stillpoint");
    std::fs::create_dir_all(other.parent().unwrap()).unwrap();
    std::fs::write(&other, bytes).unwrap();
    std::fs::set_permissions(&other, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let out = run(&other, t.tmp.path(), &cache, &["build", "site", "--out", "dist"]);
    let err = stderr(&out);
    assert!(out.status.success() && !err.contains("rendered 0,"), "{err}");
}
