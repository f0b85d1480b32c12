//! The build server: a `build` started where a server is wanted leaves one in the background,
//! and the next builds with the same arguments are answered by it, with an output equal to a
//! clean build's after every kind of edit, however soon after the edit the build comes.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use crate::util::{SOURCE_DATE_EPOCH, SiteTest, image_cache, png, stderr, tree, web_bundle};

/// `stillpoint ARGS` in the test's folder, with the build server wanted and its socket under
/// the test's own runtime folder.
fn run(t: &SiteTest, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_stillpoint"))
        .args(args)
        .current_dir(t.tmp.path())
        .env("STILLPOINT_WEB", web_bundle())
        .env("STILLPOINT_IMAGE_CACHE", image_cache())
        .env("SOURCE_DATE_EPOCH", SOURCE_DATE_EPOCH)
        .env("STILLPOINT_BUILD_SERVER", "1")
        .env("STILLPOINT_BUILD_SERVER_IDLE", "120")
        .env("XDG_RUNTIME_DIR", runtime(t))
        .env_remove("STILLPOINT_LOG")
        .env_remove("STILLPOINT_ENV")
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap()
}

fn runtime(t: &SiteTest) -> PathBuf {
    t.tmp.path().join("run")
}

fn build(t: &SiteTest) -> String {
    let out = run(t, &["build", "site", "--out", "dist"]);
    let err = stderr(&out);
    assert!(out.status.success(), "build failed:\n{err}");
    err
}

/// The server's pid, from the summary of a build it answered.
fn served_by(err: &str) -> Option<u32> {
    let (_, rest) = err.split_once("(build server ")?;
    rest.split(')').next()?.parse().ok()
}

/// The socket of the one server in the test's runtime folder, once it is listening.
fn socket(t: &SiteTest) -> PathBuf {
    let dir = runtime(t).join("stillpoint/servers");
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let found = std::fs::read_dir(&dir).ok().and_then(|entries| {
            entries.flatten().map(|e| e.path()).find(|p| p.extension().is_some_and(|e| e == "sock"))
        });
        if let Some(socket) = found {
            return socket;
        }
        assert!(Instant::now() < deadline, "no build server listening in {}", dir.display());
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Stops the server when the test ends, whatever happened.
struct Stop(u32);
impl Drop for Stop {
    fn drop(&mut self) {
        let _ = Command::new("kill").arg(self.0.to_string()).status();
    }
}

fn alive(pid: u32) -> bool {
    Path::new(&format!("/proc/{pid}")).exists()
        && !std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default().contains(") Z")
}

/// The output equals a clean build of the site as it is now.
fn assert_clean(t: &SiteTest, step: &str) {
    let clean = std::process::Command::new(env!("CARGO_BIN_EXE_stillpoint"))
        .args(["build", "site", "--out", "clean", "--no-cache"])
        .current_dir(t.tmp.path())
        .env("STILLPOINT_WEB", web_bundle())
        .env("STILLPOINT_IMAGE_CACHE", image_cache())
        .env("SOURCE_DATE_EPOCH", SOURCE_DATE_EPOCH)
        .env("STILLPOINT_BUILD_SERVER", "0")
        .env_remove("STILLPOINT_LOG")
        .env_remove("STILLPOINT_ENV")
        .output()
        .unwrap();
    assert!(clean.status.success(), "{}", stderr(&clean));
    let (ours, theirs) = (tree(&t.out()), tree(&t.tmp.path().join("clean")));
    let names =
        |tree: &[(String, Vec<u8>)]| tree.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>();
    assert_eq!(names(&ours), names(&theirs), "after {step}: not the files of a clean build");
    for ((name, a), (_, b)) in ours.iter().zip(&theirs) {
        assert!(a == b, "after {step}: {name} differs from a clean build's");
    }
}

fn edit(t: &SiteTest, rel: &str, from: &str, to: &str) {
    let path = t.site().join(rel);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains(from), "{rel} has no {from:?}");
    std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
}

