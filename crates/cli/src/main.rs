//! The `stillpoint` binary. `main` calls `run`, the only place that chooses an exit code.

mod build_server;
mod cli;
#[cfg(test)]
mod cli_reference;
mod cmd;
mod dev;
mod diagnostics;
mod env;
mod settings;
mod web_bundle;

use std::process::ExitCode;

use clap::Parser;

/// The allocator: a build makes and drops millions of small strings (props, cards, JSON) on
/// several threads at once, where mimalloc spends a fraction of the system allocator's time
/// (docs/scale.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    init_logging();
    match run() {
        Ok(code) => code,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> anyhow::Result<ExitCode> {
    let cli = cli::Cli::parse();
    use cli::Command::{Build, Check, Deploy, Import};
    // A build server lives long and touches the same memory again, as `dev` does.
    let serves = matches!(&cli.command, Build(args) if args.serve_builds);
    if matches!(cli.command, Build(_) | Check(_) | Import(_) | Deploy(_)) && !serves {
        no_huge_pages();
    }
    match cli.command {
        cli::Command::Build(args) => cmd::build::run(&args),
        cli::Command::Check(args) => cmd::check::run(&args),
        cli::Command::Serve(args) => cmd::serve::run(&args),
        cli::Command::New(args) => cmd::new::run(&args),
        cli::Command::Import(args) => cmd::import::run(&args),
        cli::Command::Dev(args) => dev::run(&args),
        cli::Command::Deploy(args) => cmd::deploy::run(&args),
        cli::Command::Completions(args) => cmd::shell::completions(&args),
        cli::Command::Man(args) => cmd::shell::man(&args),
    }
}

/// Keeps a command that runs once and ends (and the render workers it starts) on small pages.
/// mimalloc asks for transparent huge pages on its arenas, and the kernel then zeroes 2 MiB at
/// the first touch of each: a build that reads its cache and ends within a second or two spends a
/// third of its time there (an edit build at 100,000 articles: 2.7 s with huge pages, 2.1 s
/// without), while a clean build gains about 2 % from them (docs/scale.md). `serve` and `dev`,
/// which live long and touch the same memory again, keep them: `dev` showed a retitle 65 ms
/// later without them.
fn no_huge_pages() {
    #[cfg(target_os = "linux")]
    if let Err(e) = rustix::thread::disable_transparent_huge_pages(true) {
        tracing::debug!("huge pages stay allowed: {e}");
    }
}

/// Logs go to stderr, filtered by `STILLPOINT_LOG` (default: our messages at info, everything
/// else at warn).
fn init_logging() {
    use tracing_subscriber::EnvFilter;
    let filter = EnvFilter::try_from_env("STILLPOINT_LOG").unwrap_or_else(|_| {
        EnvFilter::new("warn,stillpoint=info,stillpoint_server=info,symphonia_core=error")
    });
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .without_time()
        .with_target(false)
        .with_level(false)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .init();
}
