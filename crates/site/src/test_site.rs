//! The demo site, loaded for the unit tests of the stages, and a copy of it to edit.

use std::path::Path;

use stillpoint_content::{Publish, Site, load_site_partial};

/// `examples/demo`, loaded as a build loads it; the test fails if it has any diagnostic.
pub(crate) fn demo() -> Site {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/demo");
    let (site, diag) = load_site_partial(&dir, &Publish::at_clock());
    assert!(diag.is_empty(), "{diag:?}");
    site.expect("the demo site loads")
}

pub(crate) use stillpoint_content::test_site::demo_copy;
