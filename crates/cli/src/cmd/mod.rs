//! One module per subcommand.

pub mod build;
pub mod check;
pub mod deploy;
pub mod dev;
pub mod import;
pub mod new;
pub mod new_article;
pub mod serve;
pub mod shell;
