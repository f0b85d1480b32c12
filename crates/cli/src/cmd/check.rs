//! `stillpoint check SITE [--format human|json|github] [--deny-warnings]`: a CI gate.
//!
//! Errors fail the check (exit 1); warnings are reported apart and fail it only with
//! `--deny-warnings`. `--format json` prints one JSON document on stdout.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, ValueEnum};
use stillpoint_content::{
    Acceptance, Diagnostics, ParsedArticles, build_catalog, content_warnings,
    load_site_partial_with,
};
use stillpoint_site::BuildError;

use crate::diagnostics;

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// The site directory.
    pub site: PathBuf,
    /// `human`: errors and warnings on stderr with their source line; `json`: one document on
    /// stdout, `{"ok", "errors": [..], "warnings": [..], "accepted": N}`, each with file, line, column, kind,
    /// message and hint; `github`: GitHub Actions workflow commands on stdout (one annotation
    /// per problem, on its file and line below SITE), and the human report on stderr.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
    /// Fail (exit 1) when there are warnings, too.
    #[arg(long)]
    pub deny_warnings: bool,
    /// Check the site as `build --env NAME` would build it (the environment must exist).
    #[arg(long, value_name = "NAME", env = "STILLPOINT_ENV", default_value = "production")]
    pub env: String,
    /// Check the site as published at this instant (RFC 3339) instead of the clock.
    #[arg(long, value_name = "RFC3339")]
    pub now: Option<jiff::Timestamp>,
    /// Check drafts as published articles: their errors are errors, not warnings.
    #[arg(long)]
    pub drafts: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Human,
    Json,
    Github,
}

pub fn run(args: &CheckArgs) -> anyhow::Result<ExitCode> {
    let publish = stillpoint_content::Publish {
        now: args.now.unwrap_or_else(jiff::Timestamp::now),
        drafts: args.drafts,
    };
    // One parse of each article for both loads: the check's and the warnings' (reports' below).
    let mut parsed = ParsedArticles::default();
    let (report, errors) =
        match stillpoint_site::check(&args.site, &args.env, &mut parsed, &publish) {
            Ok(r) => (Some(r), Diagnostics::default()),
            Err(BuildError::Content(d)) => (None, d),
            Err(e) => return Err(e.into()),
        };
    // Warnings the site accepts on purpose are counted, not listed, and never fail the check.
    let (warnings, accepted) = match load_site_partial_with(&args.site, &mut parsed, &publish) {
        (Some(site), _) => {
            let mut all = content_warnings(&site, &build_catalog(&site));
            all.extend(stillpoint_site::policy_warnings(&site));
            all.extend(report.iter().flat_map(|r| r.warnings.iter().cloned()));
            let n = all.len();
            let acceptance = Acceptance::of(&site);
            let shown: Vec<_> = all.into_iter().filter(|w| !acceptance.accepts(w)).collect();
            let accepted = n - shown.len();
            (shown, accepted)
        }
        (None, _) => (Vec::new(), 0),
    };
    let ok = errors.is_empty() && (warnings.is_empty() || !args.deny_warnings);
    match args.format {
        Format::Json => {
            println!("{:#}", diagnostics::json(ok, &errors, &warnings, accepted));
        }
        Format::Human | Format::Github => {
            if args.format == Format::Github {
                print!("{}", diagnostics::github(&args.site, &errors, &warnings));
            }
            // Errors first and alone: warnings are listed once the errors are fixed.
            if !errors.is_empty() {
                eprint!("{}", diagnostics::render(&args.site, &errors));
                if !warnings.is_empty() {
                    let n = warnings.len();
                    eprintln!(
                        "{n} content warning{} not shown until the errors are fixed (all of them: --format json)",
                        if n == 1 { "" } else { "s" }
                    );
                }
            } else if !warnings.is_empty() {
                eprint!("{}", diagnostics::render_warnings(&args.site, &warnings));
                if args.deny_warnings {
                    eprintln!("warnings are errors here (--deny-warnings)");
                }
            }
            if accepted > 0 && errors.is_empty() {
                eprintln!("{}", diagnostics::accepted_line(accepted));
            }
            if let Some(r) = report.filter(|_| ok) {
                tracing::info!(
                    "{}: no {} found ({}, {}, {})",
                    args.site.display(),
                    if warnings.is_empty() { "problems" } else { "errors" },
                    count(r.articles, "article"),
                    count(r.authors, "author"),
                    count(r.pages, "page")
                );
            }
        }
    }
    Ok(if ok { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}

/// `1 article`, `3 articles`.
fn count(n: usize, noun: &str) -> String {
    format!("{n} {noun}{}", if n == 1 { "" } else { "s" })
}
