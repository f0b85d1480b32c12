//! The hot-file cache: a file's bytes, its compressed variants and its response headers,
//! kept in memory (bounded by total size) and keyed by the request path.
//!
//! Every hit is validated with one `stat` of the resolved path (through the root, so a swapped
//! `dist` symlink or a renamed directory is seen at once): the file's stamp (device, inode,
//! size, modification and change times: `stillpoint_fingerprint::Stamp`) must be the one the
//! entry was loaded from. Builds replace files by rename (a new inode), so a changed file is
//! never served from a stale entry; a file written in place less than two seconds before it
//! was loaded has no trusted stamp, and is loaded again until it settles. A miss reads
//! and compresses the file on the blocking pool; concurrent misses for one path load it once.
//! ETags come from a digest of the content, so a rebuild that leaves a file's bytes alone
//! leaves its ETag alone too.

use std::{
    fs::Metadata,
    io::{self, Read},
    path::{Path, PathBuf},
    sync::Arc,
    time::SystemTime,
};

use bytes::Bytes;
use http::HeaderValue;
use stillpoint_fingerprint::{Digest, Stamp};

use crate::{
    cache,
    encoding::{self, Coding},
    fast::{SENDFILE_MIN, head::Heads},
    open_files::HeldFile,
    redirect_table::Moved,
};

/// Files above this size are streamed from disk on each request (only their headers and
/// digest are cached) and never compressed.
pub(crate) const MAX_IN_MEMORY: u64 = 4 << 20;
/// Default bound on the bytes the cache holds.
pub(crate) const DEFAULT_CACHE_BYTES: u64 = 256 << 20;

/// One representation of the file: its bytes (absent for a file streamed from disk), ETag
/// and Content-Length.
#[derive(Debug)]
pub(crate) struct Variant {
    pub(crate) body: Option<Bytes>,
    pub(crate) etag: HeaderValue,
    pub(crate) length: HeaderValue,
    pub(crate) len: u64,
}

/// A cached file, ready to answer with.
#[derive(Debug)]
pub(crate) struct Entry {
    /// The file, as `root/relative`: resolved through the root on each use.
    pub(crate) path: PathBuf,
    /// The file's stamp when loaded, which a stream checks the file against.
    pub(crate) stamp: Option<Stamp>,
    /// Whether the stamp may vouch for the file later: not when the file was written too
    /// shortly before it was loaded (`stillpoint_fingerprint::Stamp`); such an entry is loaded
    /// again on its next use.
    pub(crate) settled: bool,
    pub(crate) modified: SystemTime,
    pub(crate) content_type: HeaderValue,
    pub(crate) cache_control: HeaderValue,
    pub(crate) last_modified: HeaderValue,
    pub(crate) identity: Variant,
    pub(crate) gzip: Option<Variant>,
    pub(crate) br: Option<Variant>,
    /// The fast path's response heads (`fast/head.rs`).
    pub(crate) heads: Heads,
    /// The file the stamp was taken from, kept open for `sendfile` (`open_files.rs`).
    pub(crate) held: Option<HeldFile>,
    /// The page an exact redirect left at an old URL answers with the redirect
    /// (`redirect_table.rs`).
    pub(crate) redirect: Option<Moved>,
}

impl Entry {
    /// Whether the file on disk is still the one this entry was loaded from.
    pub(crate) fn is_current(&self, meta: &Metadata) -> bool {
        self.settled && self.is_same_file(meta)
    }

    /// Whether `meta` describes the file this entry was loaded from, trusted or not.
    pub(crate) fn is_same_file(&self, meta: &Metadata) -> bool {
        meta.is_file() && self.stamp.is_some_and(|s| s.matches(meta))
    }

    /// The coding to answer with, given a request's Accept-Encoding q-values
    /// (`encoding::accepted`) and the variants this entry has.
    pub(crate) fn coding(&self, accepted: (f32, f32)) -> Coding {
        encoding::choose(accepted, self.gzip.is_some(), self.br.is_some())
    }

    /// The representation for `coding`: the identity one when the entry has no such variant.
    pub(crate) fn variant(&self, coding: Coding) -> &Variant {
        match coding {
            Coding::Identity => &self.identity,
            Coding::Gzip => self.gzip.as_ref().unwrap_or(&self.identity),
            Coding::Br => self.br.as_ref().unwrap_or(&self.identity),
        }
    }

    /// Whether `tag` (from If-None-Match, quotes included, `W/` ignored) names any of this
    /// entry's representations.
    pub(crate) fn has_etag(&self, tag: &[u8]) -> bool {
        let tag = tag.strip_prefix(b"W/").unwrap_or(tag);
        [Some(&self.identity), self.gzip.as_ref(), self.br.as_ref()]
            .into_iter()
            .flatten()
            .any(|v| v.etag.as_bytes() == tag)
    }

    fn weight(&self) -> u64 {
        let bodies = [Some(&self.identity), self.gzip.as_ref(), self.br.as_ref()]
            .into_iter()
            .flatten()
            .filter_map(|v| v.body.as_ref())
            .map(|b| b.len() as u64)
            .sum::<u64>();
        bodies + self.path.as_os_str().len() as u64 + 512
    }
}

