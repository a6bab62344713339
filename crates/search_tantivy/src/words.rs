//! The words of a search as one query: every word, with the typos it may carry, matched in every
//! text field, a document scoring the weights of the fields each word was found in.
//!
//! tantivy's own way (a fuzzy term query per word and field under boolean queries) builds each
//! word's automaton once per field, walks each field's term dictionary with it, fills a bitset
//! per field and sums four unions of bitsets doc by doc. A word that is in every listing made
//! that the whole cost of a search. Here each word's automaton is built once and walks one
//! letter of one dictionary, that of a field holding every text field's words; each word it
//! finds is looked up in each text field, whose postings mark one byte per document and word;
//! and the documents holding every word are read off those bytes as the search asks for them.

use std::fmt;
use std::sync::Arc;
use tantivy::query::{DfaWrapper, EnableScoring, Explanation, FuzzyTermQuery, Query, Scorer, Weight};
use tantivy::schema::{Field, IndexRecordOption};
use tantivy::{DocId, DocSet, Score, SegmentReader, TERMINATED, TantivyError, Term};

/// At most this many text fields: a word's fields are marked as bits of one byte.
const MAX_FIELDS: usize = 8;

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
fn first_letter(word: &str) -> (Vec<u8>, Vec<u8>) {
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
}

impl fmt::Debug for WordsQuery {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("WordsQuery").field("words", &self.words.len()).field("fields", &self.fields).finish()
    }
}

impl WordsQuery {
    /// `words` with the typos each may carry; the last is also matched as the start of a word
    /// (someone still typing). `None` without a word, or with more fields than a byte holds.
    pub(crate) fn new(
        words: &[(String, u8)],
        any: Field,
        fields: Vec<(Field, Score)>,
        filters: Vec<Term>,
    ) -> tantivy::Result<Option<Self>> {
        let Some(last) = words.len().checked_sub(1) else { return Ok(None) };
        if fields.len() > MAX_FIELDS {
            return Err(TantivyError::InvalidArgument(format!("a words query reads at most {MAX_FIELDS} fields")));
        }
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
        Ok(Some(Self { words, filters, any, fields }))
    }

    /// The score of being found in the fields each mask names, one bit per field.
    fn weights(&self) -> Arc<[Score; 1 << MAX_FIELDS]> {
        let mut table = [0.0; 1 << MAX_FIELDS];
        for (mask, score) in table.iter_mut().enumerate() {
            *score = self.fields.iter().enumerate().filter(|(bit, _)| mask & (1 << bit) != 0).map(|(_, (_, weight))| weight).sum();
        }
        Arc::new(table)
    }
}

impl Query for WordsQuery {
    fn weight(&self, _scoring: EnableScoring<'_>) -> tantivy::Result<Box<dyn Weight>> {
        Ok(Box::new(self.clone()))
    }
}

impl Weight for WordsQuery {
    fn scorer(&self, reader: &SegmentReader, boost: Score) -> tantivy::Result<Box<dyn Scorer>> {
        let max_doc = reader.max_doc() as usize;
        // A slot per word, then one per filter.
        let slots = self.words.len() + self.filters.len();
        let any = reader.inverted_index(self.any)?;
        let fields = self.fields.iter().map(|(field, _)| reader.inverted_index(*field)).collect::<tantivy::Result<Vec<_>>>()?;
        // Document by document, then slot by slot: the fields each word is in, one bit each,
        // and whether each filter holds.
        let mut marks = vec![0u8; max_doc * slots];
        // How many documents hold the rarest word: what a search costs to walk.
        let mut fewest = max_doc as u32;
        for (word_index, word) in self.words.iter().enumerate() {
            let mut holding = 0u32;
            let (first, past) = &word.first_letter;
            let mut found = any.terms().search(word.automaton.as_ref()).ge(first).lt(past).into_stream()?;
            while found.advance() {
                for (bit, field) in fields.iter().enumerate() {
                    let Some(info) = field.terms().get(found.key())? else { continue };
                    let mut postings = field.read_block_postings_from_terminfo(&info, IndexRecordOption::Basic)?;
                    while !postings.docs().is_empty() {
                        for &doc in postings.docs() {
                            let mark = &mut marks[doc as usize * slots + word_index];
                            holding += u32::from(*mark == 0);
                            *mark |= 1 << bit;
                        }
                        postings.advance();
                    }
                }
            }
            fewest = fewest.min(holding);
        }
        for (filter_index, term) in self.filters.iter().enumerate() {
            let slot = self.words.len() + filter_index;
            let inverted = reader.inverted_index(term.field())?;
            let Some(info) = inverted.get_term_info(term)? else {
                // No document holds it: nothing passes.
                fewest = 0;
                marks.clear();
                break;
            };
            fewest = fewest.min(info.doc_freq);
            let mut postings = inverted.read_block_postings_from_terminfo(&info, IndexRecordOption::Basic)?;
            while !postings.docs().is_empty() {
                for &doc in postings.docs() {
                    marks[doc as usize * slots + slot] = 1;
                }
                postings.advance();
            }
        }
        let words = self.words.len();
        let mut scorer = WordsScorer { marks, slots, words, doc: 0, fewest, weights: self.weights(), boost };
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

/// The documents holding every word, read off the marks in order.
struct WordsScorer {
    /// `slots` bytes per document: the fields each word was found in, then whether each filter
    /// holds.
    marks: Vec<u8>,
    slots: usize,
    /// The slots that are words, and score.
    words: usize,
    doc: DocId,
    fewest: u32,
    weights: Arc<[Score; 1 << MAX_FIELDS]>,
    boost: Score,
}

impl WordsScorer {
    /// The first document from `doc` on that holds every word.
    fn first_from(&self, doc: DocId) -> DocId {
        let start = doc as usize * self.slots;
        let rest = self.marks.get(start..).unwrap_or_default();
        rest.chunks_exact(self.slots)
            .position(|marks| marks.iter().all(|mark| *mark != 0))
            .map_or(TERMINATED, |offset| doc + offset as DocId)
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
        self.fewest
    }
}

impl Scorer for WordsScorer {
    fn score(&mut self) -> Score {
        let start = self.doc as usize * self.slots;
        match self.marks.get(start..start + self.words) {
            Some(marks) => marks.iter().map(|mark| self.weights[*mark as usize]).sum::<Score>() * self.boost,
            None => 0.0,
        }
    }
}
