//! `docs/cli.md`, generated from the clap command tree, and the test that keeps it current:
//! `UPDATE_DOCS=1 cargo test -p stillpoint cli_reference` rewrites it.

use std::fmt::Write as _;

use clap::{Arg, Command, CommandFactory};

use crate::cli::Cli;

/// The whole reference: the program, then one section per subcommand, in declaration order.
pub fn markdown() -> String {
    let mut root = Cli::command();
    root.build();
    let mut out = String::new();
    let _ = writeln!(out, "# Command-line reference\n");
    let _ = writeln!(
        out,
        "<!-- Generated from the clap definitions in crates/cli/src. Do not edit: run\n     `UPDATE_DOCS=1 cargo test -p stillpoint cli_reference`. -->\n"
    );
    if let Some(about) = root.get_about() {
        let _ = writeln!(out, "{about}\n");
    }
    let _ = writeln!(out, "```text\n{}\n```\n", usage(&mut root));
    let subs: Vec<String> = commands(&root).map(|c| c.get_name().to_string()).collect();
    for name in &subs {
        let _ = writeln!(out, "- [`stillpoint {name}`](#stillpoint-{name})");
    }
    let _ = writeln!(out);
    write_args(&mut out, &root);
    for name in subs {
        let sub = root.find_subcommand_mut(&name).expect("listed above");
        let _ = writeln!(out, "## stillpoint {name}\n");
        if let Some(about) = sub.get_long_about().or(sub.get_about()) {
            let _ = writeln!(out, "{about}\n");
        }
        let _ = writeln!(out, "```text\n{}\n```\n", usage(sub));
        write_args(&mut out, sub);
        // Commands of a command (`import hugo`), one section each.
        let nested: Vec<String> = commands(sub).map(|c| c.get_name().to_string()).collect();
        for inner in nested {
            let cmd = sub.find_subcommand_mut(&inner).expect("listed above");
            let _ = writeln!(out, "## stillpoint {name} {inner}\n");
            if let Some(about) = cmd.get_long_about().or(cmd.get_about()) {
                let _ = writeln!(out, "{about}\n");
            }
            let _ = writeln!(out, "```text\n{}\n```\n", usage(cmd));
            write_args(&mut out, cmd);
        }
    }
    out.trim_end().to_string() + "\n"
}

fn commands(cmd: &Command) -> impl Iterator<Item = &Command> {
    cmd.get_subcommands().filter(|c| c.get_name() != "help" && !c.is_hide_set())
}

fn usage(cmd: &mut Command) -> String {
    let usage = cmd.render_usage().to_string();
    usage.strip_prefix("Usage: ").unwrap_or(&usage).to_string()
}

fn write_args(out: &mut String, cmd: &Command) {
    let args: Vec<&Arg> = cmd.get_arguments().filter(|a| !a.is_hide_set()).collect();
    let (positional, options): (Vec<&Arg>, Vec<&Arg>) =
        args.into_iter().partition(|a| a.is_positional());
    if !positional.is_empty() {
        let _ = writeln!(out, "Arguments:\n");
        for a in positional {
            let name = a
                .get_value_names()
                .and_then(|v| v.first())
                .map_or_else(|| a.get_id().to_string().to_uppercase(), ToString::to_string);
            let _ = writeln!(out, "- `{name}`{}", describe(a));
        }
        let _ = writeln!(out);
    }
    if !options.is_empty() {
        let _ = writeln!(out, "Options:\n");
        for a in options {
            let mut flag = String::new();
            if let Some(s) = a.get_short() {
                let _ = write!(flag, "-{s}, ");
            }
            if let Some(l) = a.get_long() {
                let _ = write!(flag, "--{l}");
            }
            if a.get_action().takes_values() {
                let value = a
                    .get_value_names()
                    .and_then(|v| v.first())
                    .map_or_else(|| a.get_id().to_string().to_uppercase(), ToString::to_string);
                let _ = write!(flag, " <{value}>");
            }
            let _ = writeln!(out, "- `{flag}`{}", describe(a));
        }
        let _ = writeln!(out);
    }
}

/// `: Help. One of `a`, `b`. Default: `x`. Environment: `Y`.`
fn describe(a: &Arg) -> String {
    let mut s = String::new();
    if let Some(help) = a.get_long_help().or(a.get_help()) {
        let help = help.to_string().replace('\n', " ");
        let stop = if help.ends_with(['.', ')', ':']) { "" } else { "." };
        let _ = write!(s, ": {help}{stop}");
    }
    let possible: Vec<String> = a
        .get_possible_values()
        .iter()
        .filter(|v| !v.is_hide_set())
        .map(|v| format!("`{}`", v.get_name()))
        .collect();
    if a.get_action().takes_values() && !possible.is_empty() {
        let _ = write!(s, " One of {}.", possible.join(", "));
    }
    let defaults: Vec<String> =
        a.get_default_values().iter().map(|v| v.to_string_lossy().into_owned()).collect();
    if a.get_action().takes_values() && !defaults.is_empty() {
        let _ = write!(s, " Default: `{}`.", defaults.join(","));
    }
    if let Some(env) = a.get_env() {
        let _ = write!(s, " Environment: `{}`.", env.to_string_lossy());
    }
    s
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    #[test]
    fn cli_reference() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/cli.md");
        let generated = super::markdown();
        if std::env::var_os("UPDATE_DOCS").is_some_and(|v| v == "1") {
            std::fs::write(&path, &generated).unwrap();
            return;
        }
        let current = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            current == generated,
            "docs/cli.md is stale: run `UPDATE_DOCS=1 cargo test -p stillpoint cli_reference`"
        );
    }
}
