//! The files of a build that are not pages: the site's static files, the web bundle's assets,
//! and the generated files (search index, site data, slices, app-data, the service worker,
//! sitemap, robots, feeds, build information). All are cheap to produce, so they are produced
//! every build and written only when their bytes changed.

use std::path::Path;

use crate::BuildError;
use crate::cache::BuildCache;
use crate::emit::Update;

/// Copies every file under `src` into `dest_rel` of the output; returns the output paths.
pub fn copy_tree(
    update: &Update,
    cache: &mut BuildCache,
    src: &Path,
    dest_rel: &str,
) -> Result<Vec<String>, BuildError> {
    let mut copied = Vec::new();
    for entry in walkdir::WalkDir::new(src).sort_by_file_name() {
        let entry = entry.map_err(|e| BuildError::io(src, e.into()))?;
        if !entry.file_type().is_file() {
            continue;
        }
        let rel = entry
            .path()
            .strip_prefix(src)
            .expect("inside src")
            .to_string_lossy()
            .replace('\\', "/");
        let target = if dest_rel.is_empty() { rel } else { format!("{dest_rel}/{rel}") };
        let digest = cache.file_digest(entry.path())?;
        update.copy(&target, entry.path(), digest)?;
        copied.push(target);
    }
    Ok(copied)
}
