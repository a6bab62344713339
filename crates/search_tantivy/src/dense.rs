//! Words that many of a segment's documents hold, kept as bitsets from the moment the segment
//! is opened, and which of its documents are still alive.
//!
//! A word in every listing ("product" in a directory of products) has a posting per listing: a
//! search decoding them read 100,000 postings per field at 100,000 listings, the whole cost of
//! the search. A segment is never changed once written, so each of its dense words (held by at
//! least one document in `DENSE_SHARE`) is decoded once, when a reload brings the segment in
//! (tantivy's warmers run before the reloaded searcher is used), into a bitset a search ORs in
//! a word (64 documents) at a time. The memory is bounded by the postings: a bitset takes no
//! more room than the postings it stands for once a word is that dense.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use tantivy::index::SegmentId;
use tantivy::schema::{Field, IndexRecordOption};
use tantivy::{DocId, Opstamp, Searcher, SearcherGeneration, SegmentReader, Warmer};

/// A word is kept as a bitset when at least one document in this many holds it.
const DENSE_SHARE: u32 = 32;

/// The documents of a segment as bits: document `d` is bit `d % 64` of word `d / 64`.
pub(crate) type Bits = Vec<u64>;

/// Words of 64 bits that hold `max_doc` documents.
pub(crate) fn bit_words(max_doc: u32) -> usize {
    (max_doc as usize).div_ceil(64)
}

/// Sets the bit of every document in a term's postings.
pub(crate) fn mark_postings(
    inverted: &tantivy::InvertedIndexReader,
    info: &tantivy::postings::TermInfo,
    bits: &mut [u64],
) -> tantivy::Result<()> {
    let mut postings = inverted.read_block_postings_from_terminfo(info, IndexRecordOption::Basic)?;
    while !postings.docs().is_empty() {
        for &doc in postings.docs() {
            bits[doc as usize / 64] |= 1 << (doc % 64);
        }
        postings.advance();
    }
    Ok(())
}

/// What one segment keeps for searches.
pub(crate) struct SegmentAids {
    /// The dense words of each kept field, by their term bytes.
    dense: HashMap<Field, HashMap<Box<[u8]>, Arc<Bits>>>,
    /// The lowest id of each block of 64 documents: ties go to the lower id, so a block whose
    /// ids are all above the weakest kept document's cannot pass it with an equal score either.
    pub block_min_ids: Vec<u64>,
}

impl SegmentAids {
    /// The bitset of `term` in `field` when it is a dense word.
    pub fn dense(&self, field: Field, term: &[u8]) -> Option<&Arc<Bits>> {
        self.dense.get(&field)?.get(term)
    }

    fn build(reader: &SegmentReader, fields: &[Field], min_docs: u32) -> tantivy::Result<Self> {
        let max_doc = reader.max_doc();
        let threshold = (max_doc / DENSE_SHARE).max(1);
        let mut dense: HashMap<Field, HashMap<Box<[u8]>, Arc<Bits>>> = HashMap::new();
        if max_doc >= min_docs {
            for &field in fields {
                let inverted = reader.inverted_index(field)?;
                let mut terms = inverted.terms().stream()?;
                while terms.advance() {
                    let info = terms.value();
                    if info.doc_freq >= threshold {
                        let mut bits = vec![0; bit_words(max_doc)];
                        mark_postings(&inverted, info, &mut bits)?;
                        dense.entry(field).or_default().insert(terms.key().into(), Arc::new(bits));
                    }
                }
            }
        }
        let ids = crate::order::column(reader, crate::order::ID);
        let block_min_ids = (0..max_doc)
            .step_by(64)
            .map(|start| (start..(start + 64).min(max_doc)).map(|doc| ids.get_val(doc)).min().unwrap_or(u64::MAX))
            .collect();
        Ok(Self { dense, block_min_ids })
    }
}

/// A segment as its deletions left it.
type SegmentState = (SegmentId, Option<Opstamp>);

/// The aids of every segment searched, built as reloads bring segments in and dropped as they
/// leave, and each segment's alive documents as bits (a segment keeps its id as documents in it
/// are deleted; each deletion gives it a new delete opstamp).
pub(crate) struct Aids {
    /// The fields whose dense words are kept: the text fields and the filters'.
    fields: Vec<Field>,
    /// Segments smaller than this keep no dense words (their postings are short anyway).
    min_docs: u32,
    segments: Mutex<HashMap<SegmentId, Arc<SegmentAids>>>,
    alive: Mutex<HashMap<SegmentState, Arc<Bits>>>,
}

impl Aids {
    pub fn new(fields: Vec<Field>, min_docs: u32) -> Self {
        Self { fields, min_docs, segments: Mutex::default(), alive: Mutex::default() }
    }

    /// The aids of `reader`'s segment: kept since the reload that brought it in, or built now.
    pub fn of(&self, reader: &SegmentReader) -> tantivy::Result<Arc<SegmentAids>> {
        let id = reader.segment_id();
        if let Some(kept) = self.segments.lock().unwrap_or_else(PoisonError::into_inner).get(&id) {
            return Ok(Arc::clone(kept));
        }
        let built = Arc::new(SegmentAids::build(reader, &self.fields, self.min_docs)?);
        self.segments.lock().unwrap_or_else(PoisonError::into_inner).insert(id, Arc::clone(&built));
        Ok(built)
    }

    /// The alive documents of `reader`'s segment as bits; `None` when none was deleted.
    pub fn alive(&self, reader: &SegmentReader) -> Option<Arc<Bits>> {
        let alive = reader.alive_bitset()?;
        let key = (reader.segment_id(), reader.delete_opstamp());
        if let Some(kept) = self.alive.lock().unwrap_or_else(PoisonError::into_inner).get(&key) {
            return Some(Arc::clone(kept));
        }
        let mut bits = vec![0; bit_words(reader.max_doc())];
        for doc in alive.iter_alive() {
            bits[doc as usize / 64] |= 1 << (doc % 64);
        }
        let bits = Arc::new(bits);
        self.alive.lock().unwrap_or_else(PoisonError::into_inner).insert(key, Arc::clone(&bits));
        Some(bits)
    }
}

impl Warmer for Aids {
    fn warm(&self, searcher: &Searcher) -> tantivy::Result<()> {
        for reader in searcher.segment_readers() {
            self.of(reader)?;
            self.alive(reader);
        }
        Ok(())
    }

    fn garbage_collect(&self, live: &[&SearcherGeneration]) {
        let in_use = |id: &SegmentId, opstamp: Option<Option<Opstamp>>| {
            live.iter().any(|generation| match (generation.segments().get(id), opstamp) {
                (Some(_), None) => true,
                (Some(kept), Some(opstamp)) => *kept == opstamp,
                (None, _) => false,
            })
        };
        self.segments.lock().unwrap_or_else(PoisonError::into_inner).retain(|id, _| in_use(id, None));
        self.alive.lock().unwrap_or_else(PoisonError::into_inner).retain(|(id, opstamp), _| in_use(id, Some(*opstamp)));
    }
}

/// Whether document `doc` is among `bits`.
pub(crate) fn holds(bits: &[u64], doc: DocId) -> bool {
    bits.get(doc as usize / 64).is_some_and(|word| word & (1 << (doc % 64)) != 0)
}
