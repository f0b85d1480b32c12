//! The fast path's answer to a plain `GET`/`HEAD`: the same lookup, coding choice and
//! conditional rules as `files.rs` and `respond.rs`, written as a precomputed head. What the
//! fast path does not answer itself (redirects, 404/500 pages, unclean paths) is handed to
//! hyper, which answers it as before.

use std::{fs::File, ops::Range, sync::Arc};

use bytes::Bytes;
use percent_encoding::percent_decode_str;

use super::{head, request::Simple};
use crate::{
    REQUEST_TIMEOUT,
    encoding::{self, Coding},
    file_cache::Entry,
    files::{StaticSite, is_clean},
    redirect, respond,
};

/// Identity bodies from this size on go out with `sendfile` on plain TCP; smaller ones are
/// cheaper to write from memory than to open.
pub(crate) const SENDFILE_MIN: u64 = 32 << 10;

/// What follows the head written into `out`.
pub(crate) enum Reply {
    /// Nothing (`HEAD`, `304`).
    Nothing,
    Body(Bytes),
    /// The first `len` bytes of this open file (checked to be the cached version).
    File(Sendable, u64),
    /// Not answered here: hand the connection to hyper (`out` is to be ignored).
    HandOff,
}

/// The file to send: the entry's own descriptor, or one opened for this answer.
pub(crate) enum Sendable {
    Held(Arc<Entry>),
    Opened(File),
}

impl Sendable {
    pub(crate) fn get(&self) -> &File {
        match self {
            Self::Held(entry) => entry.held.as_ref().expect("only entries holding a file").file(),
            Self::Opened(file) => file,
        }
    }
}

/// Answers `request` (parsed from `buf`): appends its head, without `Date`, to `out`.
/// `zero_copy`: the socket is plain TCP and can take a file.
pub(crate) async fn answer(
    site: &StaticSite,
    buf: &[u8],
    request: &Simple,
    zero_copy: bool,
    out: &mut Vec<u8>,
) -> Reply {
    let text = |range: &Range<usize>| std::str::from_utf8(&buf[range.clone()]).ok();
    let Some(path) = text(&request.path) else { return Reply::HandOff };
    let query = match &request.query {
        Some(range) => match text(range) {
            Some(query) => Some(query),
            None => return Reply::HandOff,
        },
        None => None,
    };
    if redirect::trailing_slash_target(path, query).is_some() {
        return Reply::HandOff;
    }
    let decoded = match percent_decode_str(path).decode_utf8() {
        Ok(decoded) if is_clean(&decoded) => decoded,
        _ => return Reply::HandOff,
    };
    let value = |range: &Option<Range<usize>>| range.as_ref().map(|r| &buf[r.clone()]);
    for _ in 0..3 {
        let entry = match tokio::time::timeout(REQUEST_TIMEOUT, site.entry(&decoded)).await {
            Ok(Ok(Some(entry))) => entry,
            _ => return Reply::HandOff,
        };
        if entry.redirect.is_some() {
            return Reply::HandOff;
        }
        let accepted = encoding::accepted(value(&request.accept_encoding));
        let coding = entry.coding(accepted);
        let variant = entry.variant(coding);
        let (if_none_match, if_modified_since) =
            (value(&request.if_none_match), value(&request.if_modified_since));
        if respond::not_modified_by(&entry, if_none_match, if_modified_since) {
            head::not_modified(out, &entry, variant);
            return Reply::Nothing;
        }
        out.extend_from_slice(entry.heads.get(coding));
        if request.head_only {
            return Reply::Nothing;
        }
        // Only the identity bytes are the file on disk.
        let from_file = zero_copy && coding == Coding::Identity;
        match &variant.body {
            Some(bytes) if !from_file || variant.len < SENDFILE_MIN => {
                return Reply::Body(bytes.clone());
            }
            // `site.entry` has just checked (one `stat`) that the path names the very file
            // the entry holds open (`open_files.rs`).
            Some(_) if entry.held.is_some() => {
                return Reply::File(Sendable::Held(entry.clone()), variant.len);
            }
            // No descriptor held (the budget is spent): open the file. If it changed since the
            // check above, the cached bytes are still one whole version, as the router sends.
            Some(bytes) => {
                return match open_current(&entry) {
                    Some(file) => Reply::File(Sendable::Opened(file), variant.len),
                    None => Reply::Body(bytes.clone()),
                };
            }
            None if !from_file => return Reply::HandOff,
            None => match open_current(&entry) {
                Some(file) => return Reply::File(Sendable::Opened(file), variant.len),
                None => {
                    site.forget(&decoded);
                    out.clear();
                }
            },
        }
    }
    Reply::HandOff
}

/// The entry's file, opened, if it is still the version the entry was loaded from.
fn open_current(entry: &Arc<Entry>) -> Option<File> {
    let file = File::open(&entry.path).ok()?;
    let meta = file.metadata().ok()?;
    entry.is_current(&meta).then_some(file)
}
