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
#[async_trait]
pub trait ListingRepository: Send + Sync {
    async fn count_live(&self) -> Result<u64, RepoError>;

    /// The listing with this slug, whatever its status.
    async fn find_by_slug(&self, slug: &Slug) -> Result<Option<ListingSummary>, RepoError>;

    /// Live listings that carry any of `categories` (primary or extra), most voted first;
    /// ties go to the listing created first.
    async fn live_in_categories(&self, categories: &[CategoryId], page: PageRequest) -> Result<Paged<ListingSummary>, RepoError>;

    /// When featured placement was bought for the listing (its Featured badge), if ever.
    async fn featured_since(&self, id: kernel::ListingId) -> Result<Option<time::OffsetDateTime>, RepoError>;
}
