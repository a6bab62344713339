#![doc = include_str!("../README.md")]

use async_trait::async_trait;
use kernel::{ListingId, RepoError};
use listings::{SearchDoc, SearchIndex};
use std::collections::HashMap;
use std::path::Path;
use std::sync::Mutex;
use tantivy::collector::{Count, TopDocs};
use tantivy::query::{BooleanQuery, BoostQuery, FuzzyTermQuery, Occur, Query, TermQuery};
use tantivy::schema::{FAST, Field, INDEXED, IndexRecordOption, STRING, Schema, TEXT};
use tantivy::{Index, IndexReader, IndexWriter, ReloadPolicy, SegmentOrdinal, TantivyDocument, Term};

/// Field weights: a match in the name outranks one in the description.
const BOOSTS: [(&str, f32); 4] = [("name", 4.0), ("tagline", 2.0), ("keywords", 1.5), ("description", 1.0)];
/// The writer's memory budget (tantivy's minimum is 15 MB per thread).
const WRITER_HEAP: usize = 20_000_000;
/// The version of the fields below: a kept index of another version is read again in full.
const SCHEMA_VERSION: u32 = 1;
/// What each commit keeps beside the documents: the schema version and the change-feed
/// position, as `launchdir-search <version> <position>`.
const PAYLOAD_PREFIX: &str = "launchdir-search";

struct Fields {
    id: Field,
    /// `live` or `upcoming`, so the index alone can answer a search of either.
    state: Field,
    text: [Field; 4],
}

/// A tantivy index of listings.
pub struct TantivyIndex {
    index: Index,
    reader: IndexReader,
    writer: Mutex<IndexWriter>,
    fields: Fields,
}

fn err(error: impl std::error::Error + Send + Sync + 'static) -> RepoError {
    RepoError::backend(error)
}

/// How many typos a word may carry: none under 4 letters, one up to 7, two from 8.
pub fn typos_allowed(word: &str) -> u8 {
    match word.chars().count() {
        0..=3 => 0,
        4..=7 => 1,
        _ => 2,
    }
}

fn schema() -> (Schema, Fields) {
    let mut builder = Schema::builder();
    // A fast field: reading ids of thousands of matches must not touch the document store.
    let id = builder.add_u64_field("id", INDEXED | FAST);
    let state = builder.add_text_field("state", STRING);
    let text = BOOSTS.map(|(name, _)| builder.add_text_field(name, TEXT));
    (builder.build(), Fields { id, state, text })
}

impl TantivyIndex {
    /// An index in memory (rebuilt from the database at start).
    pub fn in_memory() -> Result<Self, RepoError> {
        let (schema, fields) = schema();
        Self::with_index(Index::create_in_ram(schema), fields)
    }

    /// An index kept in `dir`, so a restart goes on from where it stood. A missing, unreadable
    /// or other-version index is made anew (empty; the first sync reads everything into it).
    /// A second process on the same directory is refused: each server keeps its own index.
    pub fn in_dir(dir: &Path) -> Result<Self, RepoError> {
        let (schema, fields) = schema();
        std::fs::create_dir_all(dir).map_err(err)?;
        let open = || -> Result<Index, RepoError> {
            let directory = tantivy::directory::MmapDirectory::open(dir).map_err(err)?;
            Index::open_or_create(directory, schema.clone()).map_err(err)
        };
        let index = match open() {
            Ok(index) if kept(&index).is_ok() => index,
            _ => {
                // Made by another version (or damaged): start again from the database.
                std::fs::remove_dir_all(dir).map_err(err)?;
                std::fs::create_dir_all(dir).map_err(err)?;
                open()?
            }
        };
        Self::with_index(index, fields)
    }

    fn with_index(index: Index, fields: Fields) -> Result<Self, RepoError> {
        // A busy lock means another server process writes this index.
        let writer = index.writer_with_num_threads(1, WRITER_HEAP).map_err(err)?;
        let reader = index.reader_builder().reload_policy(ReloadPolicy::Manual).try_into().map_err(err)?;
        Ok(Self { index, reader, writer: Mutex::new(writer), fields })
    }

