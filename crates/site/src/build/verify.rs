//! `build --verify`: a clean build (no cache) into a temporary directory, compared file by file
//! with the output an incremental build left, so a cache bug can never pass unnoticed.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::{BuildOptions, Progress, build};
use crate::error::BuildError;

/// A file that is not the same in the output and in a clean build.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Difference {
    /// In a clean build, missing from the output.
    Missing(String),
    /// In the output, not in a clean build.
    Extra(String),
    /// In both, with different bytes.
    Differs(String),
}

impl std::fmt::Display for Difference {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Missing(p) => write!(f, "missing  {p} (a clean build writes it)"),
            Self::Extra(p) => write!(f, "extra    {p} (a clean build does not write it)"),
            Self::Differs(p) => write!(f, "differs  {p}"),
        }
    }
}

/// Builds `opts`' site clean beside its output and lists every file that differs from the output.
pub fn verify(opts: &BuildOptions, progress: &dyn Progress) -> Result<Vec<Difference>, BuildError> {
    let name =
        opts.out.file_name().map_or_else(|| "dist".into(), |n| n.to_string_lossy().into_owned());
    let parent = opts.out.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let scratch = parent.join(format!(".{name}.verify-{}", std::process::id()));
    let clean = BuildOptions { out: scratch.join(&name), cache: None, ..opts.clone() };
    let result = build(&clean, progress).and_then(|_| compare(&opts.out, &clean.out));
    let _ = std::fs::remove_dir_all(&scratch);
    result
}

/// Every difference between two output trees (each may be a symlink to its generation).
pub fn compare(output: &Path, clean: &Path) -> Result<Vec<Difference>, BuildError> {
    let (a, b) = (list(output)?, list(clean)?);
    let mut out = Vec::new();
    for (rel, path) in &b {
        match a.get(rel) {
            None => out.push(Difference::Missing(rel.clone())),
            Some(p) => {
                let same = std::fs::read(p).map_err(|e| BuildError::io(p, e))?
                    == std::fs::read(path).map_err(|e| BuildError::io(path, e))?;
                if !same {
                    out.push(Difference::Differs(rel.clone()));
                }
            }
        }
    }
    out.extend(
        a.keys().filter(|rel| !b.contains_key(*rel)).map(|rel| Difference::Extra(rel.clone())),
    );
    Ok(out)
}

fn list(root: &Path) -> Result<BTreeMap<String, PathBuf>, BuildError> {
    let mut files = BTreeMap::new();
    for entry in walkdir::WalkDir::new(root).follow_root_links(true) {
        let entry = entry.map_err(|e| BuildError::io(root, e.into()))?;
        if entry.file_type().is_file() {
            let rel = entry.path().strip_prefix(root).expect("inside root");
            files.insert(rel.to_string_lossy().replace('\\', "/"), entry.into_path());
        }
    }
    Ok(files)
}
