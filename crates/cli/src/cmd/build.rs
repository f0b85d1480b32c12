//! `stillpoint build SITE --out DIST [--cache DIR | --no-cache] [--verify]`.

use std::process::ExitCode;

use indicatif::{ProgressBar, ProgressStyle};
use stillpoint_site::{BuildError, BuildOptions, BuildReport, Progress, default_cache_dir};

use crate::cli::BuildArgs;
use crate::{diagnostics, settings};

/// A progress bar on stderr; indicatif hides it when stderr is not a terminal.
struct Bar(ProgressBar);

impl Progress for Bar {
    fn start(&self, total: usize) {
        self.0.set_length(total as u64);
        self.0.set_style(
            ProgressStyle::with_template(
                "{spinner} rendering {pos}/{len} pages {wide_bar} {per_sec}",
            )
            .expect("valid template"),
        );
    }
    fn inc(&self) {
        self.0.inc(1);
    }
    fn finish(&self) {
        self.0.finish_and_clear();
    }
}

pub fn options(args: &BuildArgs) -> anyhow::Result<BuildOptions> {
    Ok(BuildOptions {
        site_dir: args.site.clone(),
        out: args.out.clone(),
        web: settings::web_candidates(crate::web_bundle::resolve(args.web.as_deref())?),
        node: args.node.clone(),
        jobs: settings::jobs(args.jobs),
        year: Some(settings::year(args.now)),
        engine: settings::engine(),
        cache: match (&args.cache, args.no_cache) {
            (_, true) => None,
            (Some(dir), false) => Some(dir.clone()),
            // A shard keeps its own cache, so a whole build's is never overwritten by a part.
            (None, false) => Some(match args.shard {
                Some(shard) => default_cache_dir(&args.site).join(shard.cache_dir_name()),
                None => default_cache_dir(&args.site),
            }),
        },
        image_cache: Some(settings::image_cache(args.image_cache.as_deref(), &args.site)),
        image_cache_max: stillpoint_media::DEFAULT_MAX_BYTES,
        shard: args.shard,
        batch: stillpoint_site::BATCH,
        env: args.env.clone(),
        now: args.now,
        drafts: args.drafts,
    })
}

pub fn run(args: &BuildArgs) -> anyhow::Result<ExitCode> {
    let opts = options(args)?;
    if let Some(env) = crate::env::describe(&args.site, &args.env) {
        tracing::info!("Building {env}");
    }
    let bar = Bar(ProgressBar::new(0));
    match stillpoint_site::build(&opts, &bar) {
        Ok(r) => {
            if let Some(note) = &r.cache_note {
                tracing::info!("{note}");
            }
            match args.shard {
                Some(shard) => tracing::info!("{} (shard {shard})", summary(&r)),
                None => tracing::info!("{}", summary(&r)),
            }
            for line in schedule_lines(&r.schedule) {
                tracing::info!("{line}");
            }
            for e in &r.draft_problems {
                tracing::warn!("in a draft (not published): {e}");
            }
            if !r.warnings.is_empty() {
                eprint!("{}", crate::diagnostics::render_warnings(&args.site, &r.warnings));
            }
        }
        Err(e) => return Ok(failed(args, e)),
    }
    if !args.verify {
        return Ok(ExitCode::SUCCESS);
    }
    match stillpoint_site::verify(&opts, &Bar(ProgressBar::new(0))) {
        Ok(diffs) if diffs.is_empty() => {
            tracing::info!("Verified: the output equals a clean build, file for file");
            Ok(ExitCode::SUCCESS)
        }
        Ok(diffs) => {
            eprintln!("error: {} file(s) differ from a clean build:", diffs.len());
            for d in &diffs {
                eprintln!("  {d}");
            }
            Ok(ExitCode::FAILURE)
        }
        Err(e) => Ok(failed(args, e)),
    }
}

/// `Built 13528 pages (10000 articles) in 0.31 s: rendered 1, 2 files changed, 0 removed, 28291 unchanged → dist`
pub fn summary(r: &BuildReport) -> String {
    format!(
        "Built {} pages ({} articles) in {:.2} s: rendered {}, {} file{} changed, {} removed, {} unchanged → {}",
        r.pages,
        r.articles,
        r.seconds,
        r.rendered,
        r.files.changed,
        if r.files.changed == 1 { "" } else { "s" },
        r.files.removed,
        r.files.unchanged,
        r.out.display()
    )
}

/// What the publication rules left out, the next scheduled article and a preview's warning.
pub fn schedule_lines(s: &stillpoint_content::Schedule) -> Vec<String> {
    let mut lines = Vec::new();
    if s.preview {
        lines.push(
            "preview: drafts are published (--drafts); every page asks robots not to index it, do not deploy it to production"
                .to_string(),
        );
    }
    let mut left = Vec::new();
    for (n, what) in [(s.drafts, "draft"), (s.scheduled, "scheduled"), (s.expired, "expired")] {
        if n > 0 {
            left.push(format!("{n} {what}"));
        }
    }
    if !left.is_empty() {
        lines.push(format!("left out: {}", left.join(", ")));
    }
    if let Some(next) = &s.next {
        lines.push(format!("next scheduled: {} at {}", next.title, next.at));
    }
    if let Some(next) = &s.next_expiry {
        lines.push(format!("next expiry: {} at {}", next.title, next.at));
    }
    lines
}

fn failed(args: &BuildArgs, e: BuildError) -> ExitCode {
    match e {
        BuildError::Content(d) => eprint!("{}", diagnostics::render(&args.site, &d)),
        e => eprintln!("error: {e}\nthe previous output in {} is untouched", args.out.display()),
    }
    ExitCode::FAILURE
}
