//! The public directory reads: category tree, category page, site counts.

use crate::model::{Category, CategoryNode, CategoryPage, CategoryRef, SiteCounts};
use crate::ports::{CategoryRepository, ListingRepository, LiveCounts};
use kernel::{CategoryId, PageRequest, RepoError, Slug};
use std::sync::Arc;

/// Why a directory read failed.
#[derive(Debug, thiserror::Error)]
pub enum DirectoryError {
    #[error("no category has this slug")]
    CategoryNotFound,
    #[error(transparent)]
    Repo(#[from] RepoError),
}

/// The public directory use cases.
#[derive(Clone)]
pub struct DirectoryService {
    categories: Arc<dyn CategoryRepository>,
    listings: Arc<dyn ListingRepository>,
}

impl DirectoryService {
    pub fn new(categories: Arc<dyn CategoryRepository>, listings: Arc<dyn ListingRepository>) -> Self {
        Self { categories, listings }
    }

    pub async fn counts(&self) -> Result<SiteCounts, DirectoryError> {
        let live_listings = self.listings.count_live().await?;
        let categories = self.categories.all().await?.len() as u64;
        Ok(SiteCounts { live_listings, categories })
    }

    /// The two-level category tree with live counts. Without `include_empty`, categories with
    /// no live listing (in them or their subcategories) are left out.
    pub async fn category_tree(&self, include_empty: bool) -> Result<Vec<CategoryNode>, DirectoryError> {
        let all = self.categories.all().await?;
        let counts = self.categories.live_counts().await?;
        let node = |category: &Category, subcategories: Vec<CategoryNode>| CategoryNode {
            slug: category.slug.clone(),
            name: category.name.clone(),
            description: category.description.clone(),
            live_listings: count_of(category, &counts),
            subcategories,
        };
        let tree = all
            .iter()
            .filter(|category| category.parent_id.is_none())
            .map(|top| {
                let children = all
                    .iter()
                    .filter(|child| child.parent_id == Some(top.id))
                    .map(|child| node(child, Vec::new()))
                    .filter(|child| include_empty || child.live_listings > 0)
                    .collect();
                node(top, children)
            })
            .filter(|top| include_empty || top.live_listings > 0)
            .collect();
        Ok(tree)
    }

    /// One category with its parent, subcategories and a page of its live listings (including
    /// those of its subcategories), most voted first.
    pub async fn category_page(&self, slug: &Slug, page: PageRequest) -> Result<CategoryPage, DirectoryError> {
        let category = self.categories.find_by_slug(slug).await?.ok_or(DirectoryError::CategoryNotFound)?;
        let all = self.categories.all().await?;
        let counts = self.categories.live_counts().await?;
        let reference = |c: &Category| CategoryRef { slug: c.slug.clone(), name: c.name.clone(), live_listings: count_of(c, &counts) };
        let parent = category.parent_id.and_then(|id| all.iter().find(|c| c.id == id)).map(reference);
        let children: Vec<&Category> = all.iter().filter(|c| c.parent_id == Some(category.id)).collect();
        let mut ids: Vec<CategoryId> = vec![category.id];
        ids.extend(children.iter().map(|c| c.id));
        let listings = self.listings.live_in_categories(&ids, page).await?;
        Ok(CategoryPage {
            live_listings: count_of(&category, &counts),
            subcategories: children.into_iter().map(reference).collect(),
            parent,
            listings,
            category,
        })
    }
}

fn count_of(category: &Category, counts: &LiveCounts) -> u64 {
    let table = if category.parent_id.is_none() { &counts.by_top_level } else { &counts.direct };
    table.get(&category.id).copied().unwrap_or(0)
}
