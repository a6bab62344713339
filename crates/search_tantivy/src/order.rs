//! How a search's matches are ordered and collected: sort keys read off fast fields (ties to
//! the lower id), and every matching id for orders kept outside the index.

use std::cmp::Reverse;
use std::sync::Arc;
use tantivy::collector::{Collector, SegmentCollector};
use tantivy::columnar::{ColumnIndex, ColumnValues};
use tantivy::{DocId, Score, SegmentOrdinal, SegmentReader};

/// The fast fields searches sort by (and the id, which breaks their ties).
pub(crate) const ID: &str = "id";
pub(crate) const VOTES: &str = "votes";
pub(crate) const VIEWS: &str = "views";
pub(crate) const FOLLOWS: &str = "follows";
pub(crate) const PUBLISHED: &str = "published";

/// A fast field's values in one segment. Every field named here is in the index's schema, and a
/// document without a value reads as 0.
pub(crate) fn column(segment: &SegmentReader, name: &str) -> Arc<dyn ColumnValues<u64>> {
    let column = segment.fast_fields().u64(name).expect("the schema declares this u64 fast field");
    match column.index {
        // Every document holds a value (every listing has an id and counts): read it straight,
        // without asking the index which row each document's value is in.
        ColumnIndex::Full => column.values,
        _ => column.first_or_default_col(0),
    }
}

/// A segment's sort key of each document: a value, highest first, then the lower id.
pub(crate) type SegmentKey<T> = Box<dyn FnMut(DocId) -> (T, Reverse<u64>) + Send>;

/// Sorts by a u64 fast field, highest first, ties to the lower id.
pub(crate) fn by_u64(name: &'static str) -> impl Fn(&SegmentReader) -> SegmentKey<u64> + Send + Sync + 'static {
    move |segment: &SegmentReader| {
        let (value, id) = (column(segment, name), column(segment, ID));
        Box::new(move |doc: DocId| (value.get_val(doc), Reverse(id.get_val(doc))))
    }
}

/// Sorts by publication, newest first, ties to the lower id.
pub(crate) fn by_published(segment: &SegmentReader) -> SegmentKey<i64> {
    let published = segment.fast_fields().i64(PUBLISHED).expect("the schema declares this i64 fast field").first_or_default_col(0);
    let id = column(segment, ID);
    Box::new(move |doc: DocId| (published.get_val(doc), Reverse(id.get_val(doc))))
}

/// Collects the id of every document that passes, ascending.
pub(crate) struct AllIds;

pub(crate) struct SegmentIds {
    id: Arc<dyn ColumnValues<u64>>,
    ids: Vec<u64>,
}

impl Collector for AllIds {
    type Fruit = Vec<u64>;
    type Child = SegmentIds;

    fn for_segment(&self, _: SegmentOrdinal, segment: &SegmentReader) -> tantivy::Result<SegmentIds> {
        Ok(SegmentIds { id: segment.fast_fields().u64(ID)?.first_or_default_col(0), ids: Vec::new() })
    }

    fn requires_scoring(&self) -> bool {
        false
    }

    fn merge_fruits(&self, fruits: Vec<Vec<u64>>) -> tantivy::Result<Vec<u64>> {
        let mut ids = fruits.concat();
        ids.sort_unstable();
        Ok(ids)
    }
}

impl SegmentCollector for SegmentIds {
    type Fruit = Vec<u64>;

    fn collect(&mut self, doc: DocId, _: Score) {
        self.ids.push(self.id.get_val(doc));
    }

    fn harvest(self) -> Vec<u64> {
        self.ids
    }
}
