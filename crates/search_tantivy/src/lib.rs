#![doc = include_str!("../README.md")]

mod dense;
mod order;
mod suggest;
mod words;

use async_trait::async_trait;
use dense::Aids;
use kernel::{ListingId, RepoError};
use listings::{IndexOrder, IndexSearch, SearchDoc, SearchIndex};
use order::{AllIds, FOLLOWS, ID, PUBLISHED, VIEWS, VOTES, by_published, by_u64};
use std::cmp::Reverse;
use std::ops::Bound;
use std::path::Path;
use std::sync::{Arc, Mutex};
use tantivy::collector::{Count, TopDocs};
use tantivy::query::{BooleanQuery, ConstScoreQuery, Occur, Query, RangeQuery, TermQuery};
use tantivy::schema::{FAST, Field, INDEXED, IndexRecordOption, STRING, Schema, TEXT, TextFieldIndexing, TextOptions};
use tantivy::{Index, IndexReader, IndexWriter, ReloadPolicy, TantivyDocument, Term};
use words::WordsQuery;

/// Field weights: a match in the name outranks one in the description.
/// `topics` are the names of the listing's categories (and their parents).
const BOOSTS: [(&str, f32); 5] = [("name", 4.0), ("tagline", 2.0), ("keywords", 1.5), ("topics", 1.5), ("description", 1.0)];
/// Segments of fewer documents keep no dense words as bitsets (`dense`): their postings are short.
const DENSE_MIN_DOCS: u32 = 1024;
/// The writer's memory budget (tantivy's minimum is 15 MB per thread).
const WRITER_HEAP: usize = 20_000_000;
/// The version of the fields below: a kept index of another version is read again in full.
/// 2: filters (categories, stage, country, pricing model, domain) and sort keys.
/// 3: `any_text`, every text field's words in one dictionary for word searches to walk.
/// 4: `topics`, the names of the listing's categories.
const SCHEMA_VERSION: u32 = 4;
/// What each commit keeps beside the documents: the schema version and the change-feed
/// position, as `launchdir-search <version> <position>`.
const PAYLOAD_PREFIX: &str = "launchdir-search";

#[derive(Clone, Copy)]
struct Fields {
    id: Field,
    /// `live` or `upcoming`, so the index alone can answer a search of either.
    state: Field,
    text: [Field; 5],
    /// The words of all four text fields: a searched word's spellings are found here once, then
    /// looked up in each field.
    any_text: Field,
    /// The listing's categories and their parents.
    categories: Field,
    stage: Field,
    country: Field,
    pricing_model: Field,
    domain: Field,
    votes: Field,
    views: Field,
    follows: Field,
    /// Microseconds since 1970.
    published: Field,
}

/// A tantivy index of listings.
pub struct TantivyIndex {
    index: Index,
    reader: IndexReader,
    /// Shared with the blocking task that writes (a commit waits for the disk).
    writer: Arc<Mutex<IndexWriter>>,
    fields: Fields,
    /// Each segment's dense words and alive documents, kept by the reader's warmer.
    aids: Arc<Aids>,
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
    let id = builder.add_u64_field(ID, INDEXED | FAST);
    let state = builder.add_text_field("state", STRING);
    let text = BOOSTS.map(|(name, _)| builder.add_text_field(name, TEXT));
    // Only its dictionary and which documents hold each word: no positions, no lengths.
    let words_only = TextFieldIndexing::default().set_index_option(IndexRecordOption::Basic).set_fieldnorms(false);
    let any_text = builder.add_text_field("any_text", TextOptions::default().set_indexing_options(words_only));
    let fields = Fields {
        id,
        state,
        text,
        any_text,
        categories: builder.add_u64_field("categories", INDEXED),
        stage: builder.add_text_field("stage", STRING),
        country: builder.add_text_field("country", STRING),
        pricing_model: builder.add_text_field("pricing_model", STRING),
        domain: builder.add_text_field("domain", STRING),
        votes: builder.add_u64_field(VOTES, FAST),
        views: builder.add_u64_field(VIEWS, FAST),
        follows: builder.add_u64_field(FOLLOWS, FAST),
        published: builder.add_i64_field(PUBLISHED, FAST),
    };
    (builder.build(), fields)
}

