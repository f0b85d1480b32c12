//! `stillpoint deploy DIST` or `stillpoint deploy --merge SHARD_DIST...`: publish a built site to
//! its bucket (see docs/deploy.md and, for shards, docs/scale.md).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use stillpoint_content::{DEV, PRODUCTION};
use stillpoint_deploy::{
    ABORT_AFTER_ENV, ABORT_BEFORE_MANIFEST, Abort, DeployError, Dists, Gzip, Options, Report,
    Source, Target, escape,
};

#[derive(Debug, Args)]
#[command(
    override_usage = "stillpoint deploy [OPTIONS] <DIST>\n       stillpoint deploy [OPTIONS] --merge <SHARD_DIST>..."
)]
pub struct DeployArgs {
    /// The built site (a directory, or a symlink to one, holding .stillpoint/build.json).
    #[arg(required_unless_present = "merge", conflicts_with = "merge")]
    pub dist: Option<PathBuf>,
    /// Publish the outputs of `stillpoint build --shard i/N` as one site, instead of DIST: every
    /// shard of one build, each once. Two shards may hold a path only with the same bytes.
    #[arg(long, value_name = "SHARD_DIST", num_args = 1..)]
    pub merge: Vec<PathBuf>,
    /// The environment DIST was built for (`build --env NAME`), whose bucket it goes to; a
    /// build for another environment is refused.
    #[arg(long, value_name = "NAME", env = "STILLPOINT_ENV", default_value = "production")]
    pub env: String,
    /// `--env dev`: a build for the dev environment, to its bucket (`{bucket}-dev` unless
    /// `[env.dev]` names one).
    #[arg(long)]
    pub dev: bool,
    /// Print the plan (uploads, deletions, unchanged files) and change nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Refuse a deploy that would delete more objects than this, site files and expired hashed
    /// files alike.
    #[arg(long, default_value_t = 256)]
    pub max_deletes: usize,
    /// Deploy even when more than --max-deletes objects would be deleted, or when the bucket
    /// holds another site's deploy manifest.
    #[arg(long)]
    pub force: bool,
    /// Also delete objects not in DIST that no deploy manifest of this site recorded (a bucket
    /// without one, or objects put there by other tools); the bucket is listed. Without it such
    /// objects are never deleted.
    #[arg(long)]
    pub prune: bool,
    /// Requests in flight at once.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub concurrency: u16,
    /// The target, `s3://BUCKET[/PREFIX]`, instead of the site's bucket.
    #[arg(long, value_name = "URL")]
    pub to: Option<String>,
    /// Take the bucket from this site directory's stillpoint.toml instead of DIST's build info.
    #[arg(long, value_name = "SITE")]
    pub site: Option<PathBuf>,
    /// Upload files matching this glob (over the path in DIST; `*` also matches `/`) gzip-
    /// compressed with `Content-Encoding: gzip`. Repeatable, e.g. `--gzip '*.html' --gzip '*.js'`.
    #[arg(long, value_name = "GLOB")]
    pub gzip: Vec<String>,
    /// List the whole bucket and compare, even when its manifest looks right.
    #[arg(long)]
    pub verify: bool,
    /// The instant to compare the build's next scheduled article with (RFC 3339) instead of the
    /// clock: one already due means the build is stale (build again to publish it).
    #[arg(long, value_name = "RFC3339")]
    pub now: Option<jiff::Timestamp>,
}

/// The progress bar, the environment deployed when it is not production
/// (`staging (https://staging.example.org)`), and the test hook's stop ([`AbortAt`]).
struct Bar(ProgressBar, Option<String>, Option<AbortAt>);

/// Where [`ABORT_AFTER_ENV`] stops a deploy, as a kill there would (the crash tests).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum AbortAt {
    Uploads(usize),
    BeforeManifest,
}

impl AbortAt {
    /// The stop a value of [`ABORT_AFTER_ENV`] asks for: a count of uploads, or
    /// [`ABORT_BEFORE_MANIFEST`]; anything else none.
    fn parse(value: &str) -> Option<Self> {
        if value == ABORT_BEFORE_MANIFEST {
            Some(Self::BeforeManifest)
        } else {
            value.parse().ok().map(Self::Uploads)
        }
    }

    fn from_env() -> Option<Self> {
        std::env::var(ABORT_AFTER_ENV).ok().as_deref().and_then(Self::parse)
    }
}

/// The exit code of a deploy stopped by [`ABORT_AFTER_ENV`] (`EX_TEMPFAIL`).
const ABORTED: u8 = 75;

