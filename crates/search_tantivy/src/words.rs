//! The words of a search as one query: every word, with the typos it may carry, matched in every
//! text field, a document scoring the weights of the fields each word was found in.
//!
//! tantivy's own way (a fuzzy term query per word and field under boolean queries) builds each
//! word's automaton once per field, walks each field's term dictionary with it, fills a bitset
//! per field and sums four unions of bitsets doc by doc. Here each word's automaton is built once
//! and walks one letter of one dictionary, that of a field holding every text field's words;
//! each word it finds is looked up in each text field, and marks the documents holding it in
//! that field as bits: a dense word's bits are ORed in 64 documents at a time from the
//! segment's kept bitsets (`dense`), a rarer word's postings bit by bit. The documents holding
//! every word and filter are the AND of those bits, counted by their ones; the best of them by
//! relevance are found block by block, skipping every block of 64 documents whose fields cannot
//! score high enough (`best`).

use crate::dense::{Aids, Bits, SegmentAids, bit_words, holds, mark_postings};
use crate::order::{ID, column};
use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;
use std::fmt;
use std::sync::Arc;
use tantivy::query::{DfaWrapper, EnableScoring, Explanation, FuzzyTermQuery, Query, Scorer, Weight};
use tantivy::schema::Field;
use tantivy::{DocId, DocSet, Score, Searcher, SegmentReader, TERMINATED, TantivyError, Term};

/// One word: the automaton of the words within its typo budget (and, for the last word, of
/// every word they begin), and the range of the dictionary that starts with its first letter.
#[derive(Clone)]
struct Word {
    automaton: Arc<DfaWrapper>,
    /// The first letter's bytes, and the first key past every word that starts with them.
    first_letter: (Vec<u8>, Vec<u8>),
}

/// A typo is forgiven anywhere but in the first letter. A word's spellings then lie in one
/// letter's part of the dictionary: walking all of it with a two-typo automaton visits every
/// two-character start of every word (all the numbers in 100,000 product names), which cost
/// more than the rest of the search. People rarely mistype a word's first letter, and search
/// engines commonly hold it fixed (Lucene's and Elasticsearch's `prefix_length`).
pub(crate) fn first_letter(word: &str) -> (Vec<u8>, Vec<u8>) {
    let first = word.chars().next().map(|letter| letter.to_string().into_bytes()).unwrap_or_default();
    let mut past = first.clone();
    // The last byte of a UTF-8 character is at most 0xBF (0x7F for ASCII): one more still fits.
    if let Some(last) = past.last_mut() {
        *last += 1;
    }
    (first, past)
}

/// Documents holding every word, each in at least one of `fields`, scored by the sum over the
/// words of the weights of the fields the word was found in.
#[derive(Clone)]
pub(crate) struct WordsQuery {
    words: Vec<Word>,
    /// Terms every document must also hold (the search's filters): read here too, so the
    /// search walks one list of documents instead of intersecting one per filter.
    filters: Vec<Term>,
    /// The field that holds the words of every field in `fields`: walked once per word.
    any: Field,
    fields: Vec<(Field, Score)>,
    aids: Arc<Aids>,
}

impl fmt::Debug for WordsQuery {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("WordsQuery").field("words", &self.words.len()).field("fields", &self.fields).finish()
    }
}

impl WordsQuery {
    /// `words` with the typos each may carry; the last is also matched as the start of a word
    /// (someone still typing). `None` without a word.
    pub(crate) fn new(
        words: &[(String, u8)],
        any: Field,
        fields: Vec<(Field, Score)>,
        filters: Vec<Term>,
        aids: Arc<Aids>,
    ) -> tantivy::Result<Option<Self>> {
        let Some(last) = words.len().checked_sub(1) else { return Ok(None) };
        let words = words
            .iter()
            .enumerate()
            .map(|(position, (word, typos))| {
                let term = Term::from_field_text(any, word);
                let query =
                    if position == last { FuzzyTermQuery::new_prefix(term, *typos, true) } else { FuzzyTermQuery::new(term, *typos, true) };
                Ok(Word { automaton: Arc::new(query.automaton()?), first_letter: first_letter(word) })
            })
            .collect::<tantivy::Result<_>>()?;
        Ok(Some(Self { words, filters, any, fields, aids }))
    }