#[test]
fn a_build_server_answers_every_edit_as_a_clean_build_would() {
    let t = SiteTest::from_fixture("minimal");
    let first = build(&t);
    assert_eq!(served_by(&first), None, "the first build runs here:\n{first}");
    socket(&t);
    let again = build(&t);
    let pid = served_by(&again).unwrap_or_else(|| panic!("not answered by the server:\n{again}"));
    let _stop = Stop(pid);
    assert!(again.contains("rendered 0"), "{again}");

    // Each edit is built at once: the server waits for its watcher to have seen it.
    edit(&t, "articles/body-scan.md", "Lie down", "Lie down slowly");
    let err = build(&t);
    assert_eq!(served_by(&err), Some(pid), "{err}");
    assert!(t.read("articles/body-scan.html").contains("Lie down slowly"));
    assert_clean(&t, "a body edit");

    edit(&t, "articles/body-scan.md", "A 10-Minute", "A 12-Minute");
    assert_eq!(served_by(&build(&t)), Some(pid));
    assert_clean(&t, "a title edit");

    std::fs::remove_file(t.site().join("articles/untagged.md")).unwrap();
    assert_eq!(served_by(&build(&t)), Some(pid));
    assert_clean(&t, "an article removed");

    // A content error is reported as a build in this process reports it.
    let bad = t.site().join("articles/broken.md");
    std::fs::write(&bad, "---\ntitle: [\n---\n").unwrap();
    let out = run(&t, &["build", "site", "--out", "dist"]);
    let err = stderr(&out);
    assert!(!out.status.success());
    assert!(err.contains("articles/broken.md:2"), "{err}");
    std::fs::remove_file(&bad).unwrap();

    // Another build writes the output while the server waits (it lets the lock go between
    // builds); the server then reads everything afresh.
    let verified = run(&t, &["build", "site", "--out", "dist", "--verify", "--drafts"]);
    assert!(verified.status.success(), "{}", stderr(&verified));
    assert_eq!(served_by(&stderr(&verified)), None);
    edit(&t, "articles/breathing.md", "Slow breathing can help", "Slow breathing helps");
    assert_eq!(served_by(&build(&t)), Some(pid));
    assert_clean(&t, "a build by another process");
}

#[test]
fn a_build_server_stops_when_its_socket_is_removed() {
    let t = SiteTest::from_fixture("minimal");
    build(&t);
    let socket = socket(&t);
    let pid = served_by(&build(&t)).expect("answered by the server");
    let _stop = Stop(pid);
    std::fs::remove_file(&socket).unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    while alive(pid) {
        assert!(Instant::now() < deadline, "the build server {pid} is still running");
        std::thread::sleep(Duration::from_millis(100));
    }
    // The next build runs here and starts a new server.
    assert_eq!(served_by(&build(&t)), None);
}

#[test]
fn builds_by_scripts_start_no_server() {
    let t = SiteTest::from_fixture("minimal");
    let script = || {
        Command::new(env!("CARGO_BIN_EXE_stillpoint"))
            .args(["build", "site", "--out", "dist"])
            .current_dir(t.tmp.path())
            .env("STILLPOINT_WEB", web_bundle())
            .env("STILLPOINT_IMAGE_CACHE", image_cache())
            .env("XDG_RUNTIME_DIR", runtime(&t))
            .env_remove("STILLPOINT_BUILD_SERVER")
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap()
    };
    assert!(script().status.success());
    std::thread::sleep(Duration::from_millis(500));
    assert!(!runtime(&t).join("stillpoint").exists(), "stderr is not a terminal: no server");
    let out = script();
    assert_eq!(served_by(&stderr(&out)), None);
}

#[test]
fn a_build_server_answers_image_edits_as_a_clean_build_would() {
    // The server keeps its last image stage: an edit that changes a few articles and no image
    // takes it, anything else lists every reference again; either way, a clean build's output.
    let t = SiteTest::from_fixture("minimal");
    let images = t.site().join("static/images");
    std::fs::create_dir_all(&images).unwrap();
    std::fs::write(images.join("lake.png"), png(64, 40)).unwrap();
    std::fs::write(images.join("dune.png"), png(48, 32)).unwrap();
    for rel in ["articles/body-scan.md", "articles/breathing.md"] {
        edit(&t, rel, "\nslug:", "\nimage: /images/lake.png\nimage_alt: A still lake\nslug:");
    }
    let breathing = t.site().join("articles/breathing.md");
    let text = std::fs::read_to_string(&breathing).unwrap();
    std::fs::write(&breathing, text + "\n![Dunes at dusk](/images/dune.png)\n").unwrap();
    build(&t);
    socket(&t);
    let pid = served_by(&build(&t)).expect("the second build is the server's");
    let _stop = Stop(pid);

    let steps: [(&str, &dyn Fn()); 5] = [
        ("a body edit", &|| edit(&t, "articles/body-scan.md", "Lie down", "Lie down slowly")),
        ("a cover's alt text", &|| {
            edit(&t, "articles/breathing.md", "A still lake", "Still water")
        }),
        ("an image's bytes", &|| std::fs::write(images.join("lake.png"), png(80, 50)).unwrap()),
        ("another cover", &|| {
            edit(&t, "articles/body-scan.md", "/images/lake.png", "/images/dune.png")
        }),
        ("a body edit after", &|| {
            edit(&t, "articles/breathing.md", "Slow breathing", "Slower breathing")
        }),
    ];
    for (step, change) in steps {
        change();
        assert_eq!(served_by(&build(&t)), Some(pid), "{step}");
        assert_clean(&t, step);
    }

    // An image removed: the build fails at the reference, and the next one is whole again.
    std::fs::remove_file(images.join("dune.png")).unwrap();
    let out = run(&t, &["build", "site", "--out", "dist"]);
    let err = stderr(&out);
    assert!(!out.status.success(), "{err}");
    assert!(err.contains("articles/body-scan.md:"), "{err}");
    std::fs::write(images.join("dune.png"), png(48, 32)).unwrap();
    assert_eq!(served_by(&build(&t)), Some(pid));
    assert_clean(&t, "the image back");
}
