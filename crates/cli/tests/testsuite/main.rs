//! Integration tests of the `stillpoint` binary: each module is one feature, run against
//! fixture sites copied into a temporary directory.

mod build;
mod check;
mod demo;
mod demo_content;
mod deploy;
mod s3;
mod util;
