//! The settings the CLI resolves once for the libraries, which read no environment for them:
//! the copyright year, the render workers and accept loops, where the web bundle may be, and
//! the engine's identity.

use std::num::NonZero;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use stillpoint_fingerprint::Stamp;

/// The copyright year: `SOURCE_DATE_EPOCH`'s when set (reproducible builds), else `now`'s (the
/// `--now` flag), else this year. `SOURCE_DATE_EPOCH` dates the copyright line only: it is
/// often the last commit's time, and publishing as of it would hold back every scheduled
/// article of a cron rebuild.
pub fn year(now: Option<jiff::Timestamp>) -> i16 {
    year_of(std::env::var("SOURCE_DATE_EPOCH").ok().as_deref(), now)
}

/// [`year`] with `SOURCE_DATE_EPOCH`'s value given; one that is not a timestamp is ignored.
fn year_of(source_date_epoch: Option<&str>, now: Option<jiff::Timestamp>) -> i16 {
    source_date_epoch
        .and_then(|s| s.parse::<i64>().ok())
        .and_then(|s| jiff::Timestamp::from_second(s).ok())
        .or(now)
        .unwrap_or_else(jiff::Timestamp::now)
        .to_zoned(jiff::tz::TimeZone::UTC)
        .year()
}

/// Render workers: `requested` (`--jobs`), or one per core when 0 (two when the count of cores
/// is unknown).
pub fn jobs(requested: usize) -> usize {
    match requested {
        0 => std::thread::available_parallelism().map_or(2, NonZero::get),
        n => n,
    }
}

/// The server's accept loops: one per core (one when the count is unknown).
pub fn accept_loops() -> usize {
    std::thread::available_parallelism().map_or(1, NonZero::get)
}

/// Where the web bundle may be, in order: `bundle` (`--web`, `STILLPOINT_WEB` or the one the
/// binary carries, see [`crate::web_bundle::resolve`]) when there is one, else `web/` beside the
/// executable (an installed layout), then `../../web/dist` from it (the executable inside this
/// repository's `target/`).
pub fn web_candidates(bundle: Option<PathBuf>) -> Vec<PathBuf> {
    match bundle {
        Some(dir) => vec![dir],
        None => std::env::current_exe().map(|exe| beside(&exe)).unwrap_or_default(),
    }
}

/// `web/` in the executable's directory and `web/dist` two levels above it.
fn beside(exe: &Path) -> Vec<PathBuf> {
    let exe = exe.canonicalize().unwrap_or_else(|_| exe.to_path_buf());
    let Some(dir) = exe.parent() else { return Vec::new() };
    let mut candidates = vec![dir.join("web")];
    candidates.extend(dir.ancestors().nth(2).map(|root| root.join("web/dist")));
    candidates
}

/// This executable's identity for the build cache ([`stillpoint_site::engine_id`]), found once
/// per process. Digesting the executable reads all of it (over 100 MB, a tenth of a small
/// rebuild), so the identity is remembered in the user's cache directory beside the executable's
/// stamp ([`Stamp`]: size, times, device, inode) and read again only when the stamp differs.
pub fn engine() -> String {
    static ID: OnceLock<String> = OnceLock::new();
    ID.get_or_init(|| {
        let exe = std::env::current_exe().ok();
        let memo = exe.as_deref().zip(crate::web_bundle::cache_root()).map(|(exe, root)| {
            // One memo per executable, so two installed side by side do not take turns.
            let name = stillpoint_fingerprint::Digest::of(exe.as_os_str().as_encoded_bytes());
            root.join(ENGINE_MEMOS).join(format!("{}.json", name.short(16)))
        });
        match (exe, memo) {
            (Some(exe), Some(memo)) => remembered_engine(&exe, &memo),
            (exe, _) => stillpoint_site::engine_id(exe.as_deref()),
        }
    })
    .clone()
}

/// Where [`engine`] remembers identities, in the user's cache directory: a file per executable.
const ENGINE_MEMOS: &str = "engines";

/// What [`engine`] remembers: the executable, its stamp when it was digested, and the identity.
#[derive(serde::Serialize, serde::Deserialize)]
struct EngineMemo {
    executable: PathBuf,
    stamp: Stamp,
    id: String,
}

