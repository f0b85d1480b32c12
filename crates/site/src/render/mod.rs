//! Rendering: Markdown to HTML, and the document around React's output.

mod document;
mod embed;
mod html_policy;
mod inline_style;
mod markdown;
mod picture;
#[cfg(test)]
mod xss_tests;

pub use document::{PageAssets, Shell, document, escape};
pub use embed::{EmbedFiles, embed_html, poster_html};
pub use html_policy::{Markdown, RawHtml};
pub use inline_style::{check_inline_css, csp_hash};
pub use markdown::{Rendered, render_markdown};
pub use picture::BODY_SIZES;
