//! Answering a request from a cached file: coding choice, conditional requests in RFC 9110's
//! order (§13.2.2: `If-Match`, else `If-Unmodified-Since`, `412` when false; then
//! `If-None-Match`, else `If-Modified-Since`, `304`; then `If-Range`, which lets a `Range`
//! apply only to the version the client already has), a single byte range, HEAD. Only header
//! values and `Bytes` handles are cloned: no copy of a body.

use std::io::SeekFrom;

use axum::{body::Body, response::Response};
use bytes::Bytes;
use http::{HeaderMap, HeaderValue, StatusCode, header};
use tokio::io::{AsyncReadExt, AsyncSeekExt};

use crate::{
    encoding::{self, Coding},
    file_cache::{Entry, Variant},
    preconditions,
};

/// The entry's file was replaced after it was cached (only seen for files streamed from disk).
#[derive(Debug)]
pub(crate) struct Stale;

const VARY: HeaderValue = HeaderValue::from_static("accept-encoding");
const BYTES: HeaderValue = HeaderValue::from_static("bytes");

pub(crate) async fn respond(
    entry: &Entry,
    request: &HeaderMap,
    head: bool,
) -> Result<Response, Stale> {
    let value = |name| request.get(name).map(HeaderValue::as_bytes);
    let range = value(header::RANGE)
        .filter(|_| preconditions::if_range(entry, value(header::IF_RANGE)))
        .and_then(|r| parse_range(r, entry.identity.len));
    let coding = if range.is_some() {
        Coding::Identity
    } else {
        let accepted =
            encoding::accepted(request.get(header::ACCEPT_ENCODING).map(|v| v.as_bytes()));
        entry.coding(accepted)
    };
    let variant = entry.variant(coding);
    if !preconditions::hold(
        entry,
        variant,
        value(header::IF_MATCH),
        value(header::IF_UNMODIFIED_SINCE),
    ) {
        return Ok(preconditions::failed());
    }

    let mut response = Response::new(Body::empty());
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, entry.content_type.clone());
    headers.insert(header::CACHE_CONTROL, entry.cache_control.clone());
    headers.insert(header::ETAG, variant.etag.clone());
    headers.insert(header::LAST_MODIFIED, entry.last_modified.clone());
    headers.insert(header::VARY, VARY);
    headers.insert(header::ACCEPT_RANGES, BYTES);
    if not_modified(entry, request) {
        *response.status_mut() = StatusCode::NOT_MODIFIED;
        return Ok(response);
    }
    match coding {
        Coding::Gzip => {
            drop(headers.insert(header::CONTENT_ENCODING, HeaderValue::from_static("gzip")))
        }
        Coding::Br => {
            drop(headers.insert(header::CONTENT_ENCODING, HeaderValue::from_static("br")))
        }
        Coding::Identity => {}
    }
    let (start, end) = match range {
        Some(Ok((start, end))) => {
            let content_range = format!("bytes {start}-{end}/{}", variant.len);
            headers.insert(
                header::CONTENT_RANGE,
                HeaderValue::try_from(content_range).expect("ascii"),
            );
            headers.insert(header::CONTENT_LENGTH, HeaderValue::from(end + 1 - start));
            *response.status_mut() = StatusCode::PARTIAL_CONTENT;
            (start, end + 1)
        }
        Some(Err(())) => {
            let content_range = format!("bytes */{}", variant.len);
            headers.insert(
                header::CONTENT_RANGE,
                HeaderValue::try_from(content_range).expect("ascii"),
            );
            headers.insert(header::CONTENT_LENGTH, HeaderValue::from(0));
            *response.status_mut() = StatusCode::RANGE_NOT_SATISFIABLE;
            return Ok(response);
        }
        None => {
            headers.insert(header::CONTENT_LENGTH, variant.length.clone());
            (0, variant.len)
        }
    };
    if head {
        return Ok(response);
    }
    *response.body_mut() = body(entry, variant, start, end).await?;
    Ok(response)
}