    fn query(&self, text: &str, upcoming: bool) -> Option<Box<dyn Query>> {
        let mut tokenizer = self.index.tokenizer_for_field(self.fields.text[0]).ok()?;
        let mut words = Vec::new();
        let mut stream = tokenizer.token_stream(text);
        while let Some(token) = stream.next() {
            words.push(token.text.clone());
        }
        let last = words.len().checked_sub(1)?;
        let state = Term::from_field_text(self.fields.state, if upcoming { "upcoming" } else { "live" });
        let mut clauses: Vec<(Occur, Box<dyn Query>)> = vec![(Occur::Must, Box::new(TermQuery::new(state, IndexRecordOption::Basic)))];
        let word_clauses: Vec<(Occur, Box<dyn Query>)> = words
            .iter()
            .enumerate()
            .map(|(position, word)| {
                let distance = typos_allowed(word);
                let per_field: Vec<(Occur, Box<dyn Query>)> = self
                    .fields
                    .text
                    .iter()
                    .zip(BOOSTS)
                    .map(|(field, (_, boost))| {
                        let term = Term::from_field_text(*field, word);
                        let fuzzy = if position == last {
                            FuzzyTermQuery::new_prefix(term, distance, true)
                        } else {
                            FuzzyTermQuery::new(term, distance, true)
                        };
                        (Occur::Should, Box::new(BoostQuery::new(Box::new(fuzzy), boost)) as Box<dyn Query>)
                    })
                    .collect();
                (Occur::Must, Box::new(BooleanQuery::new(per_field)) as Box<dyn Query>)
            })
            .collect();
        clauses.extend(word_clauses);
        Some(Box::new(BooleanQuery::new(clauses)))
    }
}

/// The change-feed position kept with the index's last commit; `None` for a new index; an
/// error for an index of another schema version or a payload that is not ours.
fn kept(index: &Index) -> Result<Option<u64>, RepoError> {
    let Some(payload) = index.load_metas().map_err(err)?.payload else { return Ok(None) };
    let mut parts = payload.split(' ');
    match (parts.next(), parts.next().and_then(|v| v.parse::<u32>().ok()), parts.next().and_then(|p| p.parse::<u64>().ok())) {
        (Some(PAYLOAD_PREFIX), Some(SCHEMA_VERSION), Some(position)) => Ok(Some(position)),
        _ => Err(RepoError::backend(std::io::Error::other(format!("the search index was written by another version ({payload})")))),
    }
}

#[async_trait]
impl SearchIndex for TantivyIndex {
    async fn matching(&self, query: &str, upcoming: bool, limit: usize) -> Result<(Vec<ListingId>, u64), RepoError> {
        let Some(query) = self.query(query, upcoming) else { return Ok((Vec::new(), 0)) };
        let searcher = self.reader.searcher();
        let (top, total) = searcher.search(&query, &(TopDocs::with_limit(limit.max(1)).order_by_score(), Count)).map_err(err)?;
        let mut columns: HashMap<SegmentOrdinal, tantivy::columnar::Column<u64>> = HashMap::new();
        let mut ids = Vec::with_capacity(top.len());
        for (_, address) in top {
            let column = match columns.entry(address.segment_ord) {
                std::collections::hash_map::Entry::Occupied(entry) => entry.into_mut(),
                std::collections::hash_map::Entry::Vacant(entry) => {
                    entry.insert(searcher.segment_reader(address.segment_ord).fast_fields().u64("id").map_err(err)?)
                }
            };
            if let Some(id) = column.first(address.doc_id) {
                ids.push(ListingId::new(id as i64));
            }
        }
        Ok((ids, total as u64))
    }

    async fn apply(&self, upserts: Vec<SearchDoc>, removed: Vec<ListingId>, position: u64, from_scratch: bool) -> Result<(), RepoError> {
        let mut writer = self.writer.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if from_scratch {
            writer.delete_all_documents().map_err(err)?;
        }
        for id in removed.iter().chain(upserts.iter().map(|doc| &doc.id)) {
            writer.delete_term(Term::from_field_u64(self.fields.id, id.get() as u64));
        }
        for doc in upserts {
            let mut document = TantivyDocument::default();
            document.add_u64(self.fields.id, doc.id.get() as u64);
            document.add_text(self.fields.state, if doc.upcoming { "upcoming" } else { "live" });
            let [name, tagline, keywords, description] = self.fields.text;
            document.add_text(name, &doc.name);
            document.add_text(tagline, &doc.tagline);
            document.add_text(keywords, doc.keywords.join(" "));
            document.add_text(description, &doc.description);
            writer.add_document(document).map_err(err)?;
        }
        let mut commit = writer.prepare_commit().map_err(err)?;
        commit.set_payload(&format!("{PAYLOAD_PREFIX} {SCHEMA_VERSION} {position}"));
        commit.commit().map_err(err)?;
        drop(writer);
        // Reload now, so the change is searchable when this returns.
        self.reader.reload().map_err(err)
    }

    async fn kept_position(&self) -> Result<Option<u64>, RepoError> {
        kept(&self.index)
    }

