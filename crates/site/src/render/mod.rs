//! Rendering: Markdown to HTML, and the document around React's output.

mod document;
mod html_policy;
mod markdown;
#[cfg(test)]
mod xss_tests;

pub use document::{PageAssets, Shell, document, escape};
pub use html_policy::{Markdown, RawHtml};
pub use markdown::{Rendered, render_markdown};
