//! The critical styles inlined in every page's `<head>` and the Content-Security-Policy source
//! that allows them: `'sha256-…'` of the exact bytes between `<style>` and `</style>`.

use base64::Engine as _;
use sha2::{Digest, Sha256};

use crate::error::BuildError;

/// The CSP source allowing a `<style>` element holding exactly `css`.
pub fn csp_hash(css: &str) -> String {
    let digest = Sha256::digest(css.as_bytes());
    format!("'sha256-{}'", base64::engine::general_purpose::STANDARD.encode(digest))
}

/// Checks that `css` can stand between `<style>` and `</style>` unchanged (the hash covers the
/// exact bytes, so nothing may be escaped): no `</style`, in any case.
pub fn check_inline_css(css: &str, origin: &std::path::Path) -> Result<(), BuildError> {
    if css.to_ascii_lowercase().contains("</style") {
        return Err(BuildError::Web(format!(
            "{}: the critical styles contain `</style`, which cannot be inlined",
            origin.display()
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hash_is_sha256_base64_of_the_exact_bytes() {
        // `printf 'a{}' | openssl dgst -sha256 -binary | base64`
        assert_eq!(csp_hash("a{}"), "'sha256-X1RutGBrXCt9KkSaXMK7tHftWiRscFHOhxsS8tv8hBk='");
        assert_ne!(csp_hash("a{}"), csp_hash("a{} "));
    }

    #[test]
    fn a_closing_style_tag_is_refused_with_the_file() {
        let err = check_inline_css("a{}</STYLE><script>", "web/critical.css".as_ref()).unwrap_err();
        assert!(err.to_string().contains("web/critical.css"), "{err}");
        assert!(check_inline_css("a>b{color:red}", "x".as_ref()).is_ok());
    }
}
