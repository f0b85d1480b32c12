//! The files of a build that are not pages: the site's static files, the web bundle's assets,
//! and the generated files (search index, site data, slices, app-data, the service worker,
//! sitemap, robots, feeds, build information). All are cheap to produce, so they are produced
//! every build and written only when their bytes changed.

use std::path::{Path, PathBuf};

use stillpoint_dist::Output;
use stillpoint_fingerprint::Digester;

use crate::cache::BuildCache;
use crate::emit::{Transfer, Update};
use crate::error::BuildError;

/// Every file under `src`, in name order: its output path (under `dest_rel`) and its path.
pub fn tree(src: &Path, dest_rel: &str) -> Result<Vec<(String, PathBuf)>, BuildError> {
    let mut files = Vec::new();
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
        files.push((target, entry.into_path()));
    }
    Ok(files)
}

/// The recordings the articles name, each under its content-addressed name in `media/`
/// ([`stillpoint_content::SiteAudio::name`]), with its path. (Embed posters are images: the
/// image stage publishes them, as renditions.)
pub fn media(site: &stillpoint_content::Site) -> Vec<(String, PathBuf)> {
    let mut files: Vec<(String, PathBuf)> = site
        .audio
        .iter()
        .map(|(rel, a)| (rel, &a.name))
        .map(|(rel, name)| (format!("{}/{name}", crate::layout::MEDIA_DIR), site.root.join(rel)))
        .collect();
    files.sort();
    files.dedup();
    files
}

/// Whether the live output's `media/` holds exactly the files of `lists` (each `(target, path)`,
/// the target `media/…`), by their names: a name in `media/` is made of the file's content.
pub fn media_is_live(update: &Update, lists: &[&[(String, PathBuf)]]) -> bool {
    let mut names: Vec<&str> =
        lists.iter().flat_map(|l| l.iter().map(|(t, _)| t.as_str())).collect();
    names.sort_unstable();
    names.dedup();
    update.live_has_exactly_under(crate::layout::MEDIA_DIR, &names)
}

/// Copies files listed by [`tree`] into the output as files of `output`, each with its digest
/// from the build cache (read again only when the file's size or time changed).
pub fn copy(
    update: &Update,
    cache: &mut BuildCache,
    output: Output,
    files: &[(String, PathBuf)],
) -> Result<(), BuildError> {
    for (target, path) in files {
        update.transfer((output, target), path, cache.file_digest(path)?, Transfer::Copy)?;
    }
    Ok(())
}

/// Puts the image stage's files into the output, shared with the image cache where the file
/// system allows ([`Transfer::Share`]): a build that finds every image in the cache writes no
/// image bytes. Each file's name is made of its content (`media/{key}-{width}.{ext}`, the key a
/// digest of the source's bytes, the parameters and the pipeline's version; a page bundle's
/// file `media/{key}.{ext}`), so the name stands for its digest: a rebuild looks at none of the
/// thousands of renditions a site with photographs has.
pub fn share(
    update: &Update,
    output: Output,
    files: &[(String, PathBuf)],
) -> Result<(), BuildError> {
    for (target, path) in files {
        let named = Digester::new().part(b"named").part(target.as_bytes()).finish();
        update.transfer((output, target), path, named, Transfer::Share)?;
    }
    Ok(())
}
