//! The public directory reads: category tree, category page, site counts.

use crate::model::{Category, CategoryNode, CategoryPage, CategoryRef, SiteCounts};
use crate::ports::{CategoryRepository, ListingRepository, LiveCounts};
use kernel::{Cached, Clock, PageRequest, RepoError, Slug};
use std::sync::Arc;
use time::Duration;

/// How long the category tree and its live counts may be reused when the background refresh
/// (every `DIRECTORY_REFRESH`) has stopped.
pub const DIRECTORY_TTL: Duration = Duration::seconds(10);

/// How often every server reads the directory's counts again in the background, so no request
/// waits for them and a new live listing is counted within this time on every server. The
/// database keeps the counts as it is written (a read costs the number of categories), so
/// this bounds staleness, not work.
pub const DIRECTORY_REFRESH: std::time::Duration = std::time::Duration::from_secs(2);

/// The categories and their live counts, as one cached value.
type Shape = (Vec<Category>, LiveCounts);

/// The categories and the live counts of the directory, shared by every read that shows a
/// total (site counts, category pages, the ranked feeds and boards, search without words), so
/// none of them counts the directory per request. Refreshed in the background.
#[derive(Clone)]
pub struct DirectoryShape {
    categories: Arc<dyn CategoryRepository>,
    clock: Arc<dyn Clock>,
    cached: Arc<Cached<Shape>>,
}

impl DirectoryShape {
    pub fn new(categories: Arc<dyn CategoryRepository>, clock: Arc<dyn Clock>) -> Self {
        Self { categories, clock, cached: Arc::new(Cached::new(DIRECTORY_TTL)) }
    }

    async fn load(&self) -> Result<Shape, RepoError> {
        Ok((self.categories.all().await?, self.categories.live_counts().await?))
    }

    /// The categories and their live counts, at most `DIRECTORY_TTL` old.
    pub async fn get(&self) -> Result<Arc<Shape>, RepoError> {
        self.cached.get_or_load(self.clock.now(), || self.load()).await
    }

    /// Reads the counts again now (the background refresh).
    pub async fn refresh(&self) -> Result<(), RepoError> {
        let now = self.clock.now();
        let shape = self.load().await?;
        self.cached.put(now, shape);
        Ok(())
    }

    /// Live listings in all.
    pub async fn live(&self) -> Result<u64, RepoError> {
        Ok(self.get().await?.1.live)
    }
}

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
    listings: Arc<dyn ListingRepository>,
    shape: DirectoryShape,
}

impl DirectoryService {
    pub fn new(listings: Arc<dyn ListingRepository>, shape: DirectoryShape) -> Self {
        Self { listings, shape }
    }

    async fn shape(&self) -> Result<Arc<Shape>, RepoError> {
        self.shape.get().await
    }

    /// The shared categories and counts (for the background refresh).
    pub fn shared_shape(&self) -> &DirectoryShape {
        &self.shape
    }

    pub async fn counts(&self) -> Result<SiteCounts, DirectoryError> {
        let shape = self.shape().await?;
        Ok(SiteCounts { live_listings: shape.1.live, categories: shape.0.len() as u64 })
    }