#[derive(Clone, Debug)]
pub(crate) struct Weigher;

impl quick_cache::Weighter<String, Arc<Entry>> for Weigher {
    fn weight(&self, key: &String, entry: &Arc<Entry>) -> u64 {
        key.len() as u64 + entry.weight()
    }
}

pub(crate) type Cache = quick_cache::sync::Cache<String, Arc<Entry>, Weigher>;

/// A cache holding at most about `bytes` bytes.
pub(crate) fn new_cache(bytes: u64) -> Cache {
    let bytes = if bytes == 0 { DEFAULT_CACHE_BYTES } else { bytes };
    // quick_cache sizes its tables from an estimated item count.
    let items = (bytes / (16 << 10)).clamp(256, 100_000) as usize;
    Cache::with_weighter(items, bytes, Weigher)
}

/// Reads the regular file `path` and everything needed to answer `request_path` with it (with
/// its compressed variants when `compress`). The stamp comes from the opened file, so it always
/// describes the bytes read. Blocking: run it on the blocking pool.
pub(crate) fn load(
    path: PathBuf,
    request_path: &str,
    csp: &HeaderValue,
    compress: bool,
) -> io::Result<Entry> {
    let mut file = open_no_follow(&path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(io::ErrorKind::NotFound.into());
    }
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
    let content_type = stillpoint_dist::kind::content_type(name).unwrap_or_else(|| guess(name));
    let modified = meta.modified()?;
    let settled = Stamp::is_settled(modified, SystemTime::now());
    let stamp = Stamp::unsettled(&meta);
    let len = meta.len();
    let mut held = None;
    let (identity, gzip, br) = if len > MAX_IN_MEMORY {
        let digest = Digest::of_reader(&mut file)?.to_string();
        (variant(None, &digest, "", len), None, None)
    } else {
        let bytes = read_exact_file(&mut file, len)?;
        let digest = Digest::of(&bytes).to_string();
        let (gz, br) =
            if compress { compressed(&path, &bytes, content_type) } else { (None, None) };
        let gz = gz.map(|b| variant(Some(Bytes::from(b)), &digest, ".gz", 0));
        let br = br.map(|b| variant(Some(Bytes::from(b)), &digest, ".br", 0));
        if len >= SENDFILE_MIN {
            held = HeldFile::keep(file);
        }
        (variant(Some(Bytes::from(bytes)), &digest, "", 0), gz, br)
    };
    let mut entry = Entry {
        path,
        stamp,
        settled,
        modified,
        content_type: HeaderValue::from_static(content_type),
        cache_control: HeaderValue::from_static(cache::cache_control(request_path)),
        last_modified: HeaderValue::try_from(httpdate::fmt_http_date(modified))
            .expect("an HTTP date is a valid header"),
        identity,
        gzip,
        br,
        heads: Heads::default(),
        held,
        redirect: None,
    };
    entry.heads = Heads::of(&entry, csp);
    Ok(entry)
}

/// Opens `path` for reading; a symbolic link as its last component is "not found": links in
/// the site are never followed (`files.rs`).
pub(crate) fn open_no_follow(path: &Path) -> io::Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(rustix::fs::OFlags::NOFOLLOW.bits() as i32)
        .open(path)
        .map_err(|err| match err.raw_os_error() {
            Some(code) if code == rustix::io::Errno::LOOP.raw_os_error() => {
                io::ErrorKind::NotFound.into()
            }
            _ => err,
        })
}

/// The gzip and brotli variants: the file's precompressed `.gz`/`.br` siblings when the build
/// left some, else compressed here for text types.
fn compressed(path: &Path, bytes: &[u8], content_type: &str) -> (Option<Vec<u8>>, Option<Vec<u8>>) {
    let sibling = |ext: &str| {
        let mut name = path.as_os_str().to_owned();
        name.push(ext);
        let mut bytes = Vec::new();
        open_no_follow(Path::new(&name)).ok()?.read_to_end(&mut bytes).ok()?;
        Some(bytes)
    };
    let (gz, br) = (sibling(".gz"), sibling(".br"));
    if gz.is_some() || br.is_some() || !encoding::compressible(content_type) {
        return (gz, br);
    }
    (encoding::gzip(bytes), encoding::brotli(bytes))
}

fn variant(body: Option<Bytes>, digest: &str, suffix: &str, disk_len: u64) -> Variant {
    let len = body.as_ref().map_or(disk_len, |b| b.len() as u64);
    let etag =
        HeaderValue::try_from(format!("\"{digest}{suffix}\"")).expect("hex is a valid header");
    Variant { body, etag, length: HeaderValue::from(len), len }
}

/// The whole file, refusing one that changed size while read (it was being replaced).
fn read_exact_file(file: &mut std::fs::File, len: u64) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::with_capacity(len as usize);
    file.read_to_end(&mut bytes)?;
    if bytes.len() as u64 != len {
        return Err(io::Error::new(io::ErrorKind::Interrupted, "file changed while read"));
    }
    Ok(bytes)
}

fn guess(name: &str) -> &'static str {
    mime_guess::from_path(name).first_raw().unwrap_or("application/octet-stream")
}