/// The identity of `exe`: the one remembered in `memo` while the executable's stamp is the one
/// recorded, else digested again (and remembered when the executable is settled, so one being
/// written is never trusted; an unwritable cache directory only costs the digest).
fn remembered_engine(exe: &Path, memo: &Path) -> String {
    let meta = std::fs::metadata(exe).ok();
    let known =
        std::fs::read(memo).ok().and_then(|b| serde_json::from_slice::<EngineMemo>(&b).ok());
    if let (Some(m), Some(meta)) = (&known, &meta)
        && m.executable == exe
        && m.stamp.matches(meta)
    {
        return m.id.clone();
    }
    let read_at = std::time::SystemTime::now();
    let id = stillpoint_site::engine_id(Some(exe));
    if let Some(stamp) = meta.as_ref().and_then(|m| Stamp::of(m, read_at)) {
        let record = EngineMemo { executable: exe.to_path_buf(), stamp, id: id.clone() };
        // Written whole or not at all (a temporary file renamed over it): a build beside this
        // one reads the old memo or the new one. Failing only costs the next build the digest.
        let _ = memo.parent().map(|dir| -> std::io::Result<()> {
            std::fs::create_dir_all(dir)?;
            let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
            std::io::Write::write_all(&mut tmp, &serde_json::to_vec(&record)?)?;
            tmp.persist(memo)?;
            Ok(())
        });
    }
    id
}

/// The image cache: `flag` (`--image-cache`, `STILLPOINT_IMAGE_CACHE`), else the site's own
/// (`SITE/.stillpoint/images`). Its entries are named by content, so sites may share one.
pub fn image_cache(flag: Option<&std::path::Path>, site: &std::path::Path) -> std::path::PathBuf {
    flag.map_or_else(
        || stillpoint_site::default_image_cache_dir(site),
        std::path::Path::to_path_buf,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_year_is_source_date_epochs_then_nows_then_the_clocks() {
        let now: jiff::Timestamp = "2031-06-01T00:00:00Z".parse().unwrap();
        // 2026-01-01T00:00:00Z.
        assert_eq!(year_of(Some("1767225600"), Some(now)), 2026);
        assert_eq!(year_of(Some("1767225599"), None), 2025);
        assert_eq!(year_of(None, Some(now)), 2031);
        assert_eq!(year_of(Some("yesterday"), Some(now)), 2031, "not a timestamp: ignored");
        assert_eq!(year_of(Some(""), Some(now)), 2031);
        let this_year = jiff::Timestamp::now().to_zoned(jiff::tz::TimeZone::UTC).year();
        assert_eq!(year_of(None, None), this_year);
    }

    #[test]
    fn jobs_are_the_cores_unless_asked() {
        assert_eq!(jobs(3), 3);
        assert!(jobs(0) >= 1);
        assert!(accept_loops() >= 1);
    }

    #[test]
    fn the_web_bundle_is_looked_for_where_told_else_beside_the_executable() {
        let told = PathBuf::from("/opt/web");
        assert_eq!(web_candidates(Some(told.clone())), [told]);
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().canonicalize().unwrap();
        let exe = root.join("target/debug/stillpoint");
        std::fs::create_dir_all(exe.parent().unwrap()).unwrap();
        std::fs::write(&exe, b"").unwrap();
        assert_eq!(beside(&exe), [root.join("target/debug/web"), root.join("web/dist")]);
    }

    #[test]
    fn the_engine_is_named_by_version_and_executable() {
        let id = engine();
        assert!(id.starts_with(env!("CARGO_PKG_VERSION")), "{id}");
        assert_ne!(id, stillpoint_site::engine_id(None), "the executable was read");
        assert_eq!(engine(), id);
    }

    #[test]
    fn the_engine_is_remembered_while_its_executable_is_the_same_file() {
        let tmp = tempfile::tempdir().unwrap();
        let (exe, memo) = (tmp.path().join("stillpoint"), tmp.path().join("cache/engine.json"));
        std::fs::write(&exe, b"one engine").unwrap();
        let settle = |path: &Path| {
            let old = std::time::SystemTime::now() - std::time::Duration::from_secs(60);
            std::fs::File::options().write(true).open(path).unwrap().set_modified(old).unwrap();
        };
        // Written just now: digested, not remembered (it may still be being written).
        let first = remembered_engine(&exe, &memo);
        assert_eq!(first, stillpoint_site::engine_id(Some(&exe)));
        assert!(!memo.exists());
        settle(&exe);
        assert_eq!(remembered_engine(&exe, &memo), first);
        assert!(memo.exists());
        // The memo is what answers while the stamp matches: a forged id shows it was used.
        let mut record: EngineMemo =
            serde_json::from_slice(&std::fs::read(&memo).unwrap()).unwrap();
        record.id = format!("{} forged", env!("CARGO_PKG_VERSION"));
        std::fs::write(&memo, serde_json::to_vec(&record).unwrap()).unwrap();
        assert_eq!(remembered_engine(&exe, &memo), record.id);
        // Another executable (new bytes, so a new stamp) is digested again.
        std::fs::write(&exe, b"another engine").unwrap();
        settle(&exe);
        let second = remembered_engine(&exe, &memo);
        assert_eq!(second, stillpoint_site::engine_id(Some(&exe)));
        assert_ne!(second, first);
        // A corrupt memo is only a digest more.
        std::fs::write(&memo, b"{").unwrap();
        assert_eq!(remembered_engine(&exe, &memo), second);
    }
}
