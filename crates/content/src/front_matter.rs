//! Splitting a Markdown file into its YAML front matter and body.

/// A file split at its front matter fences.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Split<'a> {
    /// The YAML between the fences (without them).
    pub yaml: &'a str,
    /// 1-based line of the first YAML line in the file.
    pub yaml_line: u32,
    pub body: &'a str,
    /// 1-based line of the first body line in the file.
    pub body_line: u32,
}

/// Why a file has no well-formed front matter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SplitError {
    /// The file does not start with a `---` line.
    NoOpeningFence,
    /// No closing `---` (or `...`) line.
    Unclosed,
}

/// Splits `---\nyaml\n---\nbody`. A UTF-8 BOM and CRLF line ends are accepted.
pub fn split(text: &str) -> Result<Split<'_>, SplitError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let first_end = text.find('\n').map_or(text.len(), |i| i + 1);
    if text[..first_end].trim_end() != "---" {
        return Err(SplitError::NoOpeningFence);
    }
    let mut pos = first_end;
    let mut line = 2u32;
    while pos < text.len() {
        let end = text[pos..].find('\n').map_or(text.len(), |i| pos + i + 1);
        let l = text[pos..end].trim_end();
        if l == "---" || l == "..." {
            return Ok(Split {
                yaml: &text[first_end..pos],
                yaml_line: 2,
                body: &text[end..],
                body_line: line + 1,
            });
        }
        pos = end;
        line += 1;
    }
    Err(SplitError::Unclosed)
}

/// Splits optional front matter: a file without a leading `---` is all body.
pub fn split_optional(text: &str) -> Result<Split<'_>, SplitError> {
    match split(text) {
        Err(SplitError::NoOpeningFence) => {
            Ok(Split { yaml: "", yaml_line: 1, body: text, body_line: 1 })
        }
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_with_line_numbers() {
        let s = split("---\ntitle: x\nslug: y\n---\n# Body\n").unwrap();
        assert_eq!(s.yaml, "title: x\nslug: y\n");
        assert_eq!(s.body, "# Body\n");
        assert_eq!(s.body_line, 5);
    }

    #[test]
    fn crlf_bom_and_dots() {
        let s = split("\u{feff}---\r\na: 1\r\n...\r\nbody").unwrap();
        assert_eq!(s.yaml, "a: 1\r\n");
        assert_eq!(s.body, "body");
    }

    #[test]
    fn errors() {
        assert_eq!(split("title: x\n"), Err(SplitError::NoOpeningFence));
        assert_eq!(split("---\ntitle: x\n"), Err(SplitError::Unclosed));
        assert_eq!(split(""), Err(SplitError::NoOpeningFence));
        assert_eq!(split_optional("just body").unwrap().body, "just body");
    }

    #[test]
    fn a_dash_line_inside_yaml_text_is_not_a_fence_unless_alone() {
        let s = split("---\na: \"--- not\"\n---\n").unwrap();
        assert_eq!(s.yaml, "a: \"--- not\"\n");
        assert_eq!(s.body, "");
    }
}
