//! The site's Content-Security-Policy, derived from what its pages use. One policy per build,
//! written into build.json (`csp`) and applied by `serve`, `dev` and the service worker as a
//! header, and by every page as `<meta http-equiv="Content-Security-Policy">`, so a bucket
//! behind a CDN enforces what `serve` does (docs/serve.md).
//!
//! What the pages need, and why each source is there:
//! - `default-src 'self'`: fonts, the service worker, page data, manifest: all same-origin.
//! - `script-src 'self'` plus the origin of each `site.scripts` entry the proxy does not cover
//!   (a proxied one is same-origin); the JSON-LD blocks are data, which `script-src` does not
//!   govern. The same origins join `connect-src`: an analytics script reports to its origin.
//! - `style-src 'self'` plus the hash of the bundle's inline critical styles, if any.
//! - `style-src-attr 'unsafe-inline'`: the images' placeholder colour and focal point are
//!   `style` attributes. Hashing them would need `'unsafe-hashes'` and one hash per colour (a
//!   policy that grows with the photographs); moving them into classes would need a stylesheet
//!   per build that changes with every image. Style attributes run no script and select no
//!   other element; `<style>` elements and stylesheets stay limited to `style-src`.
//! - `img-src 'self' data:` (the blurred previews are `data:` URIs), `https:` when any image is
//!   remote.
//! - `media-src 'self'`: recordings are files of the site.
//! - `frame-src`: the embed hosts used (`'none'` when there are none).
//! - `object-src 'none'; base-uri 'self'; form-action 'self'`, and `frame-ancestors 'none'`
//!   in the header only (a `<meta>` policy cannot carry it).

use std::collections::BTreeSet;

use stillpoint_content::Site;

use crate::client::covered_by_proxy;

/// What a site's pages use beyond their own origin.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SiteUses {
    /// Origins of the embeds' players (`https://www.youtube-nocookie.com`).
    pub frame_hosts: BTreeSet<String>,
    /// Some cover, body image or author photo is an `https://` URL.
    pub remote_images: bool,
    /// Origins of the `site.scripts` loaded from their own host (not through the proxy).
    pub script_origins: BTreeSet<String>,
    /// CSP sources (`'sha256-…'`) of the inline `<style>` elements.
    pub style_hashes: Vec<String>,
}

impl SiteUses {
    /// What `site` uses, the pages inlining `style_hashes`.
    pub fn of(site: &Site, style_hashes: Vec<String>) -> Self {
        Self::with_remote_images(site, style_hashes, remote_images(site))
    }

    /// [`SiteUses::of`], when whether an image is remote is known (a build's image stage
    /// knows it without reading every article's references again).
    pub fn with_remote_images(site: &Site, style_hashes: Vec<String>, remote: bool) -> Self {
        Self {
            frame_hosts: frame_hosts(site),
            remote_images: remote,
            script_origins: script_origins(&site.config.scripts, &site.config.proxy_allow),
            style_hashes,
        }
    }
}

/// The origins of the players of the embeds the articles use: YouTube's privacy-enhanced host
/// (`https://www.youtube-nocookie.com`) for `::youtube`, `https://player.vimeo.com` for
/// `::vimeo`. `::audio` plays a file of the site and needs none.
pub fn frame_hosts(site: &Site) -> BTreeSet<String> {
    let embeds = site.articles.iter().flat_map(|a| &a.embeds);
    embeds.filter_map(|e| e.provider.frame_host()).map(str::to_string).collect()
}

/// Whether an image the pages show is remote: an `https://` cover, body image or author photo.
pub fn remote_images(site: &Site) -> bool {
    let articles = site.articles.iter().flat_map(|a| a.image.iter().chain(&a.images));
    let photos = site.authors.list.iter().filter_map(|au| au.photo.as_ref());
    let pages = site.pages.iter().flat_map(|p| &p.images);
    articles.chain(photos).chain(pages).any(|at| is_remote(&at.value))
}

