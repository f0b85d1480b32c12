//! What the bucket holds, and which of it this deploy may delete. The manifest is trusted when
//! its record of the last file a deploy uploads matches that object (one HEAD); otherwise the
//! bucket is listed. Either way, only objects a manifest of this site recorded may be deleted
//! (every listed object with `--prune`), and a bucket whose manifest names another site is
//! refused unless `--force`.

use std::collections::{BTreeMap, BTreeSet};

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
    match whose(&record, read.site, read.force) {
        Ok(true) => Ok(Some((bytes, record))),
        Ok(false) => Ok(None),
        Err(found) => Err(DeployError::OtherSite {
            bucket: bucket.target.to_string(),
            endpoint: bucket.endpoint.clone(),
            found: found.to_string(),
            site: read.site.to_string(),
        }),
    }
}

/// Whether a manifest with this record is `site`'s: `Ok(true)` when it names `site`, `Ok(false)`
/// when it names none (or, with `force`, another), `Err` with the other site's name otherwise.
pub fn whose<'r>(record: &'r Record, site: &str, force: bool) -> Result<bool, &'r str> {
    match &record.site {
        Some(named) if named == site => Ok(true),
        Some(found) if !force => Err(found),
        _ => Ok(false),
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
    let mut remote =
        Remote { superseded: take_superseded(&mut listed, manifest.as_ref()), ..Remote::default() };
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
    sort_listed(&mut remote, listed, &recorded, read.prune);
    Ok((remote, Source::Listing))
}

/// The listed objects the manifest records as superseded, taken out of `listed`, with the
/// manifest's record of when and with which headers.
pub fn take_superseded(
    listed: &mut BTreeMap<String, Entry>,
    manifest: Option<&Manifest>,
) -> BTreeMap<String, Superseded> {
    let mut superseded = BTreeMap::new();
    for (path, s) in manifest.map(|m| &m.superseded).into_iter().flatten() {
        if let Some(e) = listed.remove(path) {
            let entry = Entry { headers: s.entry.headers.clone(), ..e };
            superseded.insert(path.clone(), Superseded { entry, since: s.since.clone() });
        }
    }
    superseded
}

/// Files the rest of the listing: an object a manifest of this site `recorded` (any, with
/// `prune`) is a site file, which the plan may delete; every other one is `unrecorded`.
pub fn sort_listed(
    remote: &mut Remote,
    listed: BTreeMap<String, Entry>,
    recorded: &BTreeSet<String>,
    prune: bool,
) {
    for (path, entry) in listed {
        if prune || recorded.contains(&path) {
            remote.files.insert(path, entry);
        } else {
            remote.unrecorded.insert(path, entry);
        }
    }
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