    /// The documents of one segment holding every word and filter, with where each word is.
    fn matches(&self, reader: &SegmentReader) -> tantivy::Result<Matches> {
        let blocks = bit_words(reader.max_doc());
        let aids = self.aids.of(reader)?;
        let any = reader.inverted_index(self.any)?;
        let fields = self.fields.iter().map(|(field, _)| reader.inverted_index(*field)).collect::<tantivy::Result<Vec<_>>>()?;
        let mut found: Vec<Bits> = vec![Vec::new(); self.words.len() * fields.len()];
        let mut holding: Option<Bits> = None;
        for (word_index, word) in self.words.iter().enumerate() {
            let word_found = &mut found[word_index * fields.len()..][..fields.len()];
            let (first, past) = &word.first_letter;
            let mut spellings = any.terms().search(word.automaton.as_ref()).ge(first).lt(past).into_stream()?;
            while spellings.advance() {
                for ((bits, inverted), (field, _)) in word_found.iter_mut().zip(&fields).zip(&self.fields) {
                    mark(&aids, *field, spellings.key(), inverted, bits, blocks)?;
                }
            }
            let mut holds_word = vec![0; blocks];
            for bits in word_found.iter().filter(|bits| !bits.is_empty()) {
                holds_word.iter_mut().zip(bits).for_each(|(all, some)| *all |= some);
            }
            intersect(&mut holding, holds_word);
        }
        for term in &self.filters {
            let inverted = reader.inverted_index(term.field())?;
            let mut bits = Vec::new();
            mark(&aids, term.field(), term.serialized_value_bytes(), &inverted, &mut bits, blocks)?;
            intersect(&mut holding, if bits.is_empty() { vec![0; blocks] } else { bits });
        }
        let mut holding = holding.unwrap_or_else(|| vec![0; blocks]);
        if let Some(alive) = self.aids.alive(reader) {
            holding.iter_mut().zip(alive.iter()).for_each(|(all, alive)| *all &= alive);
        }
        let total = holding.iter().map(|word| word.count_ones()).sum();
        let weights = self.fields.iter().map(|(_, weight)| *weight).collect();
        Ok(Matches { found, weights, holding, total, aids })
    }

    /// The `take` best documents by relevance (the score, then the lower id) as (score, id),
    /// best first, and how many documents match in all.
    pub(crate) fn best(&self, searcher: &Searcher, take: usize) -> tantivy::Result<(Vec<(Score, u64)>, u64)> {
        let mut best = Vec::new();
        let mut total = 0u64;
        for reader in searcher.segment_readers() {
            let matches = self.matches(reader)?;
            total += u64::from(matches.total);
            if take > 0 && matches.total > 0 {
                best.extend(matches.best(reader, take));
            }
        }
        best.sort_unstable_by_key(|(score, id)| Reverse(Ranked(*score, Reverse(*id))));
        best.truncate(take);
        Ok((best, total))
    }
}

/// Marks the documents holding `term` in `field` in `bits` (made `blocks` words long when the
/// term is there at all): from the segment's dense bitset or from the term's postings.
fn mark(
    aids: &SegmentAids,
    field: Field,
    term: &[u8],
    inverted: &tantivy::InvertedIndexReader,
    bits: &mut Bits,
    blocks: usize,
) -> tantivy::Result<()> {
    if let Some(dense) = aids.dense(field, term) {
        if bits.is_empty() {
            bits.extend_from_slice(dense);
        } else {
            bits.iter_mut().zip(dense.iter()).for_each(|(all, some)| *all |= some);
        }
    } else if let Some(info) = inverted.terms().get(term)? {
        if bits.is_empty() {
            bits.resize(blocks, 0);
        }
        mark_postings(inverted, &info, bits)?;
    }
    Ok(())
}

/// `holding` becomes its AND with `bits` (or `bits`, the first time).
fn intersect(holding: &mut Option<Bits>, bits: Bits) {
    match holding {
        Some(holding) => holding.iter_mut().zip(bits).for_each(|(all, some)| *all &= some),
        None => *holding = Some(bits),
    }
}

/// A score and an id, ordered best first by `Ord`'s greater: the higher score, then the lower id.
#[derive(Clone, Copy, PartialEq)]
struct Ranked(Score, Reverse<u64>);

impl Eq for Ranked {}

impl PartialOrd for Ranked {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Ranked {
    fn cmp(&self, other: &Self) -> Ordering {
        self.0.total_cmp(&other.0).then(self.1.cmp(&other.1))
    }
}

/// One segment's documents holding every word and filter, and where each word was found.
struct Matches {
    /// Word by word, then field by field: the documents holding the word in the field (empty
    /// when none does).
    found: Vec<Bits>,
    /// Each field's weight, in the order of `found`'s fields.
    weights: Vec<Score>,
    holding: Bits,
    total: u32,
    /// The segment's kept aids (each block's lowest id).
    aids: Arc<SegmentAids>,
}

impl Matches {
    /// The weights of the fields each word is found in, for a document of `holding`.
    fn score(&self, doc: DocId) -> Score {
        let fields = self.weights.len();
        self.found.iter().enumerate().filter(|(_, bits)| holds(bits, doc)).map(|(index, _)| self.weights[index % fields]).sum()
    }