/// Whether an image reference is a remote URL rather than a file of the site.
pub fn is_remote(reference: &str) -> bool {
    reference.get(..8).is_some_and(|s| s.eq_ignore_ascii_case("https://"))
}

/// The origins of the scripts of `site.scripts` that keep their URL (the proxy does not cover
/// them); an entry with no origin a policy can name is left out (`check` warns about it).
pub fn script_origins(scripts: &[String], proxy_allow: &[String]) -> BTreeSet<String> {
    scripts.iter().filter(|s| !covered_by_proxy(s, proxy_allow)).filter_map(|s| origin(s)).collect()
}

/// `https://host[:port]` of an `https` URL, lowercased: the form of a CSP host source. `None`
/// for anything else (another scheme, no host, credentials, characters a policy cannot hold).
pub fn origin(url: &str) -> Option<String> {
    let rest = url.get(..8).filter(|s| s.eq_ignore_ascii_case("https://")).map(|_| &url[8..])?;
    let authority = &rest[..rest.find(['/', '?', '#']).unwrap_or(rest.len())];
    let ok = !authority.is_empty()
        && !authority.starts_with(':')
        && authority.bytes().all(|b| b.is_ascii_alphanumeric() || b"-.:".contains(&b));
    ok.then(|| format!("https://{}", authority.to_ascii_lowercase()))
}

/// The policy of one build.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Csp {
    /// `name sources…`, in order; header-only directives are marked.
    directives: Vec<(&'static str, Vec<String>)>,
}

/// Directives a `<meta>` policy ignores (CSP3 §3.3): they go in the header only.
const HEADER_ONLY: [&str; 3] = ["frame-ancestors", "report-uri", "sandbox"];

impl Csp {
    pub fn derive(uses: &SiteUses) -> Self {
        let own = || vec!["'self'".to_string()];
        let with = |mut base: Vec<String>, more: &mut dyn Iterator<Item = &String>| {
            base.extend(more.cloned());
            base
        };
        let mut img = vec!["'self'".to_string(), "data:".to_string()];
        if uses.remote_images {
            img.push("https:".to_string());
        }
        let frames = if uses.frame_hosts.is_empty() {
            vec!["'none'".to_string()]
        } else {
            uses.frame_hosts.iter().cloned().collect()
        };
        let directives = vec![
            ("default-src", own()),
            ("script-src", with(own(), &mut uses.script_origins.iter())),
            ("connect-src", with(own(), &mut uses.script_origins.iter())),
            ("style-src", with(own(), &mut uses.style_hashes.iter())),
            ("style-src-attr", vec!["'unsafe-inline'".to_string()]),
            ("img-src", img),
            ("media-src", own()),
            ("frame-src", frames),
            ("object-src", vec!["'none'".to_string()]),
            ("base-uri", own()),
            ("form-action", own()),
            ("frame-ancestors", vec!["'none'".to_string()]),
        ];
        Self { directives }
    }

    fn render(&self, header: bool) -> String {
        self.directives
            .iter()
            .filter(|(name, _)| header || !HEADER_ONLY.contains(name))
            .map(|(name, sources)| format!("{name} {}", sources.join(" ")))
            .collect::<Vec<_>>()
            .join("; ")
    }

    /// The `Content-Security-Policy` header value.
    pub fn header(&self) -> String {
        self.render(true)
    }

    /// The same policy for `<meta http-equiv>`: without the header-only directives.
    pub fn meta(&self) -> String {
        self.render(false)
    }

    /// Whether the policy lets a page frame `url` (its origin is in `frame-src`).
    pub fn allows_frame(&self, url: &str) -> bool {
        self.allows("frame-src", url)
    }

    /// Whether the policy lets a page load a script from `url`.
    pub fn allows_script(&self, url: &str) -> bool {
        url.starts_with('/') && !url.starts_with("//") || self.allows("script-src", url)
    }

