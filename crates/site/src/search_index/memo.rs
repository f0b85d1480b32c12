//! The index as the last build left it, kept between the builds of a `dev` session: an edit of a
//! few titles lists again only their keys, where listing every title's keys costs a few hundred
//! milliseconds at 100,000 articles. The files are then encoded from the keys as a new index
//! would be, so the bytes are those of [`build_index`](super::build_index) by construction.

use super::{
    Doc, Group, Layout, Postings, SearchIndex, chunk_files, encode, encode_keys, for_each_gram,
    postings, postings_part,
};

/// How many parts a memo-less index lists its keys in ([`SearchMemo::build_once`]).
const KEY_PARTS: usize = 4;
use crate::plan::Held;

/// More titles changed than this: every key is listed again.
const UPDATE_AT_MOST: usize = 64;

/// Every document of `docs`, read.
fn read_all(docs: &DocSource) -> Vec<Doc> {
    let mut buf = Vec::new();
    (0..docs.count)
        .map(|id| {
            let (title, slug) = (docs.doc)(id, &mut buf);
            Doc { title: title.to_string(), slug: slug.to_string(), groups: buf.clone() }
        })
        .collect()
}

/// The documents and keys of the last index.
pub struct SearchMemo {
    docs: Vec<Doc>,
    /// The article each document was read from, where the reader said.
    sources: Vec<Option<Held>>,
    groups: Vec<Group>,
    postings: Postings,
}

/// Reads document `id`: its title and slug; its groups are written into the buffer.
pub type ReadDoc<'d> = dyn Fn(usize, &mut Vec<u32>) -> (&'d str, &'d str) + 'd;

/// The documents of an index, read on demand, oldest first.
pub struct DocSource<'d> {
    pub count: usize,
    /// Document `id`'s title and slug; its groups are written into the buffer.
    pub doc: &'d ReadDoc<'d>,
    /// The article document `id` is read from, when the reader can tell. A document read from
    /// the same article ([`Held::is`]) as last time, with `same_groups`, is the memo's as it
    /// is, and is not read at all: at 100,000 articles, reading every title to compare it
    /// costs more than the keys an edit changes.
    pub source: &'d dyn Fn(usize) -> Option<Held>,
    /// Every document is in the groups it was in last time (the placement is the same).
    pub same_groups: bool,
}

impl SearchMemo {
    /// The index of `docs`, from `memo` when it holds the same documents but for a few titles;
    /// `memo` then holds `docs`.
    #[cfg(test)]
    pub fn update(
        memo: &mut Option<SearchMemo>,
        docs: Vec<Doc>,
        groups: Vec<Group>,
        layout: Layout,
    ) -> SearchIndex {
        let view = |id: usize, buf: &mut Vec<u32>| {
            let doc: &Doc = &docs[id];
            buf.clone_from(&doc.groups);
            (doc.title.as_str(), doc.slug.as_str())
        };
        let source =
            DocSource { count: docs.len(), doc: &view, source: &|_| None, same_groups: false };
        Self::update_from(memo, &source, groups, layout)
    }

    /// [`update`](Self::update) with the documents read from `docs`, so that a memo holding
    /// them already copies only those that changed.
    pub fn update_from(
        memo: &mut Option<SearchMemo>,
        docs: &DocSource,
        groups: Vec<Group>,
        layout: Layout,
    ) -> SearchIndex {
        let DocSource { count, doc, source, same_groups } = *docs;
        let kept = memo.take().filter(|m| m.docs.len() == count && m.groups == groups);
        let memo = memo.insert(match kept {
            Some(mut m) => {
                let mut retitled = 0;
                let mut buf = Vec::new();
                for id in 0..count {
                    let from = source(id);
                    let same_source = match (&from, &m.sources[id]) {
                        (Some(a), Some(b)) => a.is(b),
                        _ => false,
                    };
                    if same_source && same_groups {
                        continue;
                    }
                    m.sources[id] = from;
                    let (title, slug) = doc(id, &mut buf);
                    if m.docs[id].title != title {
                        retitled += 1;
                        if retitled <= UPDATE_AT_MOST {
                            m.retitle(id, title);
                        }
                        m.docs[id].title = title.to_string();
                    }
                    let d = &mut m.docs[id];
                    if d.slug != slug {
                        d.slug = slug.to_string();
                    }
                    if d.groups != buf {
                        d.groups.clone_from(&buf);
                    }
                }
                if retitled > UPDATE_AT_MOST {
                    m.postings = postings(&m.docs);
                }
                m
            }
            None => {
                let docs = read_all(docs);
                let sources = (0..count).map(source).collect();
                SearchMemo { postings: postings(&docs), docs, sources, groups }
            }
        });
        encode(&memo.docs, &memo.groups, &memo.postings, layout)
    }

