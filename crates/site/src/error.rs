//! Why a build failed: one error for every stage of `build`, `check` and `verify`.

use std::path::{Path, PathBuf};

use crate::ssr::RenderFailure;

/// Why a build failed.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    #[error("{0}")]
    Content(stillpoint_content::Diagnostics),
    #[error("{0}")]
    Web(String),
    /// An environment `stillpoint.toml` does not define.
    #[error("{0}")]
    Env(String),
    #[error("{0}")]
    Node(String),
    #[error("{} page{} failed to render:\n{}", .0.len(), if .0.len() == 1 { "" } else { "s" }, render_list(.0))]
    Render(Vec<RenderFailure>),
    #[error("{}: {source}", path.display())]
    Io { path: PathBuf, source: std::io::Error },
}

impl BuildError {
    pub fn io(path: &Path, source: std::io::Error) -> Self {
        Self::Io { path: path.to_path_buf(), source }
    }
}

fn render_list(f: &[RenderFailure]) -> String {
    f.iter()
        .map(|r| format!("  {} (worker {}): {}", r.path, r.worker, r.message))
        .collect::<Vec<_>>()
        .join("\n")
}
