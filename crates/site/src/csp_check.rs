//! What `check` warns about the security policy: content that needs something the policy the
//! build derives (`crate::csp`) does not allow, so the browser would block it.
//! - A `site.scripts` entry the proxy does not cover and whose origin a policy cannot name
//!   (`http://`, credentials, no host): it would never load.
//! - With `[markdown] unsafe_html = true`, a raw `<iframe src>` in an article whose host is not
//!   one the site's embeds declare (`frame-src`): it stays blank.

use stillpoint_content::{ContentWarning, Site, WarningKind};

use crate::client::covered_by_proxy;
use crate::csp::{Csp, SiteUses, origin};

/// Every policy warning of `site`, by file and line.
pub fn policy_warnings(site: &Site) -> Vec<ContentWarning> {
    let csp = Csp::derive(&SiteUses::of(site, Vec::new()));
    let mut out = Vec::new();
    let toml = std::fs::read_to_string(site.root.join("stillpoint.toml")).unwrap_or_default();
    for script in &site.config.scripts {
        if covered_by_proxy(script, &site.config.proxy_allow) || origin(script).is_some() {
            continue;
        }
        let (line, col) = toml.find(script.as_str()).map_or((0, 0), |at| line_col(&toml, at));
        out.push(ContentWarning {
            path: "stillpoint.toml".into(),
            line,
            col,
            kind: WarningKind::BlockedByPolicy {
                what: format!("the script `{script}` is loaded from an origin no policy can allow"),
                hint: "load scripts over https:// from a host name, or list the URL's prefix in `[proxy] allow`",
            },
        });
    }
    if site.config.unsafe_html {
        for a in &site.articles {
            let Ok(text) = std::fs::read_to_string(site.root.join(&a.source)) else { continue };
            for (at, src) in iframe_sources(&text) {
                if csp.allows_frame(&src) {
                    continue;
                }
                let (line, col) = line_col(&text, at);
                out.push(ContentWarning {
                    path: a.source.clone(),
                    line,
                    col,
                    kind: WarningKind::BlockedByPolicy {
                        what: format!("an <iframe> of `{src}`"),
                        hint: "use an embed (::youtube[Title]{id=…}, ::vimeo[Title]{id=…}): it declares its player's host",
                    },
                });
            }
        }
    }
    out
}

/// The `src` of each `<iframe>` tag in `text` (raw HTML), with the tag's byte offset.
fn iframe_sources(text: &str) -> Vec<(usize, String)> {
    let lower = text.to_ascii_lowercase();
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(found) = lower[from..].find("<iframe") {
        let at = from + found;
        let end = lower[at..].find('>').map_or(lower.len(), |e| at + e);
        if let Some(src) = attribute(&text[at..end], &lower[at..end], "src") {
            out.push((at, src));
        }
        from = at + "<iframe".len();
    }
    out
}

/// The value of attribute `name` in one tag (`lower` is `tag` in lower case).
fn attribute(tag: &str, lower: &str, name: &str) -> Option<String> {
    let mut from = 0;
    while let Some(found) = lower[from..].find(name) {
        let at = from + found;
        from = at + name.len();
        let before = lower[..at].chars().next_back();
        if !before.is_some_and(char::is_whitespace) {
            continue;
        }
        let rest = tag[from..].trim_start();
        let Some(value) = rest.strip_prefix('=') else { continue };
        let value = value.trim_start();
        let quote = value.chars().next().filter(|c| *c == '"' || *c == '\'');
        let raw = match quote {
            Some(q) => value[1..].split(q).next().unwrap_or_default(),
            None => value.split(|c: char| c.is_whitespace() || c == '>').next().unwrap_or_default(),
        };
        return Some(raw.replace("&amp;", "&"));
    }
    None
}

/// 1-based line and column (in characters) of byte `at` of `text`.
fn line_col(text: &str, at: usize) -> (u32, u32) {
    let before = &text[..at];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().unwrap_or_default().chars().count() + 1;
    (u32::try_from(line).unwrap_or(u32::MAX), u32::try_from(col).unwrap_or(u32::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iframe_sources_are_read_with_any_quoting_and_case() {
        let text = "a\n<IFRAME width=1 SRC=\"https://evil.example/x?a=1&amp;b=2\"></iframe>\n\
                    <iframe data-src=\"no\" src='https://www.youtube-nocookie.com/embed/x'>\n\
                    <iframe src=https://player.vimeo.com/video/1 allow=autoplay>\n<iframe>";
        let found: Vec<String> = iframe_sources(text).into_iter().map(|(_, s)| s).collect();
        assert_eq!(
            found,
            [
                "https://evil.example/x?a=1&b=2",
                "https://www.youtube-nocookie.com/embed/x",
                "https://player.vimeo.com/video/1",
            ]
        );
        assert_eq!(line_col(text, iframe_sources(text)[0].0), (2, 1));
    }

    #[test]
    fn raw_iframes_and_unnameable_scripts_are_warned_about_with_their_file_and_line() {
        let dir = crate::test_site::demo_copy();
        let site_dir = dir.path();
        let toml = site_dir.join("stillpoint.toml");
        let text = std::fs::read_to_string(&toml).unwrap().replacen(
            "[site]\n",
            "[site]\nscripts = [\"http://plain.example/a.js\", \"https://ok.example/b.js\"]\n",
            1,
        );
        std::fs::write(&toml, format!("{text}\n[markdown]\nunsafe_html = true\n")).unwrap();
        let first = walkdir::WalkDir::new(site_dir.join("articles"))
            .sort_by_file_name()
            .into_iter()
            .map(|e| e.unwrap().into_path())
            .find(|p| p.extension().is_some_and(|e| e == "md"))
            .unwrap();
        let body = std::fs::read_to_string(&first).unwrap();
        std::fs::write(
            &first,
            format!("{body}\n<iframe src=\"https://maps.example/embed\"></iframe>\n"),
        )
        .unwrap();
        let publish = stillpoint_content::Publish::at_clock();
        let site = stillpoint_content::load_site_partial(site_dir, &publish).0.unwrap();
        let warnings = policy_warnings(&site);
        let shown: Vec<String> = warnings
            .iter()
            .map(|w| format!("{}:{} {}", w.path.display(), w.line, w.kind))
            .collect();
        assert_eq!(warnings.len(), 2, "{shown:#?}");
        assert!(
            shown[0].starts_with("stillpoint.toml:")
                && shown[0].contains("http://plain.example/a.js"),
            "{shown:#?}"
        );
        assert!(shown[1].contains("<iframe> of `https://maps.example/embed`"), "{shown:#?}");
        assert!(warnings.iter().all(|w| w.kind.code() == "blocked_by_policy"));
    }
}