/// The bytes `start..end` of `variant`: a slice of the cached body, or read from the file.
async fn body(entry: &Entry, variant: &Variant, start: u64, end: u64) -> Result<Body, Stale> {
    if let Some(bytes) = &variant.body {
        return Ok(Body::from(slice(bytes, start, end)));
    }
    let mut file = tokio::fs::File::open(&entry.path).await.map_err(|_| Stale)?;
    let meta = file.metadata().await.map_err(|_| Stale)?;
    if !entry.is_same_file(&meta) {
        return Err(Stale);
    }
    file.seek(SeekFrom::Start(start)).await.map_err(|_| Stale)?;
    let stream = tokio_util::io::ReaderStream::with_capacity(file.take(end - start), 64 << 10);
    Ok(Body::from_stream(stream))
}

fn slice(bytes: &Bytes, start: u64, end: u64) -> Bytes {
    if start == 0 && end as usize == bytes.len() {
        bytes.clone()
    } else {
        bytes.slice(start as usize..end as usize)
    }
}

/// If-None-Match (any listed tag naming a representation of the file, or `*`), else
/// If-Modified-Since (the file is not newer, to the second).
fn not_modified(entry: &Entry, request: &HeaderMap) -> bool {
    let value = |name| request.get(name).map(HeaderValue::as_bytes);
    not_modified_by(entry, value(header::IF_NONE_MATCH), value(header::IF_MODIFIED_SINCE))
}

/// [`not_modified`] from the two headers' values.
pub(crate) fn not_modified_by(
    entry: &Entry,
    if_none_match: Option<&[u8]>,
    if_modified_since: Option<&[u8]>,
) -> bool {
    if let Some(tags) = if_none_match {
        return preconditions::any_tag(tags, |tag| entry.has_etag(tag));
    }
    preconditions::date(if_modified_since)
        .is_some_and(|since| preconditions::modified_secs(entry) <= since)
}

/// One `bytes=` range of a `len`-byte body: `Some(Ok((first, last)))` inclusive,
/// `Some(Err(()))` unsatisfiable, `None` to ignore the header (malformed or several ranges,
/// which are then answered with the whole body).
fn parse_range(header: &[u8], len: u64) -> Option<Result<(u64, u64), ()>> {
    let spec = std::str::from_utf8(header).ok()?.trim().strip_prefix("bytes=")?;
    if spec.contains(',') {
        return None;
    }
    let (first, last) = spec.split_once('-')?;
    let (first, last) = (first.trim(), last.trim());
    let range = if first.is_empty() {
        let suffix: u64 = last.parse().ok()?;
        if suffix == 0 {
            return Some(Err(()));
        }
        (len.saturating_sub(suffix), len.checked_sub(1)?)
    } else {
        let first: u64 = first.parse().ok()?;
        let last = if last.is_empty() {
            len.saturating_sub(1)
        } else {
            last.parse::<u64>().ok()?.min(len.saturating_sub(1))
        };
        if first >= len || last < first {
            return Some(Err(()));
        }
        (first, last)
    };
    Some(Ok(range))
}

#[cfg(test)]
mod tests {
    use super::parse_range;

    #[test]
    fn ranges() {
        assert_eq!(parse_range(b"bytes=0-9", 100), Some(Ok((0, 9))));
        assert_eq!(parse_range(b"bytes=90-", 100), Some(Ok((90, 99))));
        assert_eq!(parse_range(b"bytes=-10", 100), Some(Ok((90, 99))));
        assert_eq!(parse_range(b"bytes=50-500", 100), Some(Ok((50, 99))));
        assert_eq!(parse_range(b"bytes=100-", 100), Some(Err(())));
        assert_eq!(parse_range(b"bytes=5-1", 100), Some(Err(())));
        assert_eq!(parse_range(b"bytes=0-1,5-6", 100), None);
        assert_eq!(parse_range(b"items=0-1", 100), None);
        assert_eq!(parse_range(b"bytes=x-1", 100), None);
    }
}