/// A must-hold clause that leaves the text score alone.
fn filter(query: Box<dyn Query>) -> (Occur, Box<dyn Query>) {
    (Occur::Must, Box::new(ConstScoreQuery::new(query, 0.0)))
}

impl TantivyIndex {
    /// An index in memory (rebuilt from the database at start).
    pub fn in_memory() -> Result<Self, RepoError> {
        let (schema, fields) = schema();
        Self::with_index(Index::create_in_ram(schema), fields)
    }

    /// An index in memory whose segments keep their dense words from `min_docs` documents on:
    /// tests search the same documents both ways.
    #[cfg(test)]
    fn in_memory_dense_from(min_docs: u32) -> Result<Self, RepoError> {
        let (schema, fields) = schema();
        Self::with_dense_from(Index::create_in_ram(schema), fields, min_docs)
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
        Self::with_dense_from(index, fields, DENSE_MIN_DOCS)
    }

    /// `with_index`, keeping dense words of segments from `min_docs` documents on.
    fn with_dense_from(index: Index, fields: Fields, min_docs: u32) -> Result<Self, RepoError> {
        // A busy lock means another server process writes this index.
        let writer = index.writer_with_num_threads(1, WRITER_HEAP).map_err(err)?;
        // The filters' fields but the domain, which is one listing's own.
        let kept = fields.text.iter().copied().chain([fields.state, fields.categories, fields.stage, fields.country, fields.pricing_model]);
        let aids = Arc::new(Aids::new(kept.collect(), min_docs));
        let warmer: Arc<dyn tantivy::Warmer> = aids.clone();
        let reader =
            index.reader_builder().reload_policy(ReloadPolicy::Manual).warmers(vec![Arc::downgrade(&warmer)]).try_into().map_err(err)?;
        Ok(Self { index, reader, writer: Arc::new(Mutex::new(writer)), fields, aids })
    }

    /// The query of `search`; `None` when its words hold no word at all (nothing passes).
    fn query(&self, search: &IndexSearch) -> Option<Box<dyn Query>> {
        let terms = self.filters(search);
        let mut clauses = match &search.words {
            // The words query reads the filters' postings beside the words' own.
            Some(words) => vec![(Occur::Must, Box::new(self.words_query(words, terms)?) as Box<dyn Query>)],
            None => terms.into_iter().map(|term| filter(Box::new(TermQuery::new(term, IndexRecordOption::Basic)))).collect(),
        };
        if search.order == IndexOrder::Follows {
            let followed = RangeQuery::new(Bound::Included(Term::from_field_u64(self.fields.follows, 1)), Bound::Unbounded);
            clauses.push(filter(Box::new(followed)));
        }
        Some(Box::new(BooleanQuery::new(clauses)))
    }

    /// The terms a listing must hold to pass `search`'s filters (its state, category, …).
    fn filters(&self, search: &IndexSearch) -> Vec<Term> {
        let text = |field: Field, value: &Option<String>| value.as_ref().map(|value| Term::from_field_text(field, value));
        let state = Term::from_field_text(self.fields.state, if search.upcoming { "upcoming" } else { "live" });
        let category = search.category.map(|category| Term::from_field_u64(self.fields.categories, category.get() as u64));
        let terms = [
            Some(state),
            category,
            text(self.fields.stage, &search.stage),
            text(self.fields.country, &search.country),
            text(self.fields.pricing_model, &search.pricing_model),
            text(self.fields.domain, &search.domain),
        ];
        terms.into_iter().flatten().collect()
    }