    /// The index of `docs` when no memo is kept (a build whose process ends with it): the same
    /// bytes, made with less at once. Once the title chunks are encoded only the titles are
    /// kept, and the keys are listed and encoded a part at a time ([`KEY_PARTS`] passes over the
    /// titles): at 1,000,000 articles the keys' lists are about half a gigabyte, the largest
    /// thing a clean build holds for a moment.
    pub fn build_once(docs: &DocSource, groups: &[Group], layout: Layout) -> SearchIndex {
        let docs = read_all(docs);
        let chunks = chunk_files(&docs, layout);
        let titles: Vec<String> = docs.into_iter().map(|d| d.title).collect();
        let parts = (0..KEY_PARTS).map(|part| postings_part(&titles, |t| t, part, KEY_PARTS));
        encode_keys(titles.len(), chunks, groups, parts, layout)
    }

    /// Moves document `id` from the keys of its title to those of `title` (the caller then sets
    /// the title).
    fn retitle(&mut self, id: usize, title: &str) {
        let id = u32::try_from(id).expect("fewer than 2^32 documents");
        for_each_gram(&self.docs[id as usize].title, |gram| {
            if let Some(ids) = self.postings.get_mut(&gram)
                && let Ok(at) = ids.binary_search(&id)
            {
                ids.remove(at);
                if ids.is_empty() {
                    self.postings.remove(&gram);
                }
            }
        });
        for_each_gram(title, |gram| {
            let ids = self.postings.entry(gram).or_default();
            if let Err(at) = ids.binary_search(&id) {
                ids.insert(at, id);
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::super::build_index;
    use super::*;
    use proptest::prelude::*;

    const SMALL: Layout =
        Layout { chunk: 2, segment: 4, piece: 3, inline_bytes: 2, shard_bytes: 16 };

    /// Documents whose slugs and groups change with their titles, so an edit changes all three.
    fn docs(titles: &[String]) -> Vec<Doc> {
        let doc = |t: &String| Doc {
            title: t.clone(),
            slug: format!("s{}", t.len() % 3),
            groups: vec![u32::from(t.len().is_multiple_of(2))],
        };
        titles.iter().map(doc).collect()
    }

    fn groups() -> Vec<Group> {
        vec![
            ["A".into(), "/a".into(), "B".into(), "/a/b".into()],
            ["C".into(), "/c".into(), "D".into(), "/c/d".into()],
        ]
    }

    proptest! {
        /// Retitling through the memo gives the bytes of an index built afresh, build after build.
        #[test]
        fn an_updated_index_is_the_one_built_afresh(
            first in prop::collection::vec("[abcσς ]{0,6}", 1..12),
            edits in prop::collection::vec((0usize..12, "[abcσς ]{0,6}"), 0..8),
        ) {
            let mut titles = first;
            let mut memo = None;
            SearchMemo::update(&mut memo, docs(&titles), groups(), SMALL);
            for (at, title) in edits {
                let at = at % titles.len();
                titles[at] = title;
                let updated = SearchMemo::update(&mut memo, docs(&titles), groups(), SMALL);
                prop_assert_eq!(&updated, &build_index(&docs(&titles), &groups(), SMALL));
                // Built once, without a memo: the same bytes.
                let all = docs(&titles);
                let view = |id: usize, buf: &mut Vec<u32>| {
                    buf.clone_from(&all[id].groups);
                    (all[id].title.as_str(), all[id].slug.as_str())
                };
                let source =
                    DocSource { count: all.len(), doc: &view, source: &|_| None, same_groups: false };
                prop_assert_eq!(SearchMemo::build_once(&source, &groups(), SMALL), updated);
            }
        }
    }

    #[test]
    fn more_retitles_than_it_updates_list_every_key_again() {
        let titles: Vec<String> = (0..UPDATE_AT_MOST + 6).map(|i| format!("calm {i}")).collect();
        let mut memo = None;
        SearchMemo::update(&mut memo, docs(&titles), groups(), SMALL);
        let retitled: Vec<String> = titles.iter().map(|t| format!("{t} breath")).collect();
        let index = SearchMemo::update(&mut memo, docs(&retitled), groups(), SMALL);
        assert_eq!(index, build_index(&docs(&retitled), &groups(), SMALL));
    }

    #[test]
    fn another_document_count_or_group_table_lists_every_key_again() {
        let titles: Vec<String> = ["calm", "breath"].map(String::from).to_vec();
        let mut memo = None;
        SearchMemo::update(&mut memo, docs(&titles), groups(), SMALL);
        let more: Vec<String> = ["calm", "breath", "rest"].map(String::from).to_vec();
        let index = SearchMemo::update(&mut memo, docs(&more), groups(), SMALL);
        assert_eq!(index, build_index(&docs(&more), &groups(), SMALL));
        let other = vec![["C".into(), "/c".into(), "D".into(), "/c/d".into()]];
        let index = SearchMemo::update(&mut memo, docs(&more), other.clone(), SMALL);
        assert_eq!(index, build_index(&docs(&more), &other, SMALL));
    }
}
