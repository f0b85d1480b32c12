//! The files of a built site (DIST), with the bytes they are uploaded as, digested.

use std::io::Write;
use std::path::{Path, PathBuf};

use globset::{Glob, GlobSet, GlobSetBuilder};
use md5::Md5;
use rayon::prelude::*;
use sha2::{Digest, Sha256};

use stillpoint_dist::BuildInfo;
use stillpoint_dist::layout::PRIVATE_DIR;

use crate::DeployError;
use crate::kind::{self, Phase};
use crate::manifest::{Entry, Headers};

/// Which files are uploaded gzip-compressed (`Content-Encoding: gzip`).
#[derive(Debug, Clone, Default)]
pub struct Gzip(Option<GlobSet>);

impl Gzip {
    /// Globs over the path relative to DIST, e.g. `**/*.html`, `*.{css,js}`.
    pub fn new(globs: &[String]) -> Result<Self, DeployError> {
        if globs.is_empty() {
            return Ok(Self(None));
        }
        let mut b = GlobSetBuilder::new();
        for g in globs {
            let glob = Glob::new(g).map_err(|e| DeployError::Input(format!("--gzip {g}: {e}")))?;
            b.add(glob);
        }
        let set = b.build().map_err(|e| DeployError::Input(format!("--gzip: {e}")))?;
        Ok(Self(Some(set)))
    }

    pub fn matches(&self, path: &str) -> bool {
        self.0.as_ref().is_some_and(|s| s.is_match(path))
    }
}

/// One file of DIST as it will be uploaded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LocalFile {
    /// Relative to DIST, `/`-separated: the object key.
    pub path: String,
    pub phase: Phase,
    /// What the bucket records for it once uploaded (`etag` unset).
    pub entry: Entry,
}

impl LocalFile {
    pub fn headers(&self) -> &Headers {
        self.entry.headers.as_ref().expect("local files have headers")
    }
}

/// Lists and digests every file of DIST except `.stillpoint/` (files of kind `Private`), following DIST itself when it is a
/// symlink (to a build generation). Sorted by path.
pub fn scan(dist: &Path, gzip: &Gzip) -> Result<Vec<LocalFile>, DeployError> {
    let mut paths = Vec::new();
    let walk = walkdir::WalkDir::new(dist).follow_root_links(true).sort_by_file_name();
    let walk = walk.into_iter().filter_entry(|e| !(e.depth() == 1 && e.file_name() == PRIVATE_DIR));
    for entry in walk {
        let entry = entry.map_err(|e| {
            let path = e.path().unwrap_or(dist).to_path_buf();
            DeployError::Io(path, e.into())
        })?;
        if !entry.file_type().is_file() {
            continue;
        }
        let rel = entry.path().strip_prefix(dist).expect("under dist");
        let key = rel_key(rel)?;
        paths.push(key);
    }
    let mut files: Vec<LocalFile> = paths
        .par_iter()
        .map(|key| digest(dist, key, gzip, false).map(|(f, _)| f))
        .collect::<Result<_, _>>()?;
    let locations = redirect_locations(dist)?;
    for f in &mut files {
        if let (Some(to), Some(h)) = (locations.get(&f.path), f.entry.headers.as_mut()) {
            h.redirect = Some(to.clone());
        }
    }
    Ok(files)
}

/// The build's table of redirects (`.stillpoint/redirects.json`).
pub const REDIRECTS_TABLE: &str = ".stillpoint/redirects.json";

#[derive(serde::Deserialize)]
struct RedirectTable {
    redirects: Vec<RedirectRow>,
}

#[derive(serde::Deserialize)]
struct RedirectRow {
    from: String,
    to: String,
    #[serde(default)]
    prefix: bool,
}

/// The redirect page of each exact redirect of the build (`{from}.html`, as the build writes
/// it) → its target, from [`REDIRECTS_TABLE`]: what `x-amz-website-redirect-location` says.
/// Prefix redirects have no page (nor object): S3 cannot express them per object. A build
/// without the table has no redirects.
pub fn redirect_locations(
    dist: &Path,
) -> Result<std::collections::BTreeMap<String, String>, DeployError> {
    let path = dist.join(REDIRECTS_TABLE);
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Default::default()),
        Err(e) => return Err(DeployError::Io(path, e)),
    };
    let table: RedirectTable = serde_json::from_str(&text)
        .map_err(|e| DeployError::Input(format!("{}: {e}", path.display())))?;
    Ok(table
        .redirects
        .into_iter()
        .filter(|r| !r.prefix && r.from != "/")
        .map(|r| (format!("{}.html", r.from.trim_start_matches('/')), r.to))
        .collect())
}

