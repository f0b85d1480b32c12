//! The preconditions a download resumes with (RFC 9110 §13.1): `If-Match` and
//! `If-Unmodified-Since` (`412` when false), and `If-Range` (a `Range` applies only when the
//! client's copy is the current version; otherwise the whole file, `200`). Entity tags are
//! compared strongly, dates to the second against the file's `Last-Modified`.

use axum::{body::Body, response::Response};
use http::{HeaderValue, StatusCode, header};

use crate::{
    cache,
    file_cache::{Entry, Variant},
};

/// `If-Match` (any listed tag is `variant`'s, or `*`), else `If-Unmodified-Since` (the file
/// is not newer). An unparseable date is ignored, as the RFC says.
pub(crate) fn hold(
    entry: &Entry,
    variant: &Variant,
    if_match: Option<&[u8]>,
    if_unmodified_since: Option<&[u8]>,
) -> bool {
    if let Some(tags) = if_match {
        return any_tag(tags, |tag| tag == variant.etag.as_bytes());
    }
    date(if_unmodified_since).is_none_or(|since| modified_secs(entry) <= since)
}

/// Whether a `Range` applies: no `If-Range`, or one naming the current identity bytes (ranges
/// are of the identity body) by strong entity tag or by exactly its `Last-Modified` date.
pub(crate) fn if_range(entry: &Entry, if_range: Option<&[u8]>) -> bool {
    let Some(validator) = if_range.map(<[u8]>::trim_ascii) else { return true };
    if validator.starts_with(b"\"") {
        return validator == entry.identity.etag.as_bytes();
    }
    date(Some(validator)).is_some_and(|date| date == modified_secs(entry))
}

/// Whether an entity-tag list (`If-Match`, `If-None-Match`) is `*` or names a tag `matches`
/// accepts.
pub(crate) fn any_tag(list: &[u8], matches: impl Fn(&[u8]) -> bool) -> bool {
    list.trim_ascii() == b"*" || list.split(|&b| b == b',').any(|tag| matches(tag.trim_ascii()))
}

/// `412 Precondition Failed`, without a body.
pub(crate) fn failed() -> Response {
    let mut response = Response::new(Body::empty());
    *response.status_mut() = StatusCode::PRECONDITION_FAILED;
    let headers = response.headers_mut();
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache::NO_CACHE));
    headers.insert(header::CONTENT_LENGTH, HeaderValue::from(0));
    response
}

/// An HTTP date, in seconds since the epoch.
pub(crate) fn date(value: Option<&[u8]>) -> Option<u64> {
    let date = httpdate::parse_http_date(std::str::from_utf8(value?).ok()?).ok()?;
    Some(date.duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs()))
}

/// The file's modification time, in seconds since the epoch (what `Last-Modified` says).
pub(crate) fn modified_secs(entry: &Entry) -> u64 {
    entry.modified.duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs())
}