impl stillpoint_deploy::Progress for Bar {
    fn planned(&self, r: &Report) {
        let env = self.1.as_ref().map(|e| format!(" for {}", escape(e))).unwrap_or_default();
        println!(
            "Deploying site {}{env} to {} at {} (state from {}): {} files to upload, {} objects to delete",
            escape(&r.site),
            escape(&r.target.to_string()),
            escape(&r.endpoint),
            source(r.source),
            r.plan.uploads.len(),
            r.plan.deletes_total()
        );
    }
    fn start(&self, files: usize, bytes: u64) {
        self.0.set_length(bytes);
        self.0.set_style(
            ProgressStyle::with_template(&format!(
                "{{spinner}} uploading {files} files {{bytes}}/{{total_bytes}} {{wide_bar}} {{bytes_per_sec}}"
            ))
            .expect("valid template"),
        );
    }
    fn inc(&self, bytes: u64) {
        self.0.inc(bytes);
    }
    fn finish(&self) {
        self.0.finish_and_clear();
    }
    fn uploaded(&self, count: usize) -> Result<(), Abort> {
        match self.2 {
            Some(AbortAt::Uploads(n)) if count >= n => {
                Err(Abort(format!("{ABORT_AFTER_ENV}: stopping after {count} uploads")))
            }
            _ => Ok(()),
        }
    }
    fn before_manifest(&self) -> Result<(), Abort> {
        match self.2 {
            Some(AbortAt::BeforeManifest) => {
                Err(Abort(format!("{ABORT_AFTER_ENV}: stopping before the manifest")))
            }
            _ => Ok(()),
        }
    }
}

pub fn run(args: &DeployArgs) -> anyhow::Result<ExitCode> {
    let schedule = match publication(args) {
        Ok(lines) => lines,
        Err(e) => {
            eprintln!("error: {}", escape(&e.to_string()));
            return Ok(ExitCode::FAILURE);
        }
    };
    match deploy(args) {
        Ok(report) => {
            print_report(&report);
            for line in &schedule {
                println!("{}", escape(line));
            }
            let deletes = report.plan.deletes_total();
            if report.dry_run && deletes > args.max_deletes && !args.force {
                println!(
                    "note: {deletes} deletions exceed --max-deletes {}; the deploy would be refused without --force",
                    args.max_deletes
                );
            }
            let unrecorded = report.plan.unrecorded.len();
            if unrecorded > 0 {
                println!(
                    "note: {unrecorded} objects not in DIST were kept: no deploy manifest of site {} recorded them (--prune deletes them)",
                    escape(&report.site)
                );
            }
            Ok(ExitCode::SUCCESS)
        }
        Err(DeployError::Aborted(why)) => {
            eprintln!("{why}");
            Ok(ExitCode::from(ABORTED))
        }
        Err(e) => {
            // Names in messages come from DIST and the bucket: printed escaped, on one line.
            eprintln!("error: {}", escape(&e.to_string()));
            Ok(ExitCode::FAILURE)
        }
    }
}

/// What the build says of its publication: a preview (built with `--drafts`) is refused for
/// production; the next scheduled article is named, with a note when it is already due.
fn publication(args: &DeployArgs) -> Result<Vec<String>, DeployError> {
    let Some(dist) = args.dist.as_ref().or(args.merge.first()) else { return Ok(Vec::new()) };
    let Ok(info) = stillpoint_deploy::build_info(dist) else { return Ok(Vec::new()) };
    if info.preview && !args.dev && args.to.is_none() && !args.force {
        return Err(DeployError::Input(format!(
            "{} is a preview built with --drafts: deploy it with --dev or --to, or build without --drafts (--force deploys it to production anyway)",
            dist.display()
        )));
    }
    let now = args.now.unwrap_or_else(jiff::Timestamp::now);
    let mut lines = Vec::new();
    if let Some(next) = &info.next_scheduled {
        lines.push(format!("next scheduled: {} at {}", next.title, next.at));
        if next.at <= now {
            lines.push(format!(
                "note: {} was due at {}: this build predates it; build again to publish it",
                next.title, next.at
            ));
        }
    }
    Ok(lines)
}

