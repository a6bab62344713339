//! The blog: published posts, newest first or matched by words.

use async_trait::async_trait;
use kernel::{Clock, Faq, PageRequest, Paged, RepoError, Slug};
use std::sync::Arc;
use time::OffsetDateTime;

/// A post as lists show it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlogPostSummary {
    pub slug: Slug,
    pub title: String,
    pub summary: String,
    pub author_name: String,
    pub tags: Vec<String>,
    pub published_at: OffsetDateTime,
}

/// A whole post.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlogPost {
    pub summary: BlogPostSummary,
    /// The full text, Markdown.
    pub body_markdown: String,
    pub faqs: Vec<Faq>,
    pub updated_at: OffsetDateTime,
}

/// Where blog posts are kept.
#[async_trait]
pub trait BlogRepository: Send + Sync {
    /// Posts published at or before `now`. With `words`, only posts whose title, summary or
    /// text contains every word (case-insensitive), title matches first; otherwise newest
    /// first. Words are lower case.
    async fn list_published(&self, now: OffsetDateTime, words: &[String], page: PageRequest) -> Result<Paged<BlogPostSummary>, RepoError>;

    /// The post with this slug, if published at or before `now`.
    async fn find_published(&self, slug: &Slug, now: OffsetDateTime) -> Result<Option<BlogPost>, RepoError>;
}

/// Why a blog read failed.
#[derive(Debug, thiserror::Error)]
pub enum BlogError {
    #[error("no published post has this slug")]
    NotFound,
    #[error(transparent)]
    Repo(#[from] RepoError),
}

/// At most this many words of a query are used.
pub const MAX_SEARCH_WORDS: usize = 8;

/// Splits a free-text query into lower-case words (at most `MAX_SEARCH_WORDS`).
pub fn search_words(query: &str) -> Vec<String> {
    query.split_whitespace().map(str::to_lowercase).take(MAX_SEARCH_WORDS).collect()
}

/// The blog use cases.
#[derive(Clone)]
pub struct BlogService {
    posts: Arc<dyn BlogRepository>,
    clock: Arc<dyn Clock>,
}

impl BlogService {
    pub fn new(posts: Arc<dyn BlogRepository>, clock: Arc<dyn Clock>) -> Self {
        Self { posts, clock }
    }

    /// Published posts, newest first, or those matching `query`.
    pub async fn list(&self, query: Option<&str>, page: PageRequest) -> Result<Paged<BlogPostSummary>, BlogError> {
        let words = query.map(search_words).unwrap_or_default();
        Ok(self.posts.list_published(self.clock.now(), &words, page).await?)
    }

    pub async fn get(&self, slug: &Slug) -> Result<BlogPost, BlogError> {
        self.posts.find_published(slug, self.clock.now()).await?.ok_or(BlogError::NotFound)
    }
}

#[cfg(test)]
mod tests {
    use super::search_words;

    #[test]
    fn words_are_lower_case_and_capped() {
        assert_eq!(search_words("  Launch   DAY tips "), ["launch", "day", "tips"]);
        assert!(search_words("   ").is_empty());
        assert_eq!(search_words("a b c d e f g h i j").len(), 8);
    }
}
