//! Fuzz targets of Stillpoint, runnable on stable Rust under `cargo test` (docs/fuzzing.md): the
//! driver (corpus replay, a time budget, failing inputs saved), byte mutations of corpus inputs,
//! and what the targets in `tests/` check against: an HTML tokenizer's view of rendered
//! Markdown, hyper's verdict on a request head, and a model bucket for the deploy planner.

pub mod bucket;
pub mod driver;
pub mod html;
pub mod hyper_side;
pub mod mutate;
