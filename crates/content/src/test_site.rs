//! For tests: a copy of the bundled demo site to change.

use std::path::Path;

/// A temporary copy of `examples/demo`.
pub fn demo_copy() -> tempfile::TempDir {
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/demo");
    let dir = tempfile::tempdir().unwrap();
    copy_sources(&from, dir.path());
    dir
}

/// Copies the site at `from` to `to`, its sources only: not what a build writes beside them
/// (`make run` builds the demo into `dist`, `.dist.gens` and the build state in `.stillpoint`).
pub fn copy_sources(from: &Path, to: &Path) {
    let sources = walkdir::WalkDir::new(from).into_iter().filter_entry(|e| {
        let name = e.file_name().to_string_lossy();
        e.depth() != 1 || !(name == "dist" || name.starts_with('.'))
    });
    for entry in sources {
        let entry = entry.unwrap();
        let target = to.join(entry.path().strip_prefix(from).unwrap());
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}