    /// The highest score a document of block `block` (64 documents) can have: the weights of
    /// every field holding a word somewhere in the block.
    fn bound(&self, block: usize) -> Score {
        let fields = self.weights.len();
        self.found
            .iter()
            .enumerate()
            .filter(|(_, bits)| bits.get(block).is_some_and(|bits| *bits != 0))
            .map(|(index, _)| self.weights[index % fields])
            .sum()
    }

    /// This segment's `take` best documents as (score, id). A block of 64 documents is skipped
    /// when none of them can pass the weakest kept document: its fields cannot score as high, or
    /// only as high with every id above the weakest's.
    fn best(&self, reader: &SegmentReader, take: usize) -> Vec<(Score, u64)> {
        let ids = column(reader, ID);
        // A deep page asks for thousands; a segment holds no more than its matches.
        let mut kept: BinaryHeap<Reverse<Ranked>> = BinaryHeap::with_capacity(take.min(self.total as usize) + 1);
        for (block, &bits) in self.holding.iter().enumerate() {
            if bits == 0 {
                continue;
            }
            if let (true, Some(Reverse(Ranked(weakest, Reverse(weakest_id))))) = (kept.len() == take, kept.peek()) {
                let bound = self.bound(block);
                let lowest_id = self.aids.block_min_ids.get(block).copied().unwrap_or(0);
                if bound < *weakest || (bound == *weakest && lowest_id > *weakest_id) {
                    continue;
                }
            }
            let mut rest = bits;
            while rest != 0 {
                let doc = (block * 64) as DocId + rest.trailing_zeros();
                rest &= rest - 1;
                let score = self.score(doc);
                if kept.len() == take && kept.peek().is_some_and(|Reverse(weakest)| score < weakest.0) {
                    continue;
                }
                let candidate = Ranked(score, Reverse(ids.get_val(doc)));
                if kept.len() < take {
                    kept.push(Reverse(candidate));
                } else if kept.peek().is_some_and(|Reverse(weakest)| candidate > *weakest) {
                    kept.pop();
                    kept.push(Reverse(candidate));
                }
            }
        }
        kept.into_iter().map(|Reverse(Ranked(score, Reverse(id)))| (score, id)).collect()
    }
}

impl Query for WordsQuery {
    fn weight(&self, _scoring: EnableScoring<'_>) -> tantivy::Result<Box<dyn Weight>> {
        Ok(Box::new(self.clone()))
    }
}

impl Weight for WordsQuery {
    fn scorer(&self, reader: &SegmentReader, boost: Score) -> tantivy::Result<Box<dyn Scorer>> {
        let matches = self.matches(reader)?;
        let mut scorer = WordsScorer { matches, doc: 0, boost };
        scorer.doc = scorer.first_from(0);
        Ok(Box::new(scorer))
    }

    fn explain(&self, reader: &SegmentReader, doc: DocId) -> tantivy::Result<Explanation> {
        let mut scorer = self.scorer(reader, 1.0)?;
        if scorer.seek(doc) != doc {
            return Err(TantivyError::InvalidArgument(format!("document {doc} does not hold every word")));
        }
        Ok(Explanation::new("the weights of the fields each word is found in", scorer.score()))
    }
}

/// The documents holding every word, read off the bits in order.
struct WordsScorer {
    matches: Matches,
    doc: DocId,
    boost: Score,
}

impl WordsScorer {
    /// The first document from `doc` on that holds every word.
    fn first_from(&self, doc: DocId) -> DocId {
        let holding = &self.matches.holding;
        let mut block = doc as usize / 64;
        let Some(&first) = holding.get(block) else { return TERMINATED };
        // The bits of the first block from `doc` on.
        let mut bits = first & (u64::MAX << (doc % 64));
        loop {
            if bits != 0 {
                return (block * 64) as DocId + bits.trailing_zeros();
            }
            block += 1;
            match holding.get(block) {
                Some(&next) => bits = next,
                None => return TERMINATED,
            }
        }
    }
}

impl DocSet for WordsScorer {
    fn advance(&mut self) -> DocId {
        if self.doc != TERMINATED {
            self.doc = self.first_from(self.doc + 1);
        }
        self.doc
    }

    fn seek(&mut self, target: DocId) -> DocId {
        if self.doc != TERMINATED && target > self.doc {
            self.doc = self.first_from(target);
        }
        self.doc
    }

    fn doc(&self) -> DocId {
        self.doc
    }

    fn size_hint(&self) -> u32 {
        self.matches.total
    }
}

impl Scorer for WordsScorer {
    fn score(&mut self) -> Score {
        self.matches.score(self.doc) * self.boost
    }
}

#[cfg(test)]
mod tests {
    use crate::TantivyIndex;
    use crate::order::{ID, column};
    use kernel::ListingId;
    use listings::{IndexOrder, IndexSearch, SearchDoc, SearchIndex};
    use std::cmp::Reverse;
    use tantivy::collector::{Count, TopDocs};
    use tantivy::{DocId, Score, SegmentReader};