    /// The two-level category tree with live counts. Without `include_empty`, categories with
    /// no live listing (in them or their subcategories) are left out.
    pub async fn category_tree(&self, include_empty: bool) -> Result<Vec<CategoryNode>, DirectoryError> {
        let shape = self.shape().await?;
        let (all, counts) = (&shape.0, &shape.1);
        let node = |category: &Category, subcategories: Vec<CategoryNode>| CategoryNode {
            slug: category.slug.clone(),
            name: category.name.clone(),
            description: category.description.clone(),
            live_listings: count_of(category, counts),
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
        // The whole (small) tree is needed for parent and subcategories anyway, so the category
        // itself is found in it rather than with a query of its own.
        let shape = self.shape().await?;
        let (all, counts) = (&shape.0, &shape.1);
        let category = all.iter().find(|c| &c.slug == slug).cloned().ok_or(DirectoryError::CategoryNotFound)?;
        let reference = |c: &Category| CategoryRef { slug: c.slug.clone(), name: c.name.clone(), live_listings: count_of(c, counts) };
        let parent = category.parent_id.and_then(|id| all.iter().find(|c| c.id == id)).map(reference);
        let children: Vec<&Category> = all.iter().filter(|c| c.parent_id == Some(category.id)).collect();
        let listings = self.listings.live_in_category(category.id, page, count_of(&category, counts)).await?;
        Ok(CategoryPage {
            live_listings: count_of(&category, counts),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Faq, ListingStatus, ListingSummary};
    use async_trait::async_trait;
    use kernel::{CategoryId, ListingId, Paged};
    use std::collections::HashMap;
    use std::sync::Mutex;

    fn category(id: i64, slug: &str, parent: Option<i64>) -> Category {
        Category {
            id: CategoryId::new(id),
            slug: Slug::parse(slug).unwrap(),
            name: slug.to_uppercase(),
            description: format!("about {slug}"),
            parent_id: parent.map(CategoryId::new),
            position: id as i32,
            faqs: vec![Faq { question: "q?".into(), answer: "a".into() }],
        }
    }

    struct Fake {
        categories: Vec<Category>,
        counts: LiveCounts,
        asked_for: Mutex<Vec<CategoryId>>,
    }

    #[async_trait]
    impl CategoryRepository for Fake {
        async fn all(&self) -> Result<Vec<Category>, RepoError> {
            Ok(self.categories.clone())
        }
        async fn find_by_slug(&self, slug: &Slug) -> Result<Option<Category>, RepoError> {
            Ok(self.categories.iter().find(|c| &c.slug == slug).cloned())
        }
        async fn live_counts(&self) -> Result<LiveCounts, RepoError> {
            Ok(self.counts.clone())
        }
    }

    #[async_trait]
    impl ListingRepository for Fake {
        async fn find_by_slug(&self, _: &Slug) -> Result<Option<ListingSummary>, RepoError> {
            Ok(None)
        }
        async fn find_marked(&self, _: &Slug) -> Result<Option<(ListingSummary, crate::ports::ListingMarks)>, RepoError> {
            Ok(None)
        }
        async fn live_in_category(&self, category: CategoryId, page: PageRequest, _: u64) -> Result<Paged<ListingSummary>, RepoError> {
            self.asked_for.lock().unwrap().push(category);
            let item = ListingSummary {
                id: ListingId::new(1),
                slug: Slug::parse("acme").unwrap(),
                name: "Acme".into(),
                url: "https://acme.example".into(),
                tagline: None,
                logo: None,
                votes: 3,
                primary_category: None,
                launch_week: None,
                status: ListingStatus::Live,
            };
            Ok(Paged::new(vec![item], page, 1))
        }
    }

    /// tools (1) > [notes (2): 4 live, tasks (3): 0 live]; empty (4) with no children.
    fn service() -> (DirectoryService, Arc<Fake>) {
        let fake = Arc::new(Fake {
            categories: vec![
                category(1, "tools", None),
                category(2, "notes", Some(1)),
                category(3, "tasks", Some(1)),
                category(4, "empty", None),
            ],
            counts: LiveCounts {
                direct: HashMap::from([(CategoryId::new(2), 4)]),
                by_top_level: HashMap::from([(CategoryId::new(1), 4)]),
                live: 7,
                ..LiveCounts::default()
            },
            asked_for: Mutex::new(Vec::new()),
        });
        let clock = Arc::new(kernel::FixedClock::new(time::macros::datetime!(2026-11-21 10:00 UTC)));
        (DirectoryService::new(fake.clone(), DirectoryShape::new(fake.clone(), clock)), fake)
    }

    #[tokio::test]
    async fn tree_counts_and_empty_filter() {
        let (directory, _) = service();
        let tree = directory.category_tree(true).await.unwrap();
        assert_eq!(tree.iter().map(|n| n.slug.as_str()).collect::<Vec<_>>(), ["tools", "empty"]);
        assert_eq!(tree[0].live_listings, 4);
        assert_eq!(
            tree[0].subcategories.iter().map(|n| (n.slug.as_str(), n.live_listings)).collect::<Vec<_>>(),
            [("notes", 4), ("tasks", 0)]
        );
        let non_empty = directory.category_tree(false).await.unwrap();
        assert_eq!(non_empty.len(), 1);
        assert_eq!(non_empty[0].subcategories.len(), 1, "tasks has no live listing");
    }

    #[tokio::test]
    async fn category_page_includes_subcategories() {
        let (directory, fake) = service();
        let page = directory.category_page(&Slug::parse("tools").unwrap(), PageRequest::default()).await.unwrap();
        assert_eq!(page.live_listings, 4);
        assert!(page.parent.is_none());
        assert_eq!(page.subcategories.len(), 2);
        // The store's page of a top-level category holds its subcategories' listings.
        assert_eq!(*fake.asked_for.lock().unwrap(), [CategoryId::new(1)]);

        let child = directory.category_page(&Slug::parse("notes").unwrap(), PageRequest::default()).await.unwrap();
        assert_eq!(child.parent.unwrap().slug.as_str(), "tools");
        assert!(child.subcategories.is_empty());
        assert_eq!(*fake.asked_for.lock().unwrap(), [CategoryId::new(1), CategoryId::new(2)]);

        let missing = directory.category_page(&Slug::parse("nope").unwrap(), PageRequest::default()).await;
        assert!(matches!(missing, Err(DirectoryError::CategoryNotFound)));
    }

    #[tokio::test]
    async fn counts() {
        let (directory, _) = service();
        assert_eq!(directory.counts().await.unwrap(), SiteCounts { live_listings: 7, categories: 4 });
    }
}
