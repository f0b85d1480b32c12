//! `stillpoint completions SHELL` and `stillpoint man [--dir DIR]`: generated from the same clap
//! definitions as the command line itself, so they never drift from it.

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context as _;
use clap::{Args, CommandFactory};
use clap_complete::Shell;

use crate::cli::Cli;

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to complete for. Bash: `stillpoint completions bash >
    /// ~/.local/share/bash-completion/completions/stillpoint`; zsh: into a directory of `$fpath`
    /// as `_stillpoint`; fish: `~/.config/fish/completions/stillpoint.fish`.
    #[arg(value_enum)]
    pub shell: Shell,
}

#[derive(Debug, Args)]
pub struct ManArgs {
    /// Write `stillpoint.1` and one page per subcommand (`stillpoint-build.1`, …) into DIR
    /// instead of printing `stillpoint.1` on stdout.
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

pub fn completions(args: &CompletionsArgs) -> anyhow::Result<ExitCode> {
    let mut cmd = Cli::command();
    clap_complete::generate(args.shell, &mut cmd, "stillpoint", &mut std::io::stdout().lock());
    Ok(ExitCode::SUCCESS)
}

pub fn man(args: &ManArgs) -> anyhow::Result<ExitCode> {
    let cmd = Cli::command();
    match &args.dir {
        None => {
            let mut out = std::io::stdout().lock();
            clap_mangen::Man::new(cmd).render(&mut out)?;
            out.flush()?;
        }
        Some(dir) => {
            std::fs::create_dir_all(dir).with_context(|| format!("{}", dir.display()))?;
            clap_mangen::generate_to(cmd, dir).with_context(|| format!("{}", dir.display()))?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
