//! `stillpoint build SITE --out DIST`.

use std::process::ExitCode;

use indicatif::{ProgressBar, ProgressStyle};
use stillpoint_site::{BuildError, BuildOptions, Progress};

use crate::cli::BuildArgs;
use crate::diagnostics;

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

pub fn run(args: &BuildArgs) -> anyhow::Result<ExitCode> {
    let opts = BuildOptions {
        site_dir: args.site.clone(),
        out: args.out.clone(),
        web: args.web.clone(),
        node: args.node.clone(),
        jobs: args.jobs,
        year: None,
    };
    let bar = Bar(ProgressBar::new(0));
    match stillpoint_site::build(&opts, &bar) {
        Ok(r) => {
            tracing::info!(
                "Built {} pages ({} articles) in {:.2} s, {:.0} pages/s → {}",
                r.pages,
                r.articles,
                r.seconds,
                r.pages as f64 / r.seconds.max(1e-9),
                r.out.display()
            );
            Ok(ExitCode::SUCCESS)
        }
        Err(BuildError::Content(d)) => {
            eprint!("{}", diagnostics::render(&args.site, &d));
            Ok(ExitCode::FAILURE)
        }
        Err(e) => {
            eprintln!("error: {e}\nthe previous output in {} is untouched", args.out.display());
            Ok(ExitCode::FAILURE)
        }
    }
}