    /// The words of `text` as the index splits them (lower case, punctuation gone).
    fn tokens(&self, text: &str) -> Vec<String> {
        let Ok(mut tokenizer) = self.index.tokenizer_for_field(self.fields.text[0]) else { return Vec::new() };
        let mut tokens = Vec::new();
        let mut stream = tokenizer.token_stream(text);
        while let Some(token) = stream.next() {
            tokens.push(token.text.clone());
        }
        tokens
    }

    /// The words of `text`, each matching in any text field with the typos its length allows,
    /// among the documents holding every one of `filters`; `None` when the text holds no word.
    fn words_query(&self, text: &str, filters: Vec<Term>) -> Option<WordsQuery> {
        let words: Vec<(String, u8)> = self.tokens(text).into_iter().map(|word| (word.clone(), typos_allowed(&word))).collect();
        let fields = self.fields.text.iter().zip(BOOSTS).map(|(field, (_, boost))| (*field, boost)).collect();
        // The one error is ruled out here: typo budgets stop at two.
        WordsQuery::new(&words, self.fields.any_text, fields, filters, Arc::clone(&self.aids)).ok()?
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

/// Writes one change to the index and commits it with the feed position; searchable when it
/// returns.
fn write(
    writer: &Mutex<IndexWriter>,
    reader: &IndexReader,
    fields: &Fields,
    upserts: Vec<SearchDoc>,
    removed: Vec<ListingId>,
    position: u64,
    from_scratch: bool,
) -> Result<(), RepoError> {
    let mut writer = writer.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if from_scratch {
        writer.delete_all_documents().map_err(err)?;
    }
    for id in removed.iter().chain(upserts.iter().map(|doc| &doc.id)) {
        writer.delete_term(Term::from_field_u64(fields.id, id.get() as u64));
    }
    for doc in upserts {
        let mut document = TantivyDocument::default();
        document.add_u64(fields.id, doc.id.get() as u64);
        document.add_text(fields.state, if doc.upcoming { "upcoming" } else { "live" });
        let [name, tagline, keywords, topics, description] = fields.text;
        document.add_text(name, &doc.name);
        document.add_text(tagline, &doc.tagline);
        document.add_text(keywords, doc.keywords.join(" "));
        document.add_text(topics, doc.topics.join(" "));
        document.add_text(description, &doc.description);
        for text in [&doc.name, &doc.tagline, &doc.description] {
            document.add_text(fields.any_text, text);
        }
        for word in doc.keywords.iter().chain(&doc.topics) {
            document.add_text(fields.any_text, word);
        }
        for category in &doc.categories {
            document.add_u64(fields.categories, category.get() as u64);
        }
        let facets = [
            (fields.stage, &doc.stage),
            (fields.country, &doc.country),
            (fields.pricing_model, &doc.pricing_model),
            (fields.domain, &doc.domain),
        ];
        for (field, value) in facets {
            if let Some(value) = value {
                document.add_text(field, value);
            }
        }
        document.add_u64(fields.votes, doc.votes);
        document.add_u64(fields.views, doc.views);
        document.add_u64(fields.follows, doc.follows);
        let micros = doc.published_at.unix_timestamp_nanos() / 1_000;
        document.add_i64(fields.published, i64::try_from(micros).unwrap_or(i64::MAX));
        writer.add_document(document).map_err(err)?;
    }
    let mut commit = writer.prepare_commit().map_err(err)?;
    commit.set_payload(&format!("{PAYLOAD_PREFIX} {SCHEMA_VERSION} {position}"));
    commit.commit().map_err(err)?;
    drop(writer);
    // Reload now, so the change is searchable when this returns.
    reader.reload().map_err(err)
}

#[async_trait]
impl SearchIndex for TantivyIndex {
    async fn search(&self, search: &IndexSearch, offset: usize, limit: usize) -> Result<(Vec<ListingId>, u64), RepoError> {
        if let (IndexOrder::Relevance, Some(words)) = (search.order, &search.words) {
            let Some(query) = self.words_query(words, self.filters(search)) else { return Ok((Vec::new(), 0)) };
            // The score, then the lower id: equal scores would otherwise come in the order of
            // the segments, which every re-indexed listing changes.
            let (best, total) = query.best(&self.reader.searcher(), if limit == 0 { 0 } else { offset + limit }).map_err(err)?;
            let ids = best.into_iter().skip(offset).map(|(_, id)| ListingId::new(id as i64)).collect();
            return Ok((ids, total));
        }
        let Some(query) = self.query(search) else { return Ok((Vec::new(), 0)) };
        let searcher = self.reader.searcher();
        let top = TopDocs::with_limit(limit.max(1)).and_offset(offset);
        let by_key = |keys: Vec<u64>| keys.into_iter().map(|id| ListingId::new(id as i64)).collect::<Vec<_>>();
        let (ids, total) = match (search.order, &search.words) {
            (IndexOrder::Newest, _) => {
                let (top, total) = searcher.search(&query, &(top.order_by(by_published), Count)).map_err(err)?;
                (by_key(top.into_iter().map(|((_, Reverse(id)), _)| id).collect()), total)
            }
            (order, _) => {
                let field = match order {
                    IndexOrder::Views => VIEWS,
                    IndexOrder::Follows => FOLLOWS,
                    _ => VOTES,
                };
                let (top, total) = searcher.search(&query, &(top.order_by(by_u64(field)), Count)).map_err(err)?;
                (by_key(top.into_iter().map(|((_, Reverse(id)), _)| id).collect()), total)
            }
        };
        let ids = if limit == 0 { Vec::new() } else { ids };
        Ok((ids, total as u64))
    }

    async fn passing(&self, search: &IndexSearch) -> Result<Vec<ListingId>, RepoError> {
        let Some(query) = self.query(search) else { return Ok(Vec::new()) };
        let ids = self.reader.searcher().search(&query, &AllIds).map_err(err)?;
        Ok(ids.into_iter().map(|id| ListingId::new(id as i64)).collect())
    }

    async fn apply(&self, upserts: Vec<SearchDoc>, removed: Vec<ListingId>, position: u64, from_scratch: bool) -> Result<(), RepoError> {
        // Writing and committing block on the disk: off the async workers.
        let (writer, reader, fields) = (self.writer.clone(), self.reader.clone(), self.fields);
        tokio::task::spawn_blocking(move || write(&writer, &reader, &fields, upserts, removed, position, from_scratch))
            .await
            .map_err(err)?
    }

    async fn kept_position(&self) -> Result<Option<u64>, RepoError> {
        kept(&self.index)
    }

    async fn document_count(&self) -> Result<u64, RepoError> {
        Ok(self.reader.searcher().num_docs())
    }

    async fn did_you_mean(&self, words: &str) -> Result<Option<String>, RepoError> {
        suggest::suggestion(&self.reader.searcher(), self.fields.any_text, &self.tokens(words)).map_err(err)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use kernel::CategoryId;

    pub(crate) fn doc(id: i64, name: &str, tagline: &str, description: &str) -> SearchDoc {
        SearchDoc {
            id: ListingId::new(id),
            name: name.into(),
            tagline: tagline.into(),
            description: description.into(),
            keywords: vec![],
            upcoming: false,
            categories: vec![],
            topics: vec![],
            stage: None,
            country: None,
            pricing_model: None,
            domain: None,
            votes: 0,
            views: 0,
            follows: 0,
            published_at: time::OffsetDateTime::UNIX_EPOCH,
        }
    }

    pub(crate) fn words(q: &str, upcoming: bool) -> IndexSearch {
        IndexSearch {
            words: Some(q.into()),
            category: None,
            stage: None,
            country: None,
            pricing_model: None,
            domain: None,
            upcoming,
            order: IndexOrder::Relevance,
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
        index.search(&words(q, false), 0, 10).await.unwrap().0.into_iter().map(|id| id.get()).collect()
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
        assert!(ids(&index, "wuillflow").await.is_empty(), "nor in the first letter");
        assert!(ids(&index, "uillflow").await.is_empty(), "which must be there");
        assert!(ids(&index, "invoices whiteboards").await.is_empty(), "every word must match");
    }

    #[tokio::test]
    async fn a_score_adds_the_weight_of_every_field_each_word_is_found_in() {
        let index = TantivyIndex::in_memory().unwrap();
        let first =
            vec![doc(4, "Alpha beta", "", ""), doc(5, "Alpha", "", "beta"), doc(6, "Other", "alpha beta", ""), doc(7, "Alpha", "", "")];
        index.apply(first, vec![], 1, true).await.unwrap();
        // A second commit: a second segment, searched the same way.
        let keywords = SearchDoc { keywords: vec!["alpha".into(), "beta".into()], ..doc(8, "Other", "", "") };
        index.apply(vec![doc(3, "Alpha", "alpha", "beta"), keywords], vec![], 2, false).await.unwrap();
        // 4 both in the name (4 + 4); 3 alpha in the name and tagline, beta in the description
        // (4 + 2 + 1); 5 name and description (4 + 1); 6 the tagline twice (2 + 2); 8 the
        // keywords twice (1.5 + 1.5); 7 lacks beta.
        assert_eq!(ids(&index, "alpha beta").await, [4, 3, 5, 6, 8]);
        assert_eq!(index.search(&words("alpha beta", false), 0, 2).await.unwrap().1, 5, "the total counts every match");
        assert_eq!(ids(&index, "alpha").await, [3, 4, 5, 7, 6, 8], "ties go to the lower id");
        let page = |offset, limit| {
            let index = &index;
            async move {
                let (ids, total) = index.search(&words("alpha beta", false), offset, limit).await.unwrap();
                (ids.into_iter().map(|id| id.get()).collect::<Vec<_>>(), total)
            }
        };
        assert_eq!(page(2, 2).await, (vec![5, 6], 5), "a later page");
        assert_eq!(page(4, 2).await, (vec![8], 5), "the last, short");
        assert_eq!(page(0, 0).await, (vec![], 5), "only the count");
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
        let (live, total) = index.search(&words("quill", false), 0, 1).await.unwrap();
        assert_eq!((live.len(), total), (1, 2), "one id asked for, both live matches counted");
        let (upcoming, total) = index.search(&words("quill", true), 0, 10).await.unwrap();
        assert_eq!((upcoming, total), (vec![ListingId::new(9)], 1));
    }

    /// 3,000 listings: every third in category 7 (whose parent is 1), stages by the rest of
    /// five, votes falling with the id but tied in pairs, views rising, one in ten followed.
    async fn directory() -> TantivyIndex {
        let index = TantivyIndex::in_memory().unwrap();
        let docs = (1..=3000)
            .map(|id| {
                let mut listing = doc(id, &format!("Tool {id}"), "notes for teams", "");
                listing.categories = if id % 3 == 0 { vec![CategoryId::new(7), CategoryId::new(1)] } else { vec![CategoryId::new(2)] };
                listing.stage = Some(["idea", "beta", "launched", "growing", "mature"][(id % 5) as usize].into());
                listing.country = Some(if id % 2 == 0 { "DE" } else { "FR" }.into());
                listing.pricing_model = Some("freemium".into());
                listing.domain = Some(format!("tool{id}.example"));
                listing.votes = ((3000 - id) / 2) as u64;
                listing.views = id as u64;
                listing.follows = if id % 10 == 0 { id as u64 } else { 0 };
                listing.published_at = time::OffsetDateTime::UNIX_EPOCH + time::Duration::days(id / 2);
                listing
            })
            .collect();
        index.apply(docs, vec![], 1, true).await.unwrap();
        index
    }

    fn browse(order: IndexOrder) -> IndexSearch {
        IndexSearch { words: None, order, ..words("", false) }
    }

    fn get(ids: Vec<ListingId>) -> Vec<i64> {
        ids.into_iter().map(|id| id.get()).collect()
    }

    #[tokio::test]
    async fn filters_keep_every_match_with_exact_totals_and_no_cap() {
        let index = directory().await;
        let notes = |order| IndexSearch { order, ..words("notes", false) };
        let (ids, total) = index.search(&notes(IndexOrder::Relevance), 0, 3).await.unwrap();
        assert_eq!(total, 3000, "more than 2,000 text matches, all counted");
        assert_eq!(get(ids), [1, 2, 3], "equal scores: the lower id first");
        index.apply(vec![doc(1, "Tool 1", "notes for teams", "")], vec![], 2, false).await.unwrap();
        let (ids, _) = index.search(&notes(IndexOrder::Relevance), 0, 3).await.unwrap();
        assert_eq!(get(ids), [1, 2, 3], "and still when one was written again, into a newer segment");
        let in_parent = IndexSearch { category: Some(CategoryId::new(1)), ..notes(IndexOrder::Votes) };
        let (ids, total) = index.search(&in_parent, 0, 3).await.unwrap();
        assert_eq!(total, 1000, "a top-level category finds its subcategories' listings");
        assert_eq!(get(ids), [3, 6, 9]);
        let narrow = IndexSearch { stage: Some("beta".into()), country: Some("DE".into()), ..in_parent.clone() };
        let (ids, total) = index.search(&narrow, 0, 100).await.unwrap();
        assert_eq!(total, 100, "multiples of 3 and of 2 that leave 1 by 5: ids 6, 36, 66, ...");
        assert!(get(ids).iter().all(|id| id % 30 == 6));
        let domain = IndexSearch { domain: Some("tool42.example".into()), ..browse(IndexOrder::Votes) };
        assert_eq!(get(index.search(&domain, 0, 20).await.unwrap().0), [42]);
        let nothing = IndexSearch { pricing_model: Some("paid".into()), ..browse(IndexOrder::Votes) };
        assert_eq!(index.search(&nothing, 0, 20).await.unwrap(), (vec![], 0));
        let no_words_pass = IndexSearch { pricing_model: Some("paid".into()), ..notes(IndexOrder::Relevance) };
        assert_eq!(index.search(&no_words_pass, 0, 20).await.unwrap(), (vec![], 0), "a filter no listing holds, with words");
        let passing = index.passing(&narrow).await.unwrap();
        assert_eq!(passing.len(), 100);
        assert!(passing.windows(2).all(|pair| pair[0] < pair[1]), "ascending ids");
    }

    #[tokio::test]
    async fn sorts_run_on_fast_fields_with_ties_to_the_lower_id_and_deep_pages() {
        let index = directory().await;
        let page = |order, offset| {
            let index = &index;
            async move { get(index.search(&browse(order), offset, 4).await.unwrap().0) }
        };
        assert_eq!(page(IndexOrder::Votes, 0).await, [1, 2, 3, 4], "votes tie in pairs: the lower id first");
        assert_eq!(page(IndexOrder::Relevance, 0).await, [1, 2, 3, 4], "without words, most voted first");
        assert_eq!(page(IndexOrder::Votes, 2500).await, [2501, 2502, 2503, 2504], "a deep page");
        assert_eq!(page(IndexOrder::Views, 0).await, [3000, 2999, 2998, 2997]);
        assert_eq!(page(IndexOrder::Newest, 0).await, [3000, 2998, 2999, 2996], "3000 alone on the newest day, then ties");
        assert_eq!(page(IndexOrder::Follows, 0).await, [3000, 2990, 2980, 2970]);
        assert_eq!(index.search(&browse(IndexOrder::Follows), 0, 1).await.unwrap().1, 300, "only followed listings");
        // A vote arrives through the feed as the whole document again.
        let mut voted = doc(2999, "Tool 2999", "notes for teams", "");
        voted.votes = 10_000;
        index.apply(vec![voted], vec![], 2, false).await.unwrap();
        assert_eq!(page(IndexOrder::Votes, 0).await, [2999, 1, 2, 3]);
    }
}