    const VOCABULARY: [&str; 12] =
        ["notes", "noted", "invoices", "teams", "remote", "privacy", "product", "products", "design", "open", "source", "analytics"];

    /// A random listing of words from `VOCABULARY`, the same for the same `seed`.
    fn listing(id: i64, seed: &mut u64) -> SearchDoc {
        let mut words = |count: u64| {
            let mut text = Vec::new();
            for _ in 0..count {
                *seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                text.push(VOCABULARY[(*seed >> 33) as usize % VOCABULARY.len()]);
            }
            text.join(" ")
        };
        let (name, tagline, description) = (words(1), words(2), words(4));
        SearchDoc {
            keywords: vec![words(1)],
            upcoming: id % 7 == 0,
            stage: (id % 3 == 0).then(|| "beta".into()),
            ..crate::tests::doc(id, &name, &tagline, &description)
        }
    }

    /// Four commits: ids rising, then falling (ids no longer rise with document order), then a
    /// third of them written again (deleted from older segments), then equal scores.
    async fn corpus(index: &TantivyIndex) {
        let mut seed = 7;
        let first: Vec<SearchDoc> = (1..=400).map(|id| listing(id, &mut seed)).collect();
        index.apply(first, vec![], 1, true).await.unwrap();
        let second: Vec<SearchDoc> = (401..=800).rev().map(|id| listing(id, &mut seed)).collect();
        index.apply(second, vec![], 2, false).await.unwrap();
        let again: Vec<SearchDoc> = (1..=800).filter(|id| id % 3 == 1).map(|id| listing(id, &mut seed)).collect();
        let removed = (1..=800).filter(|id| id % 11 == 0).map(ListingId::new).collect();
        index.apply(again, removed, 3, false).await.unwrap();
        // Equal scores in falling ids: the lowest ids, which win the ties, come last.
        let equal = (1001..=1200).rev().map(|id| SearchDoc { description: "zebra crossing".into(), ..listing(id, &mut seed) });
        index.apply(equal.collect(), vec![], 4, false).await.unwrap();
    }

    fn search(q: &str, beta: bool) -> IndexSearch {
        IndexSearch {
            words: Some(q.into()),
            category: None,
            stage: beta.then(|| "beta".into()),
            country: None,
            pricing_model: None,
            domain: None,
            upcoming: false,
            order: IndexOrder::Relevance,
        }
    }

    /// What tantivy's own collector ranks for the same query: every match scored, the score
    /// then the lower id, and counted one by one.
    fn collected(index: &TantivyIndex, search: &IndexSearch, take: usize) -> (Vec<u64>, usize) {
        let query = index.words_query(search.words.as_deref().unwrap(), index.filters(search)).unwrap();
        let by_score = |segment: &SegmentReader| {
            let id = column(segment, ID);
            move |doc: DocId, score: Score| (score, Reverse(id.get_val(doc)))
        };
        let top = TopDocs::with_limit(take).tweak_score(by_score);
        let (top, total) = index.reader.searcher().search(&query, &(top, Count)).unwrap();
        (top.into_iter().map(|((_, Reverse(id)), _)| id).collect(), total)
    }

    #[tokio::test]
    async fn dense_words_and_skipped_blocks_rank_and_count_as_every_match_scored() {
        // Dense words kept in every segment, however small, and in none: both must answer as
        // the collector does.
        for min_docs in [1, u32::MAX] {
            let index = TantivyIndex::in_memory_dense_from(min_docs).unwrap();
            corpus(&index).await;
            for q in
                ["zebra", "notes", "note", "product design", "invoices teams", "prod", "privacy open source", "anal", "zzz", "teams teams"]
            {
                for beta in [false, true] {
                    let wanted = search(q, beta);
                    let (expected, total) = collected(&index, &wanted, 40);
                    for (offset, limit) in [(0, 10), (0, 25), (10, 15), (24, 5)] {
                        let (ids, counted) = index.search(&wanted, offset, limit).await.unwrap();
                        let ids: Vec<u64> = ids.into_iter().map(|id| id.get() as u64).collect();
                        let page: Vec<u64> = expected.iter().copied().skip(offset).take(limit).collect();
                        assert_eq!((&ids, counted), (&page, total as u64), "{q:?} beta {beta}, {offset}+{limit}, dense from {min_docs}");
                    }
                    assert_eq!(index.passing(&wanted).await.unwrap().len(), total, "{q:?}: the same documents pass");
                }
            }
            assert!(collected(&index, &search("notes", false), 1).1 > 100, "a word most listings hold");
        }
    }
}
