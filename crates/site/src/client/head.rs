//! The page head as data: `result.head` in page-data.

use crate::plan::Head;
use crate::props::PageHead;

impl<'a> From<&'a Head> for PageHead<'a> {
    fn from(h: &'a Head) -> Self {
        Self {
            title: &h.title,
            description: &h.description,
            canonical: &h.canonical,
            og_type: h.og_type,
            image: h.image.as_deref(),
            published: h.published.as_deref(),
            prev: h.prev.as_deref(),
            next: h.next.as_deref(),
            noindex: h.noindex,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn carries_what_a_navigation_changes_in_the_document_head_but_not_json_ld() {
        let head = Head {
            title: "Body Scan | S".into(),
            description: "d".into(),
            canonical: "https://s.example/articles/body-scan".into(),
            og_type: "article",
            image: Some("https://s.example/i.svg".into()),
            published: Some("2025-03-02".into()),
            prev: None,
            next: Some("/x/page/2".into()),
            json_ld: vec![
                serde_json::value::to_raw_value(&serde_json::json!({"@type": "Article"})).unwrap(),
            ],
            noindex: false,
        };
        let json: serde_json::Value = serde_json::to_value(PageHead::from(&head)).unwrap();
        assert_eq!(
            json,
            serde_json::json!({
                "title": "Body Scan | S",
                "description": "d",
                "canonical": "https://s.example/articles/body-scan",
                "ogType": "article",
                "image": "https://s.example/i.svg",
                "published": "2025-03-02",
                "prev": null,
                "next": "/x/page/2",
                "noindex": false,
            })
        );
    }
}
