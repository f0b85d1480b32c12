//! One module per subcommand.

pub mod build;
pub mod check;
pub mod deploy;
pub mod serve;