fn deploy(args: &DeployArgs) -> Result<Report, DeployError> {
    // Shards are checked to be one complete set of one site even when --site names the bucket.
    let (dists, merged) = match &args.dist {
        Some(dist) => (Dists::one(dist.clone()), None),
        None => (
            Dists::merge(args.merge.clone()),
            Some(stillpoint_deploy::merge::shard_set(&args.merge)?),
        ),
    };
    let env = env_name(args)?;
    let built = match (&merged, &args.dist) {
        (Some(info), _) => info.clone(),
        (None, Some(dist)) => stillpoint_deploy::build_info(dist)?,
        (None, None) => unreachable!("clap requires DIST or --merge"),
    };
    if built.env != env {
        let flag =
            if built.env == PRODUCTION { String::new() } else { format!(" --env {}", built.env) };
        return Err(DeployError::Input(format!(
            "the site was built for {}, not {env}: deploy it with `stillpoint deploy{flag}`, or build it with `--env {env}`",
            built.env
        )));
    }
    let (site, bucket, url) = match &args.site {
        Some(dir) => {
            let path = dir.join("stillpoint.toml");
            let text =
                std::fs::read_to_string(&path).map_err(|e| DeployError::Io(path.clone(), e))?;
            let config = stillpoint_content::SiteConfig::parse(&path, &text).map_err(|errs| {
                let first = errs.first().map(|e| e.to_string()).unwrap_or_default();
                DeployError::Input(format!("{}: {first}", path.display()))
            })?;
            let config = config
                .for_env(&env)
                .map_err(|e| DeployError::Input(format!("{}: {e}", path.display())))?;
            (config.id, config.bucket, config.url)
        }
        None => (built.site.id, built.site.bucket, built.site.url),
    };
    let target = match &args.to {
        Some(url) => Target::parse(url)?,
        None => Target { bucket, prefix: String::new() },
    };
    let opts = Options {
        dists,
        target,
        site,
        dry_run: args.dry_run,
        max_deletes: args.max_deletes,
        force: args.force,
        prune: args.prune,
        concurrency: usize::from(args.concurrency),
        gzip: Gzip::new(&args.gzip)?,
        verify: args.verify,
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| DeployError::Input(format!("cannot start the runtime: {e}")))?;
    let label = (env != PRODUCTION).then(|| crate::env::label(&env, &url));
    let bar = Bar(ProgressBar::new(0), label, AbortAt::from_env());
    runtime.block_on(stillpoint_deploy::deploy(&opts, &bar))
}

/// The environment named by `--env` (or `STILLPOINT_ENV`), or `dev` with `--dev`.
fn env_name(args: &DeployArgs) -> Result<String, DeployError> {
    match (args.dev, args.env.as_str()) {
        (false, env) => Ok(env.to_string()),
        (true, PRODUCTION | DEV) => Ok(DEV.to_string()),
        (true, env) => Err(DeployError::Input(format!(
            "--dev means --env dev, but the environment is also given as {env} (--env or STILLPOINT_ENV)"
        ))),
    }
}

fn mb(bytes: u64) -> String {
    format!("{:.2} MB", bytes as f64 / 1e6)
}

fn source(s: Source) -> &'static str {
    match s {
        Source::Manifest => "manifest",
        Source::Listing => "listing",
    }
}

fn print_report(r: &Report) {
    let p = &r.plan;
    if r.dry_run {
        println!(
            "Plan for {} at {} (site {}, state from {}):",
            escape(&r.target.to_string()),
            escape(&r.endpoint),
            escape(&r.site),
            source(r.source)
        );
        for f in &p.uploads {
            println!("  upload  {} ({} bytes)", escape(&f.path), f.entry.size);
        }
        for k in &p.deletes {
            println!("  delete  {}", escape(k));
        }
        for k in &p.expired {
            println!("  delete  {} (superseded by the previous deploy)", escape(k));
        }
        for k in p.superseded.keys() {
            println!("  keep    {} (superseded; deleted by the next deploy)", escape(k));
        }
        for k in &p.unrecorded {
            println!("  keep    {} (not recorded by a deploy manifest of this site)", escape(k));
        }
        println!(
            "dry run: would upload {} files ({}), delete {}, keep {} unchanged ({}); nothing changed",
            p.uploads.len(),
            mb(p.upload_bytes),
            p.deletes_total(),
            p.unchanged,
            mb(p.unchanged_bytes)
        );
        return;
    }
    println!(
        "Deployed to {}: uploaded {} files ({}), deleted {}, unchanged {}, {} requests, {:.2} s",
        escape(&r.target.to_string()),
        p.uploads.len(),
        mb(p.upload_bytes),
        p.deletes_total(),
        p.unchanged,
        r.requests,
        r.seconds
    );
}

#[cfg(test)]
mod tests {
    use stillpoint_deploy::Progress as _;

    use super::*;

    #[test]
    fn the_abort_hook_stops_where_its_value_says() {
        assert_eq!(AbortAt::parse("3"), Some(AbortAt::Uploads(3)));
        assert_eq!(AbortAt::parse(ABORT_BEFORE_MANIFEST), Some(AbortAt::BeforeManifest));
        assert_eq!(AbortAt::parse("soon"), None);
        let bar = Bar(ProgressBar::hidden(), None, AbortAt::parse("3"));
        assert!(bar.uploaded(2).is_ok() && bar.before_manifest().is_ok());
        let stop = bar.uploaded(3).unwrap_err();
        assert_eq!(stop.0, format!("{ABORT_AFTER_ENV}: stopping after 3 uploads"));
        let bar = Bar(ProgressBar::hidden(), None, Some(AbortAt::BeforeManifest));
        assert!(bar.uploaded(100).is_ok() && bar.before_manifest().is_err());
        let bar = Bar(ProgressBar::hidden(), None, None);
        assert!(bar.uploaded(100).is_ok() && bar.before_manifest().is_ok());
    }
}
