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
    if args.serve_builds {
        return crate::build_server::serve(args, &opts);
    }
    if let Some(env) = crate::env::describe(&args.site, &args.env) {
        tracing::info!("Building {env}");
    }
    let server = crate::build_server::Server::for_build(args, &opts);
    if let Some(reply) = server.as_ref().and_then(|s| s.request()) {
        print(&reply.lines);
        return Ok(if reply.ok { ExitCode::SUCCESS } else { ExitCode::FAILURE });
    }
    let bar = Bar(ProgressBar::new(0));
    let built = stillpoint_site::build(&opts, &bar);
    let (lines, ok) = outcome(args, &built);
    print(&lines);
    if !ok {
        return Ok(ExitCode::FAILURE);
    }
    if let Some(server) = &server {
        server.start();
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
        Err(e) => {
            print(&failed(args, &e));
            Ok(ExitCode::FAILURE)
        }
    }
}

/// A line of what a build says: logged at info or warn, or text written to stderr as it is.
/// A build server makes them and the command that asked for the build prints them.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Line {
    Info(String),
    Warn(String),
    Text(String),
}

pub fn print(lines: &[Line]) {
    for line in lines {
        match line {
            Line::Info(text) => tracing::info!("{text}"),
            Line::Warn(text) => tracing::warn!("{text}"),
            Line::Text(text) => eprint!("{text}"),
        }
    }
}

/// What a build says, and whether it succeeded.
pub fn outcome(args: &BuildArgs, built: &Result<BuildReport, BuildError>) -> (Vec<Line>, bool) {
    let r = match built {
        Ok(r) => r,
        Err(e) => return (failed(args, e), false),
    };
    let mut lines = Vec::new();
    if let Some(note) = &r.cache_note {
        lines.push(Line::Info(note.clone()));
    }
    lines.push(Line::Info(match args.shard {
        Some(shard) => format!("{} (shard {shard})", summary(r)),
        None => summary(r),
    }));
    lines.extend(schedule_lines(&r.schedule).into_iter().map(Line::Info));
    for e in &r.draft_problems {
        lines.push(Line::Warn(format!("in a draft (not published): {e}")));
    }
    if !r.warnings.is_empty() {
        lines.push(Line::Text(crate::diagnostics::render_warnings(&args.site, &r.warnings)));
    }
    (lines, true)
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

fn failed(args: &BuildArgs, e: &BuildError) -> Vec<Line> {
    vec![Line::Text(match e {
        BuildError::Content(d) => diagnostics::render(&args.site, d),
        e => format!("error: {e}\nthe previous output in {} is untouched\n", args.out.display()),
    })]
}
