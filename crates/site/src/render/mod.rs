//! Rendering: Markdown to HTML, and the document around React's output.

mod document;
mod markdown;

pub use document::{PageAssets, Shell, document, escape};
pub use markdown::{Rendered, render_markdown};
