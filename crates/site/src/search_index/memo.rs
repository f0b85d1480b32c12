//! The index as the last build left it, kept between the builds of a `dev` session: an edit of a
//! few titles lists again only their keys, where listing every title's keys costs a few hundred
//! milliseconds at 100,000 articles. The files are then encoded from the keys as a new index
//! would be, so the bytes are those of [`build_index`](super::build_index) by construction.

use super::{Doc, Group, Layout, Postings, SearchIndex, encode, for_each_gram, postings};

/// More titles changed than this: every key is listed again.
const UPDATE_AT_MOST: usize = 64;

/// The documents and keys of the last index.
pub struct SearchMemo {
    docs: Vec<Doc>,
    groups: Vec<Group>,
    postings: Postings,
}

impl SearchMemo {
    /// The index of `docs`, from `memo` when it holds the same documents but for a few titles;
    /// `memo` then holds `docs`.
    pub fn update(
        memo: &mut Option<SearchMemo>,
        docs: Vec<Doc>,
        groups: Vec<Group>,
        layout: Layout,
    ) -> SearchIndex {
        let kept = memo.take().filter(|m| m.docs.len() == docs.len() && m.groups == groups);
        let postings = match kept {
            Some(mut m) => {
                let changed: Vec<usize> = (0..docs.len())
                    .filter(|&i| m.docs[i].title != docs[i].title)
                    .take(UPDATE_AT_MOST + 1)
                    .collect();
                if changed.len() > UPDATE_AT_MOST {
                    postings(&docs)
                } else {
                    for i in changed {
                        m.retitle(i, &docs[i].title);
                    }
                    m.postings
                }
            }
            None => postings(&docs),
        };
        let index = encode(&docs, &groups, &postings, layout);
        *memo = Some(SearchMemo { docs, groups, postings });
        index
    }

    /// Moves document `id` from the keys of its title to those of `title`.
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
        self.docs[id as usize].title = title.to_string();
    }
}

#[cfg(test)]
mod tests {
    use super::super::build_index;
    use super::*;
    use proptest::prelude::*;

    const SMALL: Layout =
        Layout { chunk: 2, segment: 4, piece: 3, inline_bytes: 2, shard_bytes: 16 };

    fn docs(titles: &[String]) -> Vec<Doc> {
        titles.iter().map(|t| Doc { title: t.clone(), slug: "s".into(), groups: vec![0] }).collect()
    }

    fn groups() -> Vec<Group> {
        vec![["A".into(), "/a".into(), "B".into(), "/a/b".into()]]
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
                prop_assert_eq!(updated, build_index(&docs(&titles), &groups(), SMALL));
            }
        }
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
