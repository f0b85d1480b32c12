//! Carrying out a deploy: read the bucket, plan, upload phase by phase, write the manifest
//! naming what goes, delete, write the manifest. A deploy stopped at any point leaves every file
//! the published pages reference in place, and a manifest that is either the previous deploy's or
//! one the next deploy does not trust (it lists the bucket); running it again completes it.

use std::path::Path;
use std::time::Instant;

use futures::StreamExt;

use crate::DeployError;
use crate::kind::Phase;
use crate::local::{self, Gzip, LocalFile};
use crate::manifest::{FORMAT, MANIFEST_KEY, Manifest};
use crate::merge::Dists;
use crate::plan::{self, Plan};
use crate::remote::{Bucket, Source, Target};
use crate::state::{self, Read};

/// Test hook, read by the CLI (never by this library): stop the deploy abruptly after this many
/// uploads, as a kill would, or with [`ABORT_BEFORE_MANIFEST`] after the deletions, before the
/// manifest is written. The CLI stops through [`Progress::uploaded`] and
/// [`Progress::before_manifest`], and exits with code 75 on [`DeployError::Aborted`].
pub const ABORT_AFTER_ENV: &str = "STILLPOINT_DEPLOY_ABORT_AFTER";
/// The [`ABORT_AFTER_ENV`] value that stops a deploy after its deletions.
pub const ABORT_BEFORE_MANIFEST: &str = "deletes";

/// Why the caller stopped a deploy from its [`Progress`] hook; the deploy returns it as
/// [`DeployError::Aborted`] at once, leaving the bucket as a kill at that point would.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Abort(pub String);

pub struct Options {
    /// The built site, or the shards merged into one (`deploy --merge`).
    pub dists: Dists,
    pub target: Target,
    /// The site id recorded in the manifest; a bucket whose manifest names another is refused.
    pub site: String,
    pub dry_run: bool,
    /// Refuse a plan that deletes more objects than this (of any kind).
    pub max_deletes: usize,
    /// Deploy over `max_deletes`, and over another site's manifest.
    pub force: bool,
    /// Delete objects not in DIST even when no manifest of this site recorded them.
    pub prune: bool,
    pub concurrency: usize,
    pub gzip: Gzip,
    /// List the bucket even when its manifest looks right.
    pub verify: bool,
}

/// What a deploy is about to do, and its upload progress, in bytes.
pub trait Progress: Sync {
    /// The plan, before any change to the bucket (not called for a dry run).
    fn planned(&self, report: &Report);
    fn start(&self, files: usize, bytes: u64);
    fn inc(&self, bytes: u64);
    fn finish(&self);
    /// Told the number of files uploaded so far, after each upload; an `Err` stops the deploy.
    fn uploaded(&self, _count: usize) -> Result<(), Abort> {
        Ok(())
    }
    /// Called after the deletions, before the manifest is written; an `Err` stops the deploy.
    fn before_manifest(&self) -> Result<(), Abort> {
        Ok(())
    }
}

/// What a deploy did (or, with `--dry-run`, would do).
#[derive(Debug)]
pub struct Report {
    pub site: String,
    pub target: Target,
    pub endpoint: String,
    pub source: Source,
    pub plan: Plan,
    pub requests: u64,
    pub seconds: f64,
    pub dry_run: bool,
}

