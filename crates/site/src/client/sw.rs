//! The service worker, `/sw.js`: the web bundle's worker (`sw/sw.js`, built by Vite from
//! `web/src/sw/sw.ts`) with this build's settings in front, as one line declaring
//! `__STILLPOINT_SW__`. The build hash names the worker's caches, so each deploy starts from
//! empty caches and the activate step deletes the old ones; and because the hash is in the file,
//! every deploy that changes the bundle changes `sw.js`, which is how browsers notice an update.

use std::path::Path;

use serde::Serialize;

use crate::error::BuildError;

/// Where the worker is written in the output (its scope is the whole site).
pub const SW_FILE: &str = crate::layout::SERVICE_WORKER;

/// The worker's source, read from the web bundle.
#[derive(Debug, Clone)]
pub struct ServiceWorker {
    source: String,
}

/// What the worker needs to know about this build.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SwSettings<'a> {
    /// The build hash.
    pub build: &'a str,
    /// The site's name, for the offline page.
    pub brand: &'a str,
    /// Stylesheets of the offline page (the entry CSS), cached when the worker installs.
    pub css: &'a [String],
    /// The site's Content-Security-Policy (header form): the worker sets it on the pages it
    /// answers from its cache and on the offline page.
    pub csp: &'a str,
}

impl ServiceWorker {
    /// Reads `sw/sw.js` from the web bundle at `bundle_root`.
    pub fn from_bundle(bundle_root: &Path) -> Result<Self, BuildError> {
        let path = bundle_root.join("sw/sw.js");
        match std::fs::read_to_string(&path) {
            Ok(source) => Ok(Self { source }),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(BuildError::Web(format!(
                "the web bundle has no service worker ({}); rebuild it with `npm run build` in web/",
                path.display()
            ))),
            Err(e) => Err(BuildError::io(&path, e)),
        }
    }

    /// The worker's code: part of the build hash (it is JS the site ships).
    pub fn source(&self) -> &[u8] {
        self.source.as_bytes()
    }

    /// The text of `/sw.js`.
    pub fn script(&self, settings: &SwSettings) -> String {
        let json = serde_json::to_string(settings).expect("settings serialise");
        format!("const __STILLPOINT_SW__ = {json};\n{}", self.source)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_come_first_and_the_worker_follows_unchanged() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("sw")).unwrap();
        std::fs::write(dir.path().join("sw/sw.js"), "(() => { use(__STILLPOINT_SW__); })();\n")
            .unwrap();
        let sw = ServiceWorker::from_bundle(dir.path()).unwrap();
        let css = vec!["/assets/entry-1.css".to_string()];
        let script = sw.script(&SwSettings {
            build: "abc",
            brand: "Calm \"Test\"",
            css: &css,
            csp: "default-src 'self'",
        });
        assert_eq!(
            script,
            "const __STILLPOINT_SW__ = {\"build\":\"abc\",\"brand\":\"Calm \\\"Test\\\"\",\"css\":[\"/assets/entry-1.css\"],\"csp\":\"default-src 'self'\"};\n(() => { use(__STILLPOINT_SW__); })();\n"
        );
    }

    #[test]
    fn a_bundle_without_a_worker_is_an_error_that_says_how_to_fix_it() {
        let dir = tempfile::tempdir().unwrap();
        let err = ServiceWorker::from_bundle(dir.path()).unwrap_err().to_string();
        assert!(err.contains("has no service worker") && err.contains("npm run build"), "{err}");
    }
}