/// The object key of a file: its path, byte for byte. A name that cannot be a key (not UTF-8,
/// or holding a control character) stops the deploy before any request, with the reason.
fn rel_key(rel: &Path) -> Result<String, DeployError> {
    let parts: Option<Vec<&str>> = rel.components().map(|c| c.as_os_str().to_str()).collect();
    let key = parts
        .map(|p| p.join("/"))
        .ok_or_else(|| DeployError::Input(format!("{}: file name is not UTF-8", rel.display())))?;
    crate::remote::key(&key)?;
    Ok(key)
}

/// Reads `DIST/key` (through DIST each time), compresses it when asked, and digests the bytes
/// (the MD5 too with `md5`: only a bucket without a usable manifest needs it).
pub fn digest(
    dist: &Path,
    key: &str,
    gzip: &Gzip,
    md5: bool,
) -> Result<(LocalFile, Vec<u8>), DeployError> {
    let path: PathBuf = dist.join(key);
    let raw = std::fs::read(&path).map_err(|e| DeployError::Io(path.clone(), e))?;
    let compressed = gzip.matches(key);
    let bytes = if compressed {
        let mut enc = flate2::GzBuilder::new()
            .mtime(0)
            .write(Vec::with_capacity(raw.len() / 3), flate2::Compression::best());
        enc.write_all(&raw)
            .and_then(|_| enc.flush())
            .map_err(|e| DeployError::Io(path.clone(), e))?;
        enc.finish().map_err(|e| DeployError::Io(path, e))?
    } else {
        raw
    };
    let file = LocalFile {
        path: key.to_string(),
        phase: kind::phase(key),
        entry: Entry {
            sha256: Some(hex::encode(Sha256::digest(&bytes))),
            md5: md5.then(|| hex::encode(Md5::digest(&bytes))),
            size: bytes.len() as u64,
            headers: Some(Headers {
                content_type: kind::content_type(key).to_string(),
                cache_control: kind::cache_control(key).to_string(),
                content_encoding: compressed.then(|| "gzip".to_string()),
                redirect: None,
            }),
            etag: None,
        },
    };
    Ok((file, bytes))
}

/// The build information of DIST, or the one-line reason it is not a build.
pub fn build_info(dist: &Path) -> Result<BuildInfo, DeployError> {
    if !dist.is_dir() {
        return Err(DeployError::Input(format!("{}: no such directory", dist.display())));
    }
    BuildInfo::from_dist(dist).map_err(|_| DeployError::NotABuild(dist.to_path_buf()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scans_through_a_symlinked_dist_skipping_build_info() {
        let tmp = tempfile::tempdir().unwrap();
        let real = tmp.path().join(".dist.gens/a");
        std::fs::create_dir_all(real.join(".stillpoint")).unwrap();
        std::fs::create_dir_all(real.join("assets")).unwrap();
        std::fs::write(real.join(".stillpoint/build.json"), "{}").unwrap();
        std::fs::write(real.join("index.html"), "<p>hi</p>").unwrap();
        std::fs::write(real.join("assets/a-1.js"), "x()").unwrap();
        let dist = tmp.path().join("dist");
        #[cfg(unix)]
        std::os::unix::fs::symlink(".dist.gens/a", &dist).unwrap();
        let files = scan(&dist, &Gzip::new(&["*.html".into()]).unwrap()).unwrap();
        let paths: Vec<_> = files.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(paths, ["assets/a-1.js", "index.html"]);
        let html = &files[1];
        assert_eq!(html.headers().content_encoding.as_deref(), Some("gzip"));
        let (_, bytes) =
            digest(&dist, "index.html", &Gzip::new(&["*.html".into()]).unwrap(), true).unwrap();
        let mut plain = String::new();
        std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(&bytes[..]), &mut plain)
            .unwrap();
        assert_eq!(plain, "<p>hi</p>");
        assert_eq!(html.entry.size, bytes.len() as u64);
        assert_eq!(files[0].phase, Phase::Hashed);
    }

    #[test]
    fn names_that_cannot_be_keys_are_refused_with_the_reason() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(tmp.path().join("static")).unwrap();
        std::fs::write(tmp.path().join("static/ü-ñ #1.txt"), "ok").unwrap();
        let files = scan(tmp.path(), &Gzip::default()).unwrap();
        assert_eq!(files[0].path, "static/ü-ñ #1.txt");
        std::fs::write(tmp.path().join("static/a\u{1b}[2Kb.txt"), "x").unwrap();
        let err = scan(tmp.path(), &Gzip::default()).unwrap_err().to_string();
        assert!(err.contains("cannot be an object key") && err.contains("U+001B"), "{err}");
    }

    #[test]
    fn a_bad_glob_is_an_input_error() {
        let err = Gzip::new(&["a[".into()]).unwrap_err();
        assert!(err.to_string().contains("--gzip a["), "{err}");
    }
}
