//! For tests: a copy of the bundled demo site to change.

use std::path::Path;

/// A temporary copy of `examples/demo`.
pub fn demo_copy() -> tempfile::TempDir {
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/demo");
    let dir = tempfile::tempdir().unwrap();
    // The site's sources only: not what `make run` builds beside them (`dist`, `.dist.gens`,
    // the build state in `.stillpoint`).
    let sources = walkdir::WalkDir::new(&from).into_iter().filter_entry(|e| {
        let name = e.file_name().to_string_lossy();
        e.depth() != 1 || !(name == "dist" || name.starts_with('.'))
    });
    for entry in sources {
        let entry = entry.unwrap();
        let to = dir.path().join(entry.path().strip_prefix(&from).unwrap());
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&to).unwrap();
        } else {
            std::fs::copy(entry.path(), &to).unwrap();
        }
    }
    dir
}
