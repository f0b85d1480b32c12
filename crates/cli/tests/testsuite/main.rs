//! Integration tests of the `stillpoint` binary: each module is one feature, run against
//! fixture sites copied into a temporary directory.

mod batches;
mod build;
mod check;
mod check_accept;
mod check_ci;
mod demo;
mod demo_content;
mod deploy;
mod deploy_env;
mod deploy_merge;
mod deploy_names;
mod deploy_ownership;
mod deploy_redirects;
mod dev;
mod env;
mod home_copy;
mod import_hugo;
mod incremental;
mod incremental_prop;
mod lean_output;
mod markdown_html;
mod new;
mod new_starter;
mod pages_links;
mod policy;
mod publishing;
mod redirects;
mod s3;
mod self_contained;
mod serve;
mod shard;
mod special_files;
mod theme;
mod util;