    fn allows(&self, directive: &str, url: &str) -> bool {
        let Some(origin) = origin(url) else { return false };
        self.directives
            .iter()
            .any(|(name, sources)| *name == directive && sources.contains(&origin))
    }
}

/// The header form of a stored policy (build.json's `csp`) as a `<meta>` one: the header-only
/// directives left out.
pub fn meta_of(header: &str) -> String {
    header
        .split(';')
        .map(str::trim)
        .filter(|d| {
            let name = d.split_whitespace().next().unwrap_or_default();
            !d.is_empty() && !HEADER_ONLY.iter().any(|h| h.eq_ignore_ascii_case(name))
        })
        .collect::<Vec<_>>()
        .join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn uses() -> SiteUses {
        SiteUses::default()
    }

    #[test]
    fn a_site_using_nothing_else_gets_the_tight_policy() {
        insta::assert_snapshot!(Csp::derive(&uses()).header(), @"default-src 'self'; script-src 'self'; connect-src 'self'; style-src 'self'; style-src-attr 'unsafe-inline'; img-src 'self' data:; media-src 'self'; frame-src 'none'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'");
    }

    #[test]
    fn embeds_remote_images_scripts_and_inline_styles_each_open_their_directive() {
        let uses = SiteUses {
            frame_hosts: [
                "https://www.youtube-nocookie.com".into(),
                "https://player.vimeo.com".into(),
            ]
            .into(),
            remote_images: true,
            script_origins: ["https://stats.example".into()].into(),
            style_hashes: vec!["'sha256-X1RutGBrXCt9KkSaXMK7tHftWiRscFHOhxsS8tv8hBk='".into()],
        };
        let csp = Csp::derive(&uses);
        insta::assert_snapshot!(csp.header(), @"default-src 'self'; script-src 'self' https://stats.example; connect-src 'self' https://stats.example; style-src 'self' 'sha256-X1RutGBrXCt9KkSaXMK7tHftWiRscFHOhxsS8tv8hBk='; style-src-attr 'unsafe-inline'; img-src 'self' data: https:; media-src 'self'; frame-src https://player.vimeo.com https://www.youtube-nocookie.com; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'");
        assert!(csp.allows_frame("https://www.youtube-nocookie.com/embed/x?autoplay=1"));
        assert!(!csp.allows_frame("https://www.youtube.com/embed/x"));
        assert!(csp.allows_script("https://stats.example/s.js"));
        assert!(csp.allows_script("/__third-party-proxy?url=x"));
        assert!(
            !csp.allows_script("https://evil.example/s.js") && !csp.allows_script("//x.test/a.js")
        );
    }

    #[test]
    fn the_meta_policy_is_the_header_without_header_only_directives() {
        let csp = Csp::derive(&uses());
        assert_eq!(csp.meta(), csp.header().replace("; frame-ancestors 'none'", ""));
        assert_eq!(meta_of(&csp.header()), csp.meta());
        assert_eq!(meta_of("a b; Frame-Ancestors 'none'; sandbox; report-uri /r;"), "a b");
    }

    #[test]
    fn proxied_scripts_need_no_origin_and_unnameable_ones_are_left_out() {
        let scripts = [
            "https://cdn.example/lib/a.js".to_string(),
            "https://Stats.Example:8443/s.js?x=1".to_string(),
            "http://plain.example/a.js".to_string(),
            "https://user@host.example/a.js".to_string(),
            "https://x.test;script-src *".to_string(),
        ];
        let origins = script_origins(&scripts, &["https://cdn.example/lib/".to_string()]);
        assert_eq!(origins, BTreeSet::from(["https://stats.example:8443".to_string()]));
    }

    #[test]
    fn remote_means_https() {
        assert!(is_remote("https://img.example/a.jpg") && is_remote("HTTPS://img.example/a.jpg"));
        assert!(!is_remote("/images/a.jpg") && !is_remote("cover.jpg") && !is_remote("http"));
    }
}