    async fn document_count(&self) -> Result<u64, RepoError> {
        Ok(self.reader.searcher().num_docs())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(id: i64, name: &str, tagline: &str, description: &str) -> SearchDoc {
        SearchDoc {
            id: ListingId::new(id),
            name: name.into(),
            tagline: tagline.into(),
            description: description.into(),
            keywords: vec![],
            upcoming: false,
        }
    }

    async fn index() -> TantivyIndex {
        let index = TantivyIndex::in_memory().unwrap();
        index
            .apply(
                vec![
                    doc(1, "Quillflow", "Notes that write themselves", "A calm editor for markdown notes."),
                    doc(2, "Ledgerly", "Invoices that chase themselves", "Send invoices and reminders; mentions quillflow once."),
                    doc(3, "Kiteboard", "Whiteboards for remote teams", "Draw, plan and present together."),
                ],
                vec![],
                1,
                true,
            )
            .await
            .unwrap();
        index
    }

    async fn ids(index: &TantivyIndex, q: &str) -> Vec<i64> {
        index.matching(q, false, 10).await.unwrap().0.into_iter().map(|id| id.get()).collect()
    }

    #[test]
    fn typo_budget_grows_with_word_length() {
        assert_eq!([typos_allowed("app"), typos_allowed("note"), typos_allowed("notebook")], [0, 1, 2]);
    }

    #[tokio::test]
    async fn typos_prefixes_and_field_weights() {
        let index = index().await;
        assert_eq!(ids(&index, "quillflow").await, [1, 2], "a name match outranks a description match");
        assert_eq!(ids(&index, "quilflow").await[0], 1, "one typo in a long word");
        assert_eq!(ids(&index, "qullfloq").await.first(), Some(&1), "two typos in a word of 8+ letters");
        assert!(ids(&index, "qulflw").await.is_empty(), "but not three, nor two in a shorter word");
        assert_eq!(ids(&index, "invioces").await, [2], "transposition counts as one typo");
        assert!(ids(&index, "nots").await.contains(&1), "one typo in a 4-letter word");
        assert!(ids(&index, "whiteb").await == [3], "the last word matches as a prefix");
        assert_eq!(ids(&index, "remote whiteb").await, [3]);
        assert!(ids(&index, "xyz").await.is_empty());
        assert!(ids(&index, "app").await.is_empty(), "no typo allowed under 4 letters");
        assert!(ids(&index, "invoices whiteboards").await.is_empty(), "every word must match");
    }

    #[tokio::test]
    async fn updates_replace_and_removals_delete() {
        let index = index().await;
        index.apply(vec![doc(3, "Kiteboard", "Mind maps for remote teams", "")], vec![ListingId::new(2)], 2, false).await.unwrap();
        assert_eq!(ids(&index, "mind maps").await, [3], "an edit is searchable at once");
        assert!(ids(&index, "whiteboards").await.is_empty(), "the old text is gone");
        assert!(ids(&index, "invoices").await.is_empty());
        assert_eq!(index.document_count().await.unwrap(), 2);
    }

    #[tokio::test]
    async fn a_kept_index_reopens_where_it_stood_and_another_version_starts_again() {
        let dir = std::env::temp_dir().join(format!("launchdir-search-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        {
            let index = TantivyIndex::in_dir(&dir).unwrap();
            assert_eq!(index.kept_position().await.unwrap(), None, "new");
            index.apply(vec![doc(1, "Quillflow", "Notes", "")], vec![], 41, true).await.unwrap();
        }
        let reopened = TantivyIndex::in_dir(&dir).unwrap();
        assert_eq!(reopened.kept_position().await.unwrap(), Some(41));
        assert_eq!(ids(&reopened, "quillflow").await, [1], "the documents survive the restart");
        assert!(TantivyIndex::in_dir(&dir).is_err(), "a second writer on the same directory is refused");
        reopened.apply(vec![doc(2, "Ledgerly", "", "")], vec![], 42, true).await.unwrap();
        assert_eq!(ids(&reopened, "quillflow").await, Vec::<i64>::new(), "from scratch removes what was there");
        // Another version's payload: made anew.
        {
            let mut writer = reopened.writer.lock().unwrap();
            let mut commit = writer.prepare_commit().unwrap();
            commit.set_payload("launchdir-search 0 42");
            commit.commit().unwrap();
        }
        drop(reopened);
        let fresh = TantivyIndex::in_dir(&dir).unwrap();
        assert_eq!(fresh.kept_position().await.unwrap(), None);
        assert_eq!(fresh.document_count().await.unwrap(), 0);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[tokio::test]
    async fn live_and_upcoming_are_searched_apart_with_exact_totals() {
        let index = index().await;
        let mut soon = doc(9, "Quillnote", "Notes for later", "");
        soon.upcoming = true;
        index.apply(vec![soon], vec![], 2, false).await.unwrap();
        let (live, total) = index.matching("quill", false, 1).await.unwrap();
        assert_eq!((live.len(), total), (1, 2), "one id asked for, both live matches counted");
        let (upcoming, total) = index.matching("quill", true, 10).await.unwrap();
        assert_eq!((upcoming, total), (vec![ListingId::new(9)], 1));
    }
}
