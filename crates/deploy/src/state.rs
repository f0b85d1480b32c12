//! What the bucket holds, and which of it this deploy may delete. The manifest is trusted when
//! its record of the last file a deploy uploads matches that object (one HEAD); otherwise the
//! bucket is listed. Either way, only objects a manifest of this site recorded may be deleted
//! (every listed object with `--prune`), and a bucket whose manifest names another site is
//! refused unless `--force`.

use std::collections::BTreeSet;

use futures::{StreamExt, TryStreamExt};

use crate::DeployError;
use crate::local::LocalFile;
use crate::manifest::{Entry, Manifest, Record, Superseded};
use crate::plan::Remote;
use crate::remote::{Bucket, Source};

/// How to read the bucket.
pub struct Read<'a> {
    /// The site being deployed: the manifest must be this site's.
    pub site: &'a str,
    /// List the bucket even when its manifest looks right.
    pub verify: bool,
    /// Objects no manifest of this site recorded may be deleted too.
    pub prune: bool,
    /// Deploy over another site's manifest (ignoring what it recorded).
    pub force: bool,
    pub concurrency: usize,
}

/// Reads the manifest and decides whose it is: `Ok(None)` when there is none of this site (no
/// manifest, one that names no site, or, with `force`, another site's).
async fn own_manifest(
    bucket: &Bucket,
    read: &Read<'_>,
) -> Result<Option<(Vec<u8>, Record)>, DeployError> {
    let Some(bytes) = bucket.get_manifest().await? else { return Ok(None) };
    let Some(record) = Record::parse(&bytes) else { return Ok(None) };
    match &record.site {
        Some(site) if site == read.site => Ok(Some((bytes, record))),
        Some(found) if !read.force => Err(DeployError::OtherSite {
            bucket: bucket.target.to_string(),
            endpoint: bucket.endpoint.clone(),
            found: found.clone(),
            site: read.site.to_string(),
        }),
        _ => Ok(None),
    }
}

/// What the bucket holds. With a trusted manifest, what it records; otherwise (and with
/// `verify` or `prune`) every object is
/// listed, and objects whose size and MD5 ETag match the local file (`md5_of` digests it) are
/// HEADed for their headers. Listed objects the manifest of this site did not record are
/// `unrecorded` (never deleted) unless `prune`.
pub async fn state(
    bucket: &Bucket,
    local: &mut [LocalFile],
    md5_of: &(dyn Fn(&LocalFile) -> Result<Option<String>, DeployError> + Sync),
    read: &Read<'_>,
) -> Result<(Remote, Source), DeployError> {
    let own = own_manifest(bucket, read).await?;
    let manifest = own.as_ref().and_then(|(bytes, _)| Manifest::parse(bytes));
    if let Some(m) = &manifest
        && !read.verify
        && !read.prune
        && manifest_holds(bucket, m).await?
    {
        let remote = Remote {
            files: m.files.clone(),
            superseded: m.superseded.clone(),
            ..Remote::default()
        };
        return Ok((remote, Source::Manifest));
    }
    let recorded: BTreeSet<String> = own.map(|(_, r)| r.paths()).unwrap_or_default();
    let mut listed = bucket.list().await?;
    let mut remote = Remote::default();
    if let Some(m) = manifest {
        for (path, s) in m.superseded {
            if let Some(e) = listed.remove(&path) {
                let entry = Entry { headers: s.entry.headers.clone(), ..e };
                remote.superseded.insert(path, Superseded { entry, ..s });
            }
        }
    }
    for f in local.iter_mut() {
        if listed.get(&f.path).is_some_and(|r| r.size == f.entry.size && r.md5.is_some()) {
            f.entry.md5 = md5_of(f)?;
        }
    }
    let to_head: Vec<&str> = local
        .iter()
        .filter(|f| {
            listed.get(&f.path).is_some_and(|r| r.size == f.entry.size && r.md5 == f.entry.md5)
        })
        .map(|f| f.path.as_str())
        .collect();
    let heads: Vec<_> = futures::stream::iter(to_head)
        .map(|k| async move { bucket.head(k).await.map(|e| (k, e)) })
        .buffer_unordered(read.concurrency)
        .try_collect()
        .await?;
    for (k, e) in heads {
        if let (Some(e), Some(r)) = (e, listed.get_mut(k)) {
            r.headers = e.headers;
        }
    }
    for (path, entry) in listed {
        if read.prune || recorded.contains(&path) {
            remote.files.insert(path, entry);
        } else {
            remote.unrecorded.insert(path, entry);
        }
    }
    Ok((remote, Source::Listing))
}

/// `true` when the manifest's record of `page-data/app-data.json` (else any file) matches the
/// object's ETag and size.
async fn manifest_holds(bucket: &Bucket, m: &Manifest) -> Result<bool, DeployError> {
    let sentinel = m
        .files
        .get_key_value("page-data/app-data.json")
        .filter(|(_, e)| e.etag.is_some())
        .or_else(|| m.files.iter().find(|(_, e)| e.etag.is_some()));
    let Some((key, recorded)) = sentinel else {
        return Ok(m.files.is_empty());
    };
    let now = bucket.head(key).await?;
    Ok(now.is_some_and(|e| e.etag == recorded.etag && e.size == recorded.size))
}
