//! The output contract: what a built site is, for everything that reads one. The build writes
//! it; `serve`, `deploy` and `dev` read it; none of them needs the sources or the content model
//! (this crate does not depend on them).
//!
//! - [`route`]: the path of a page.
//! - [`layout`]: every path the build emits, and the route a page's file belongs to.
//! - [`kind`]: what a file of the output is: its cache policy, Content-Type and upload phase.
//! - [`output`]: which product of a build a file is part of, and a build's changed files.
//! - [`build_info`]: `.stillpoint/build.json`, what the commands that take a built site need.
//! - [`shard`]: which of N shard builds writes an article's pages.

pub mod build_info;
pub mod kind;
pub mod layout;
pub mod output;
pub mod route;
pub mod shard;

pub use build_info::{BuildInfo, BuiltSite, Upcoming};
pub use kind::{Caching, FileKind, Phase};
pub use output::{Changed, Output};
pub use route::Route;
pub use shard::Shard;
