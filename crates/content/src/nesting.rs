//! How deeply a Markdown text nests: its Markdown containers (blockquotes, lists, emphasis…)
//! plus the elements its raw HTML opens. Parsing and sanitising HTML costs time that grows with
//! the square of the depth (100 000 nested `<div>`s take half a minute), so content nests at
//! most [`MAX_NESTING`] deep; `check` and `build` refuse deeper text at the line where it
//! passes the limit.
//!
//! Raw HTML is read the way a browser's parser builds its tree, closely enough to count: void
//! elements (`<br>`, `<img>`) open nothing, an end tag closes up to its element, and the
//! elements whose end tag may be left out (`<li>`, `<p>`, `<td>`…) close the one before them.

/// The deepest a text may nest. Real content stays far below: a list ten levels deep inside a
/// blockquote, holding a table, is about 30.
pub const MAX_NESTING: usize = 100;

/// Follows the depth of one text, event by event, until it passes [`MAX_NESTING`] (past that,
/// nothing more is read: each step costs at most the limit, so a whole text costs linear time).
#[derive(Debug, Default)]
pub struct Nesting {
    /// Open Markdown containers.
    markdown: usize,
    /// Open raw HTML elements, by lowercase name.
    html: Vec<String>,
    /// Inside `<script>`, `<style>`, `<textarea>` or `<title>`: text up to its end tag.
    raw_text: Option<String>,
    /// Open `<svg>` and `<math>` elements, where `/>` closes any element.
    foreign: usize,
    /// The byte offset where the depth passed the limit.
    too_deep: Option<usize>,
}

const VOID: [&str; 15] = [
    "area", "base", "br", "col", "embed", "hr", "img", "input", "keygen", "link", "meta", "param",
    "source", "track", "wbr",
];
const RAW_TEXT: [&str; 4] = ["script", "style", "textarea", "title"];
/// Elements that close an open `<p>` when they start.
const CLOSES_P: [&str; 27] = [
    "address",
    "article",
    "aside",
    "blockquote",
    "details",
    "div",
    "dl",
    "fieldset",
    "figcaption",
    "figure",
    "footer",
    "form",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "header",
    "hr",
    "main",
    "nav",
    "ol",
    "p",
    "pre",
    "section",
    "ul",
];

impl Nesting {
    /// A Markdown container opens (`Event::Start`) at `offset`.
    pub fn open(&mut self, offset: usize) {
        if self.too_deep.is_some() {
            return;
        }
        self.markdown += 1;
        self.seen(offset);
    }

    /// A Markdown container closes (`Event::End`).
    pub fn close(&mut self) {
        self.markdown = self.markdown.saturating_sub(1);
    }

    /// Raw HTML (`Event::Html`, `Event::InlineHtml`) found at `offset`.
    pub fn html(&mut self, html: &str, offset: usize) {
        let bytes = html.as_bytes();
        let mut i = 0;
        while self.too_deep.is_none()
            && let Some(lt) = html[i..].find('<').map(|p| p + i)
        {
            i = lt + 1;
            if let Some(name) = self.raw_text.clone() {
                // Only this element's end tag ends raw text.
                let end = format!("</{name}");
                if html.get(lt..lt + end.len()).is_some_and(|t| t.eq_ignore_ascii_case(&end)) {
                    self.raw_text = None;
                    self.end_tag(&name);
                }
                continue;
            }
            if html[lt..].starts_with("<!--") {
                i = html[lt + 4..].find("-->").map_or(html.len(), |p| lt + 4 + p + 3);
                continue;
            }
            let closing = bytes.get(i) == Some(&b'/');
            let start = if closing { i + 1 } else { i };
            let name_len = bytes[start..]
                .iter()
                .take_while(|b| b.is_ascii_alphanumeric() || **b == b'-' || **b == b':')
                .count();
            if name_len == 0 || !bytes[start].is_ascii_alphabetic() {
                continue; // `<!doctype>`, `<?…>`, or a lone `<`
            }
            let name = html[start..start + name_len].to_ascii_lowercase();
            let (end, self_closing) = tag_end(bytes, start + name_len);
            i = end;
            if closing {
                self.end_tag(&name);
            } else {
                self.start_tag(name, self_closing, offset + lt);
            }
        }
    }

    /// The byte offset where the text first nested deeper than [`MAX_NESTING`]; None when it
    /// stayed within.
    pub fn too_deep(&self) -> Option<usize> {
        self.too_deep
    }

