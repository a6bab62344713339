//! Ports the listings domain needs from storage.

use crate::model::{Category, ListingSummary};
use async_trait::async_trait;
use kernel::{CategoryId, PageRequest, Paged, RepoError, Slug};
use std::collections::HashMap;

/// Live listing counts per category.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LiveCounts {
    /// Distinct live listings that carry the category itself.
    pub direct: HashMap<CategoryId, u64>,
    /// Distinct live listings that carry a top-level category or any of its subcategories,
    /// keyed by the top-level category.
    pub by_top_level: HashMap<CategoryId, u64>,
    /// Live listings in all.
    pub live: u64,
    /// Live listings with at least one follower.
    pub followed: u64,
    /// Founders of at least one live listing.
    pub founders: u64,
}

/// Where categories are kept.
#[async_trait]
pub trait CategoryRepository: Send + Sync {
    /// Every category, ordered by position and then name.
    async fn all(&self) -> Result<Vec<Category>, RepoError>;

    async fn find_by_slug(&self, slug: &Slug) -> Result<Option<Category>, RepoError>;

    async fn live_counts(&self) -> Result<LiveCounts, RepoError>;
}

/// Where listings are kept.
/// When a listing earned the marks its badges show.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ListingMarks {
    /// Featured placement was bought.
    pub featured_at: Option<time::OffsetDateTime>,
    /// A claim on it was verified (its owner proved control of the company).
    pub verified_at: Option<time::OffsetDateTime>,
    /// How many Launch of the Week awards it won: most listings won none, and then their
    /// badges need no read of the awards.
    pub awards: u64,
}

#[async_trait]
pub trait ListingRepository: Send + Sync {
    /// The listing with this slug, whatever its status.
    async fn find_by_slug(&self, slug: &Slug) -> Result<Option<ListingSummary>, RepoError>;

    /// One page of the live listings on `category`'s page, most voted first, ties to the
    /// listing created first: a top-level category's page holds its subcategories' listings
    /// too. `total` is how many there are, from the directory's kept counts, so the page never
    /// counts.
    async fn live_in_category(&self, category: CategoryId, page: PageRequest, total: u64) -> Result<Paged<ListingSummary>, RepoError>;

    /// The listing with this slug, whatever its status, with the marks behind its Featured and
    /// Verified badges and how many awards it won (one read: the marks are on the same row, the
    /// awards counted beside it).
    async fn find_marked(&self, slug: &Slug) -> Result<Option<(ListingSummary, ListingMarks)>, RepoError>;
}
