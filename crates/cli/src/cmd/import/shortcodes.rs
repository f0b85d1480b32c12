//! Hugo's built-in shortcodes in a body, turned into Markdown: `figure` → an image and its
//! caption, `ref`/`relref` → the article's address, `highlight` → a fenced code block,
//! `details` → `<details>`, `comment` → nothing, `youtube` and `vimeo` → Stillpoint's embeds
//! (`::youtube[Title]{id=…}`), and the other embeds (`x`, `tweet`, `instagram`, `gist`) → a
//! link to the post, with a note (Stillpoint has no embed for them).
//! Any other shortcode is left as written and reported. `{{</* x */>}}` is Hugo's way of
//! writing a shortcode as text: it becomes `{{< x >}}`.

/// A body after conversion, with what the owner should know (1-based file lines).
#[derive(Debug, Default)]
pub struct Converted {
    pub body: String,
    /// Converted with a loss worth knowing (an embed became a link).
    pub notes: Vec<(usize, String)>,
    /// Left as written.
    pub failed: Vec<(usize, String)>,
}

/// A shortcode's parameters: positional and `name=value`.
#[derive(Debug, Default, PartialEq)]
struct Params {
    positional: Vec<String>,
    named: Vec<(String, String)>,
}

impl Params {
    fn get(&self, name: &str, pos: usize) -> Option<&str> {
        self.named.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str()).or_else(|| {
            if self.named.is_empty() { self.positional.get(pos).map(String::as_str) } else { None }
        })
    }
    fn named(&self, name: &str) -> Option<&str> {
        self.named
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
            .filter(|v| !v.is_empty())
    }
}

/// `resolve` maps a `ref` target (`post/x.md`, `x`, `/docs/y`) to a Stillpoint address.
pub fn convert(
    body: &str,
    first_line: usize,
    resolve: &dyn Fn(&str) -> Option<String>,
) -> Converted {
    let mut out = Converted::default();
    let line_at = |off: usize| first_line + body[..off].matches('\n').count();
    let mut pos = 0;
    while let Some(found) = find_open(body, pos) {
        let (start, close) = found;
        out.body += &body[pos..start];
        let Some(end_rel) = body[start + 3..].find(close) else {
            out.body += &body[start..start + 3];
            pos = start + 3;
            continue;
        };
        let inner = &body[start + 3..start + 3 + end_rel];
        let end = start + 3 + end_rel + 3;
        let line = line_at(start);
        // {{</* x */>}}: the shortcode as text.
        if let Some(text) = inner.trim().strip_prefix("/*").and_then(|t| t.strip_suffix("*/")) {
            out.body += &format!("{}{text}{}", &body[start..start + 3], close);
            pos = end;
            continue;
        }
        let inner = inner.trim();
        let (inner, self_closed) = match inner.strip_suffix('/') {
            Some(i) => (i.trim_end(), true),
            None => (inner, false),
        };
        let name_end = inner.find(char::is_whitespace).unwrap_or(inner.len());
        let name = &inner[..name_end];
        if name.starts_with('/') || name.is_empty() {
            // A closing tag of a shortcode left as written.
            out.body += &body[start..end];
            pos = end;
            continue;
        }
        let params = parse_params(&inner[name_end..]);
        // The content up to a matching closing tag, for the shortcodes that take one.
        let paired = if self_closed || !matches!(name, "highlight" | "details" | "comment") {
            None
        } else {
            find_closing(body, end, name)
        };
        let content = paired.map(|(a, _)| &body[end..a]);
        let after = paired.map_or(end, |(_, b)| b);
        match replacement(name, &params, content, resolve) {
            Ok((text, note)) => {
                out.body += &text;
                if let Some(note) = note {
                    out.notes.push((line, note));
                }
                pos = after;
            }
            Err(why) => {
                out.failed.push((line, why));
                out.body += &body[start..end];
                pos = end;
            }
        }
    }
    out.body += &body[pos..];
    out
}

/// The next `{{<` or `{{%` at or after `from`, and the closing delimiter it needs.
fn find_open(body: &str, from: usize) -> Option<(usize, &'static str)> {
    let i = from + body[from..].find("{{")?;
    match body[i + 2..].chars().next() {
        Some('<') => Some((i, ">}}")),
        Some('%') => Some((i, "%}}")),
        _ => find_open(body, i + 2),
    }
}

/// `{{< /name >}}` (or `{{% /name %}}`) after `from`: its start and end.
fn find_closing(body: &str, from: usize, name: &str) -> Option<(usize, usize)> {
    let mut pos = from;
    while let Some((start, close)) = find_open(body, pos) {
        let end = start + 3 + body[start + 3..].find(close)?;
        if body[start + 3..end].trim().strip_prefix('/').map(str::trim) == Some(name) {
            return Some((start, end + 3));
        }
        pos = start + 3;
    }
    None
}

