//! Finding the web bundle (the Vite client build and the SSR worker) and a usable Node.js.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde::Deserialize;

use crate::error::BuildError;

/// Oldest Node.js major version the worker runs on.
pub const MIN_NODE_MAJOR: u32 = 20;

/// `web/dist`: `server/worker.js` and `client/` with `.vite/manifest.json`.
#[derive(Debug, Clone)]
pub struct WebBundle {
    pub root: PathBuf,
    pub manifest: Manifest,
}

impl WebBundle {
    pub fn worker(&self) -> PathBuf {
        self.root.join("server/worker.js")
    }

    /// The client build's manifest (entry and template chunks).
    pub fn manifest_path(&self) -> PathBuf {
        self.root.join("client/.vite/manifest.json")
    }

    pub fn client_dir(&self) -> PathBuf {
        self.root.join("client")
    }

    /// `client/critical.css`: styles every page inlines ahead of its stylesheets (empty when the
    /// bundle has none, as Stillpoint's own has not: pages only link the site stylesheet).
    pub fn critical_css(&self) -> Result<String, BuildError> {
        let path = self.client_dir().join("critical.css");
        let css = match std::fs::read_to_string(&path) {
            Ok(css) => css,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(String::new()),
            Err(e) => return Err(BuildError::io(&path, e)),
        };
        crate::render::check_inline_css(&css, &path)?;
        Ok(css)
    }

    /// The first of `candidates` that holds a bundle. The caller says where to look (the CLI:
    /// the `--web` flag or `STILLPOINT_WEB`, else the bundle it carries, else `web/` beside the
    /// executable and `../../web/dist` from it); this reads no environment.
    pub fn locate(candidates: &[PathBuf]) -> Result<Self, BuildError> {
        for root in candidates {
            let manifest_path = root.join("client/.vite/manifest.json");
            if root.join("server/worker.js").is_file() && manifest_path.is_file() {
                let text = std::fs::read_to_string(&manifest_path)
                    .map_err(|e| BuildError::io(&manifest_path, e))?;
                let manifest = Manifest::parse(&text)
                    .map_err(|e| BuildError::Web(format!("{}: {e}", manifest_path.display())))?;
                return Ok(Self { root: root.clone(), manifest });
            }
        }
        Err(BuildError::Web(format!(
            "the web bundle was not found (looked in {}); run `make build`, or pass --web DIR",
            candidates.iter().map(|c| c.display().to_string()).collect::<Vec<_>>().join(", ")
        )))
    }
}

/// Vite's `.vite/manifest.json`: source path → emitted chunk.
#[derive(Debug, Clone, Default)]
pub struct Manifest {
    chunks: BTreeMap<String, Chunk>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Chunk {
    file: String,
    #[serde(default)]
    css: Vec<String>,
    #[serde(default)]
    imports: Vec<String>,
}

/// The files a page needs for one chunk: its JS, the JS it imports statically, and all their CSS.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ChunkFiles {
    pub js: String,
    pub imports: Vec<String>,
    pub css: Vec<String>,
}

impl Manifest {
    pub fn parse(text: &str) -> Result<Self, serde_json::Error> {
        Ok(Self { chunks: serde_json::from_str(text)? })
    }

    /// The client entry.
    pub fn entry(&self) -> Option<ChunkFiles> {
        self.files("src/entry-client.tsx")
    }

    /// The chunk of template `name` (`src/templates/{name}.tsx`).
    pub fn template(&self, name: &str) -> Option<ChunkFiles> {
        self.files(&format!("src/templates/{name}.tsx"))
    }

    fn files(&self, key: &str) -> Option<ChunkFiles> {
        let chunk = self.chunks.get(key)?;
        let mut out = ChunkFiles { js: format!("/{}", chunk.file), ..ChunkFiles::default() };
        let mut seen = vec![key.to_string()];
        let mut stack: Vec<&Chunk> = vec![chunk];
        while let Some(c) = stack.pop() {
            for css in &c.css {
                let css = format!("/{css}");
                if !out.css.contains(&css) {
                    out.css.push(css);
                }
            }
            for imp in &c.imports {
                if seen.contains(imp) {
                    continue;
                }
                seen.push(imp.clone());
                if let Some(ic) = self.chunks.get(imp) {
                    out.imports.push(format!("/{}", ic.file));
                    stack.push(ic);
                }
            }
        }
        Some(out)
    }
}

/// Checks that `node` runs and is recent enough; returns its version.
pub fn check_node(node: &Path) -> Result<String, BuildError> {
    let out = Command::new(node).arg("--version").output().map_err(|e| {
        BuildError::Node(format!(
            "Node.js {MIN_NODE_MAJOR} or newer is needed to render pages, and `{}` could not be run: {e}",
            node.display()
        ))
    })?;
    let version = String::from_utf8_lossy(&out.stdout).trim().to_string();
    let major: u32 =
        version.trim_start_matches('v').split('.').next().and_then(|m| m.parse().ok()).unwrap_or(0);
    if !out.status.success() || major < MIN_NODE_MAJOR {
        return Err(BuildError::Node(format!(
            "Node.js {MIN_NODE_MAJOR} or newer is needed to render pages; `{}` is {}",
            node.display(),
            if version.is_empty() { "not working".to_string() } else { version }
        )));
    }
    Ok(version)
}

#[cfg(test)]
mod tests {
    use super::*;

    const MANIFEST: &str = r#"{
      "src/entry-client.tsx": {"file": "assets/entry-client-AAA.js", "isEntry": true, "css": ["assets/entry-client-AAA.css"], "imports": ["_react-BBB.js"]},
      "_react-BBB.js": {"file": "assets/react-BBB.js"},
      "src/templates/Article.tsx": {"file": "assets/Article-CCC.js", "isDynamicEntry": true, "css": ["assets/Article-CCC.css"], "imports": ["_react-BBB.js", "_cards-DDD.js"]},
      "_cards-DDD.js": {"file": "assets/cards-DDD.js", "css": ["assets/cards-DDD.css"], "imports": ["_react-BBB.js"]}
    }"#;

    #[test]
    fn resolves_chunks_with_imports_and_css() {
        let m = Manifest::parse(MANIFEST).unwrap();
        let e = m.entry().unwrap();
        assert_eq!(e.js, "/assets/entry-client-AAA.js");
        assert_eq!(e.imports, ["/assets/react-BBB.js"]);
        let t = m.template("Article").unwrap();
        assert_eq!(t.imports, ["/assets/react-BBB.js", "/assets/cards-DDD.js"]);
        assert_eq!(t.css, ["/assets/Article-CCC.css", "/assets/cards-DDD.css"]);
        assert!(m.template("Nope").is_none());
    }

    #[test]
    fn missing_node_is_one_clear_line() {
        let err = check_node(Path::new("/nonexistent/node")).unwrap_err().to_string();
        assert!(err.contains("Node.js 20 or newer"), "{err}");
        assert!(!err.contains('\n'));
    }
}
