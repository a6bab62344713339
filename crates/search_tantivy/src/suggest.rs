//! "Did you mean": each searched word that no listing holds, replaced by the spelling within its
//! typo budget (the first letter kept, as searches keep it) that the most listings hold. The
//! last word is someone still typing: a word that begins with it is held.

use crate::typos_allowed;
use crate::words::first_letter;
use std::collections::HashMap;
use tantivy::query::FuzzyTermQuery;
use tantivy::schema::Field;
use tantivy::{Searcher, Term};

/// The words with each one no listing holds replaced by its likeliest spelling; `None` when
/// every word is held or none has a spelling close enough.
pub(crate) fn suggestion(searcher: &Searcher, any: Field, words: &[String]) -> tantivy::Result<Option<String>> {
    let mut changed = false;
    let mut suggested = Vec::with_capacity(words.len());
    for (position, word) in words.iter().enumerate() {
        match likeliest_spelling(searcher, any, word, position + 1 == words.len())? {
            Some(spelling) => {
                changed = true;
                suggested.push(spelling);
            }
            None => suggested.push(word.clone()),
        }
    }
    Ok(changed.then(|| suggested.join(" ")))
}

/// `None` when `word` is held (or nothing is close to it).
fn likeliest_spelling(searcher: &Searcher, any: Field, word: &str, last: bool) -> tantivy::Result<Option<String>> {
    let term = Term::from_field_text(any, word);
    if searcher.doc_freq(&term)? > 0 {
        return Ok(None);
    }
    let typos = typos_allowed(word);
    let automaton = FuzzyTermQuery::new(term, typos, true).automaton()?;
    let (first, past) = first_letter(word);
    let mut held_by: HashMap<Vec<u8>, u64> = HashMap::new();
    for segment in searcher.segment_readers() {
        let dictionary = segment.inverted_index(any)?;
        if last {
            let mut begun = dictionary.terms().range().ge(word.as_bytes()).into_stream()?;
            if begun.advance() && begun.key().starts_with(word.as_bytes()) {
                return Ok(None);
            }
        }
        if typos == 0 {
            continue;
        }
        let mut spellings = dictionary.terms().search(&automaton).ge(&first).lt(&past).into_stream()?;
        while spellings.advance() {
            *held_by.entry(spellings.key().to_vec()).or_default() += u64::from(spellings.value().doc_freq);
        }
    }
    // The most held; between equals, the first in the dictionary, so the answer never varies.
    let likeliest = held_by.into_iter().max_by(|(a, held_a), (b, held_b)| held_a.cmp(held_b).then_with(|| b.cmp(a)));
    Ok(likeliest.and_then(|(spelling, _)| String::from_utf8(spelling).ok()))
}

#[cfg(test)]
mod tests {
    use crate::TantivyIndex;
    use crate::tests::{doc, words};
    use listings::{SearchDoc, SearchIndex};

    async fn found(index: &TantivyIndex, q: &str) -> Vec<i64> {
        index.search(&words(q, false), 0, 10).await.unwrap().0.into_iter().map(|id| id.get()).collect()
    }

    #[tokio::test]
    async fn category_names_are_searched_and_a_misspelt_word_is_offered_its_likeliest_spelling() {
        let index = TantivyIndex::in_memory().unwrap();
        let filed = |id, name: &str| SearchDoc { topics: vec!["Productivity".into(), "Software".into()], ..doc(id, name, "", "") };
        let docs = vec![
            filed(1, "Quillflow"),
            filed(2, "Taskmill"),
            doc(3, "Productive", "a productive day", ""),
            doc(4, "Productivity Pro", "", ""),
        ];
        index.apply(docs, vec![], 1, true).await.unwrap();
        assert_eq!(found(&index, "productivity").await, [4, 1, 2], "a name match first, then the category's listings");
        assert_eq!(found(&index, "prodcutivity").await, [4, 1, 2], "a transposition is one typo");
        let offer = |q: &'static str| {
            let index = &index;
            async move { index.did_you_mean(q).await.unwrap() }
        };
        assert_eq!(offer("prodcutivity").await.as_deref(), Some("productivity"), "held by three, against one");
        assert_eq!(offer("software prodcutivity").await.as_deref(), Some("software productivity"));
        assert_eq!(offer("productivity").await, None, "a held word is not corrected");
        assert_eq!(offer("produc").await, None, "the last word may be someone still typing");
        assert_eq!(offer("produc software").await, None, "but not before the last, and nothing is that close");
        assert_eq!(offer("zzzzzzzz").await, None, "nothing close");
        assert_eq!(offer("sotfware").await.as_deref(), Some("software"));
    }
}