fn parse_params(s: &str) -> Params {
    let mut p = Params::default();
    let mut chars = s.chars().peekable();
    loop {
        while chars.next_if(|c| c.is_whitespace()).is_some() {}
        if chars.peek().is_none() {
            return p;
        }
        let mut key = None;
        let mut word = String::new();
        loop {
            match chars.peek().copied() {
                None => break,
                Some(c) if c.is_whitespace() => break,
                Some('=') if key.is_none() && !word.is_empty() => {
                    chars.next();
                    key = Some(std::mem::take(&mut word));
                }
                Some(q @ ('"' | '`')) if word.is_empty() => {
                    chars.next();
                    while let Some(c) = chars.next() {
                        match c {
                            '\\' if q == '"' => word.extend(chars.next()),
                            c if c == q => break,
                            c => word.push(c),
                        }
                    }
                    break;
                }
                Some(c) => {
                    chars.next();
                    word.push(c);
                }
            }
        }
        match key {
            Some(k) => p.named.push((k, word)),
            None => p.positional.push(word),
        }
    }
}

/// The Markdown for one shortcode and an optional note, or why it is left as written.
fn replacement(
    name: &str,
    p: &Params,
    content: Option<&str>,
    resolve: &dyn Fn(&str) -> Option<String>,
) -> Result<(String, Option<String>), String> {
    let embed = |url: String, what: &str| {
        Ok((
            format!("[{what}]({url})"),
            Some(format!("`{name}` embed became a link to {url}: Stillpoint has no such embed")),
        ))
    };
    let need = |v: Option<&str>, what: &str| {
        v.filter(|v| !v.is_empty())
            .map(String::from)
            .ok_or_else(|| format!("`{name}` without {what}"))
    };
    match name {
        "figure" => {
            let src = need(p.named("src"), "`src`")?;
            let caption = p.named("caption").map(str::trim);
            let title = p.named("title");
            let alt = p.named("alt").or(caption).or(title).unwrap_or("");
            let alt = alt.replace(['[', ']'], "").replace('\n', " ");
            let mut md = format!("![{alt}]({src})");
            if let Some(link) = p.named("link") {
                md = format!("[{md}]({link})");
            }
            match (caption, title) {
                (Some(c), _) | (None, Some(c)) => md += &format!("\n\n*{}*", c.trim_matches('*')),
                _ => {}
            }
            Ok((md, None))
        }
        "ref" | "relref" => {
            let target = need(p.get("path", 0), "a page")?;
            resolve(&target).map(|url| (url, None)).ok_or_else(|| {
                format!("`{name}` to `{target}`, which is not a page of this import")
            })
        }
        "highlight" => {
            let lang = p.positional.first().map(String::as_str).unwrap_or("");
            let code = content.ok_or("`highlight` without its closing tag")?;
            Ok((format!("```{lang}\n{}\n```", code.trim_matches('\n')), None))
        }
        "details" => {
            let summary = p.named("summary").unwrap_or("Details");
            let open = if p.named("open").is_some_and(|v| v == "true") { " open" } else { "" };
            let inner = content.ok_or("`details` without its closing tag")?;
            Ok((
                format!(
                    "<details{open}><summary>{summary}</summary>\n\n{}\n\n</details>",
                    inner.trim()
                ),
                None,
            ))
        }
        "comment" => content
            .map(|_| (String::new(), None))
            .ok_or_else(|| "`comment` without its closing tag".into()),
        "youtube" | "youtube_simple" | "vimeo" | "vimeo_simple" => {
            let id = need(p.get("id", 0), "a video id")?;
            let (provider, host, url) = if name.starts_with("youtube") {
                ("youtube", "YouTube", format!("https://www.youtube.com/watch?v={id}"))
            } else {
                ("vimeo", "Vimeo", format!("https://vimeo.com/{id}"))
            };
            let title =
                p.named("title").unwrap_or("Video").replace(['[', ']'], "").replace('\n', " ");
            // Stillpoint's own embed (a click-to-load facade), on a line of its own.
            let directive = format!("::{provider}[{}]{{id={id}}}", title.trim());
            match stillpoint_content::embed_of(&directive, (1, 1)) {
                Ok(_) => Ok((format!("\n\n{directive}\n\n"), None)),
                Err(_) => embed(url, &format!("Watch the video on {host}")),
            }
        }
        "x" | "x_simple" | "twitter" | "twitter_simple" | "tweet" => {
            let id = need(
                p.named("id").or_else(|| p.positional.last().map(String::as_str)),
                "a post id",
            )?;
            let user = p
                .named("user")
                .or_else(|| (p.positional.len() > 1).then(|| p.positional[0].as_str()));
            let url = match user {
                Some(u) => format!("https://x.com/{u}/status/{id}"),
                None => format!("https://x.com/i/status/{id}"),
            };
            embed(url, "See the post on X")
        }
        "instagram" | "instagram_simple" => {
            let id = need(p.get("id", 0), "a post id")?;
            embed(format!("https://www.instagram.com/p/{id}/"), "See the post on Instagram")
        }
        "gist" => {
            let user = need(p.get("user", 0), "a user")?;
            let id = need(p.get("id", 1), "a gist id")?;
            let file = p
                .get("file", 2)
                .map(|f| format!("#file-{}", f.replace('.', "-")))
                .unwrap_or_default();
            embed(format!("https://gist.github.com/{user}/{id}{file}"), "See the code on GitHub")
        }
        _ if name.ends_with(".inline") => {
            Err(format!("`{name}` is an inline shortcode (a template): write its output in"))
        }
        "param" | "qr" => Err(format!("`{name}` has no Stillpoint equivalent: write the text in")),
        _ => Err(format!(
            "`{name}` is not one of Hugo's built-in shortcodes: rewrite it in Markdown"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(body: &str) -> Converted {
        convert(body, 10, &|t: &str| {
            (t.trim_end_matches(".md") == "post/known").then(|| "/articles/known".to_string())
        })
    }

    #[test]
    fn params() {
        let p = parse_params(r#" go "linenos=table" src="a b.jpg" alt=bare x=`raw "q"` "#);
        assert_eq!(p.positional, ["go", "linenos=table"]);
        assert_eq!(p.named[0], ("src".into(), "a b.jpg".into()));
        assert_eq!(p.named[1], ("alt".into(), "bare".into()));
        assert_eq!(p.named[2], ("x".into(), "raw \"q\"".into()));
    }

    #[test]
    fn figure_ref_highlight() {
        let c = run(
            "a\n{{< figure src=\"x.jpg\" alt=\"A cat\" caption=\"Sleeping\" >}}\n[k]({{< ref \"post/known.md\" >}})\n{{< highlight go \"linenos=table\" >}}\nfmt.Println()\n{{< /highlight >}}\n",
        );
        assert_eq!(
            c.body,
            "a\n![A cat](x.jpg)\n\n*Sleeping*\n[k](/articles/known)\n```go\nfmt.Println()\n```\n"
        );
        assert!(c.notes.is_empty() && c.failed.is_empty(), "{c:?}");
        let c = run(
            "{{% figure src=\"y.png\" caption=\"Only a caption\" link=\"https://e.example\" %}}",
        );
        assert_eq!(c.body, "[![Only a caption](y.png)](https://e.example)\n\n*Only a caption*");
    }

    #[test]
    fn videos_become_embeds_other_posts_links() {
        let c = run(
            "x\n\n{{< youtube ZJthWmvUzzc >}}\n{{< vimeo id=\"146022717\" >}}\n{{< x user=\"SanDiegoZoo\" id=\"1453110110599868418\" >}}\n{{< tweet 123 >}}\n{{< instagram BWNjjyYFxVx >}}\n{{< gist spf13 7896402 \"img.html\" >}}",
        );
        assert!(c.body.contains("\n\n::youtube[Video]{id=ZJthWmvUzzc}\n\n"), "{}", c.body);
        assert!(c.body.contains("\n\n::vimeo[Video]{id=146022717}\n\n"));
        assert!(c.body.contains("(https://x.com/SanDiegoZoo/status/1453110110599868418)"));
        assert!(c.body.contains("(https://x.com/i/status/123)"));
        assert!(c.body.contains("(https://www.instagram.com/p/BWNjjyYFxVx/)"));
        assert!(c.body.contains("(https://gist.github.com/spf13/7896402#file-img-html)"));
        assert_eq!(c.notes.len(), 4, "the videos are embeds, the rest links with a note");
        assert_eq!(c.notes[0].0, 14, "the file line of the x shortcode");
        // A title is kept; an id the embed refuses becomes a link.
        let c = run(
            "{{< youtube id=\"ZJthWmvUzzc\" title=\"Body [scan]\" >}} {{< youtube not-an-id >}}",
        );
        assert!(c.body.contains("::youtube[Body scan]{id=ZJthWmvUzzc}"), "{}", c.body);
        assert!(
            c.body.contains(
                "[Watch the video on YouTube](https://www.youtube.com/watch?v=not-an-id)"
            )
        );
        assert_eq!(c.notes.len(), 1);
    }

    #[test]
    fn others_are_left_and_reported() {
        let c = run(
            "{{< alert \"x\" >}}\n**Warning**\n{{< /alert >}}\n[u]({{< relref \"nope\" >}})\n{{< param foo >}}",
        );
        assert_eq!(
            c.body,
            "{{< alert \"x\" >}}\n**Warning**\n{{< /alert >}}\n[u]({{< relref \"nope\" >}})\n{{< param foo >}}"
        );
        let lines: Vec<usize> = c.failed.iter().map(|f| f.0).collect();
        assert_eq!(lines, [10, 13, 14]);
        assert!(c.failed[0].1.contains("`alert`"));
        assert!(c.failed[1].1.contains("`nope`"));
    }

    #[test]
    fn escaped_details_comment() {
        let c = run(
            "```\n{{</* alert */>}}\n```\n{{< details summary=\"More\" >}}\nHidden *text*\n{{< /details >}}\n{{< comment >}}secret{{< /comment >}}end",
        );
        assert_eq!(
            c.body,
            "```\n{{< alert >}}\n```\n<details><summary>More</summary>\n\nHidden *text*\n\n</details>\nend"
        );
        assert!(c.failed.is_empty());
        // An unclosed opening is text.
        assert_eq!(run("a {{< b").body, "a {{< b");
    }
}