    fn start_tag(&mut self, name: String, self_closing: bool, offset: usize) {
        if VOID.contains(&name.as_str()) {
            return;
        }
        if self_closing && self.foreign > 0 {
            return;
        }
        // Implied end tags: what the new element closes.
        match name.as_str() {
            "li" => self.close_within("li", &["ul", "ol"]),
            "dt" | "dd" => {
                self.close_within("dt", &["dl"]);
                self.close_within("dd", &["dl"]);
            }
            "td" | "th" => {
                self.close_within("td", &["tr", "table"]);
                self.close_within("th", &["tr", "table"]);
            }
            "tr" => self.close_within("tr", &["table", "tbody", "thead", "tfoot"]),
            "option" => self.close_within("option", &["select"]),
            _ => {}
        }
        if CLOSES_P.contains(&name.as_str()) && self.html.last().is_some_and(|n| n == "p") {
            self.html.pop();
        }
        if RAW_TEXT.contains(&name.as_str()) {
            self.raw_text = Some(name.clone());
        }
        self.foreign += usize::from(name == "svg" || name == "math");
        self.html.push(name);
        self.seen(offset);
    }

    /// An end tag closes its element and everything opened inside it; one with no open element
    /// of its name closes nothing.
    fn end_tag(&mut self, name: &str) {
        if let Some(at) = self.html.iter().rposition(|n| n == name) {
            self.truncate(at);
        }
    }

    fn truncate(&mut self, len: usize) {
        let closed = &self.html[len..];
        self.foreign -= closed.iter().filter(|n| *n == "svg" || *n == "math").count();
        self.html.truncate(len);
    }

    /// Closes the open `name` nearest the top, unless one of `boundary` is open above it.
    fn close_within(&mut self, name: &str, boundary: &[&str]) {
        for at in (0..self.html.len()).rev() {
            if self.html[at] == name {
                self.truncate(at);
                return;
            }
            if boundary.contains(&self.html[at].as_str()) {
                return;
            }
        }
    }

    fn seen(&mut self, offset: usize) {
        if self.markdown + self.html.len() > MAX_NESTING {
            self.too_deep = Some(offset);
        }
    }
}

/// The index after the `>` that ends a start or end tag whose name ends at `from` (quoted
/// attribute values may hold `>`), and whether the tag ends with `/>`.
fn tag_end(bytes: &[u8], from: usize) -> (usize, bool) {
    let mut quote = None;
    for (i, &b) in bytes.iter().enumerate().skip(from) {
        match (quote, b) {
            (Some(q), _) if b == q => quote = None,
            (Some(_), _) => {}
            (None, b'"' | b'\'') => quote = Some(b),
            (None, b'>') => return (i + 1, i > from && bytes[i - 1] == b'/'),
            _ => {}
        }
    }
    (bytes.len(), false)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The deepest `html` nests (the limit is far above every case here).
    fn depth(html: &str) -> usize {
        let after = |i: usize| {
            let mut n = Nesting::default();
            n.html(&html[..=i], 0);
            n.html.len()
        };
        html.match_indices('>').map(|(i, _)| after(i)).max().unwrap_or(0)
    }

    #[test]
    fn counts_the_elements_a_parser_would_nest() {
        assert_eq!(depth("<div><div><span>x</span></div></div>"), 3);
        assert_eq!(depth("<p>a<br>b<img src=x><hr></p>"), 1);
        assert_eq!(depth("<ul><li>a<li>b<li>c</ul>"), 2, "an li closes the one before");
        assert_eq!(depth("<ul><li><p>a<li><p>b<li><p>c</ul>"), 3);
        assert_eq!(depth("<table><tr><td>1<td>2<tr><td>3</table>"), 3);
        assert_eq!(depth("<p>a<p>b<p>c"), 1);
        assert_eq!(depth("<div title='>'><!-- <div><div> --><b>x</b></div>"), 2);
        assert_eq!(depth("<script>'<div><div><div>'</script><i>x</i>"), 1);
        assert_eq!(depth("<div/><div/><div/>"), 3, "a non-void element is not closed by />");
        assert_eq!(depth("<svg><circle/><circle/></svg>"), 1);
        assert_eq!(depth("</div></div><b>x"), 1, "stray end tags close nothing");
    }

    #[test]
    fn reports_where_the_text_passes_the_limit() {
        let mut n = Nesting::default();
        n.html(&"<div>".repeat(MAX_NESTING + 5), 10);
        assert_eq!(n.too_deep(), Some(10 + 5 * MAX_NESTING));
        let mut n = Nesting::default();
        n.html(&"<div></div>".repeat(100_000), 0);
        assert_eq!(n.too_deep(), None);
        let mut n = Nesting::default();
        (0..MAX_NESTING).for_each(|i| n.open(i));
        n.html("<b>", 1000);
        assert_eq!(n.too_deep(), Some(1000), "Markdown and HTML add up");
    }
}