pub async fn deploy(opts: &Options, progress: &dyn Progress) -> Result<Report, DeployError> {
    let started = Instant::now();
    let bucket = Bucket::open(opts.target.clone())?;
    let (mut dists, gzip) = (opts.dists.clone(), opts.gzip.clone());
    let (mut local, dists) =
        tokio::task::spawn_blocking(move || dists.scan(&gzip).map(|files| (files, dists)))
            .await
            .expect("scan does not panic")?;
    tracing::debug!("scanned {} files in {:.2} s", local.len(), started.elapsed().as_secs_f64());
    let concurrency = opts.concurrency.max(1);
    let md5_of = |f: &LocalFile| {
        local::digest(dists.root_of(&f.path), &f.path, &opts.gzip, true).map(|(d, _)| d.entry.md5)
    };
    let read = Read {
        site: &opts.site,
        verify: opts.verify,
        prune: opts.prune,
        force: opts.force,
        concurrency,
    };
    let (remote, source) = state::state(&bucket, &mut local, &md5_of, &read).await?;
    tracing::debug!("read the bucket's state at {:.2} s", started.elapsed().as_secs_f64());
    let now = jiff::Timestamp::now().to_string();
    let mut plan = plan::plan(&local, &remote, &now);
    let report = |plan, bucket: &Bucket| Report {
        site: opts.site.clone(),
        target: opts.target.clone(),
        endpoint: bucket.endpoint.clone(),
        source,
        plan,
        requests: bucket.requests(),
        seconds: started.elapsed().as_secs_f64(),
        dry_run: opts.dry_run,
    };
    // A dry run shows the plan even when a deploy would refuse it (the CLI says so).
    if opts.dry_run {
        return Ok(report(plan, &bucket));
    }
    // The site, bucket and endpoint are named before anything happens, a refusal included.
    progress.planned(&report(plan.clone(), &bucket));
    plan.check_deletes(opts.max_deletes, opts.force)?;
    let nothing_to_do = plan.uploads.is_empty() && plan.deletes_total() == 0;
    if nothing_to_do && source == Source::Manifest && remote.superseded == plan.superseded {
        return Ok(report(plan, &bucket));
    }

    progress.start(plan.uploads.len(), plan.upload_bytes);
    let mut uploaded = 0usize;
    for phase in [Phase::Hashed, Phase::Content, Phase::Entry] {
        let files: Vec<&LocalFile> = plan.uploads.iter().filter(|f| f.phase == phase).collect();
        let mut results = futures::stream::iter(files)
            .map(|f| upload(&bucket, dists.root_of(&f.path), &opts.gzip, f))
            .buffer_unordered(concurrency);
        let mut etags = Vec::new();
        while let Some(r) = results.next().await {
            let (path, size, etag) = r?;
            progress.inc(size);
            etags.push((path, etag));
            uploaded += 1;
            progress.uploaded(uploaded)?;
        }
        drop(results);
        for (path, etag) in etags {
            if let Some(e) = plan.files.get_mut(&path) {
                e.etag = etag;
            }
        }
    }
    progress.finish();

    let doomed: Vec<&String> = plan.deletes.iter().chain(&plan.expired).collect();
    let mut manifest = Manifest {
        format: FORMAT,
        engine: env!("CARGO_PKG_VERSION").into(),
        site: opts.site.clone(),
        deployed_at: now,
        files: plan.files.clone(),
        superseded: plan.superseded.clone(),
        deleting: doomed.iter().map(|k| (*k).clone()).collect(),
    };
    let headers = crate::manifest::Headers {
        content_type: "application/json".into(),
        cache_control: "no-store".into(),
        content_encoding: None,
        redirect: None,
    };
    // Before deleting, the manifest names what goes: stopped in between, the bucket keeps a
    // manifest that owns those objects but is not trusted to say which are left.
    if !doomed.is_empty() {
        bucket.put(MANIFEST_KEY, manifest.to_json(), &headers).await?;
    }
    let mut results =
        futures::stream::iter(doomed).map(|k| bucket.delete(k)).buffer_unordered(concurrency);
    while let Some(r) = results.next().await {
        r?;
    }
    drop(results);
    progress.before_manifest()?;

    manifest.deleting.clear();
    bucket.put(MANIFEST_KEY, manifest.to_json(), &headers).await?;
    Ok(report(plan, &bucket))
}

/// Reads the file again (through DIST), checks it is what was planned, and uploads it.
async fn upload(
    bucket: &Bucket,
    dist: &Path,
    gzip: &Gzip,
    f: &LocalFile,
) -> Result<(String, u64, Option<String>), DeployError> {
    let (dist, gzip, key) = (dist.to_path_buf(), gzip.clone(), f.path.clone());
    let (now, bytes) =
        tokio::task::spawn_blocking(move || local::digest(&dist, &key, &gzip, false))
            .await
            .expect("digest does not panic")?;
    if now.entry.sha256 != f.entry.sha256 {
        return Err(DeployError::DistChanged(f.path.clone()));
    }
    let headers = f.headers();
    let etag = match &headers.redirect {
        Some(to) => bucket.put_redirect(&f.path, bytes, headers, to).await?,
        None => bucket.put(&f.path, bytes, headers).await?,
    };
    Ok((f.path.clone(), f.entry.size, etag))
}
