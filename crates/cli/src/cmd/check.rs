//! `stillpoint check SITE`.

use std::process::ExitCode;

use stillpoint_site::BuildError;

use crate::cli::CheckArgs;
use crate::diagnostics;

pub fn run(args: &CheckArgs) -> anyhow::Result<ExitCode> {
    match stillpoint_site::check(&args.site) {
        Ok(r) => {
            tracing::info!(
                "{}: no problems found ({} articles, {} authors, {} pages)",
                args.site.display(),
                r.articles,
                r.authors,
                r.pages
            );
            Ok(ExitCode::SUCCESS)
        }
        Err(BuildError::Content(d)) => {
            eprint!("{}", diagnostics::render(&args.site, &d));
            Ok(ExitCode::FAILURE)
        }
        Err(e) => Err(e.into()),
    }
}
