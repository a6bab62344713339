//! What the sitemaps list: every live listing and every founder behind one, in files of at most
//! 50,000 addresses (the sitemaps.org limit), plus the weeks of the launch calendar.

use async_trait::async_trait;
use kernel::{RepoError, Slug, Week};
use std::sync::Arc;
use time::OffsetDateTime;

/// The most addresses one sitemap file may hold (sitemaps.org).
pub const SITEMAP_FILE_LIMIT: u64 = 50_000;

/// Windows over the public addresses, in a stable order (by id), so a file keeps its contents
/// between crawls as long as nothing before it is removed.
#[async_trait]
pub trait SitemapRepository: Send + Sync {
    async fn count_live_listings(&self) -> Result<u64, RepoError>;
    /// Live listings' slugs and when each last changed, by id, `limit` from `offset`.
    async fn live_listings(&self, offset: u64, limit: u64) -> Result<Vec<(Slug, OffsetDateTime)>, RepoError>;
    async fn count_founders(&self) -> Result<u64, RepoError>;
    /// Slugs of founders of at least one live listing, by id, `limit` from `offset`.
    async fn founders(&self, offset: u64, limit: u64) -> Result<Vec<Slug>, RepoError>;
}

/// One file of the sitemap index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SitemapFile {
    /// The fixed pages, categories, weeks and blog posts.
    Pages,
    /// Live listings; the number counts from 1.
    Listings(u64),
    Founders(u64),
}

impl SitemapFile {
    /// `pages`, `listings-1`, `founders-2`.
    pub fn name(self) -> String {
        match self {
            Self::Pages => "pages".to_owned(),
            Self::Listings(n) => format!("listings-{n}"),
            Self::Founders(n) => format!("founders-{n}"),
        }
    }

    pub fn parse(name: &str) -> Option<Self> {
        if name == "pages" {
            return Some(Self::Pages);
        }
        let (kind, number) = name.split_once('-')?;
        let number: u64 = number.parse().ok().filter(|n| *n >= 1)?;
        match kind {
            "listings" => Some(Self::Listings(number)),
            "founders" => Some(Self::Founders(number)),
            _ => None,
        }
    }
}

/// A listing's address in a sitemap: its slug and when it last changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SitemapListing {
    pub slug: Slug,
    pub updated_at: OffsetDateTime,
}

#[derive(Clone)]
pub struct SitemapService {
    repo: Arc<dyn SitemapRepository>,
    calendar: crate::CalendarService,
    file_limit: u64,
}

impl SitemapService {
    pub fn new(repo: Arc<dyn SitemapRepository>, calendar: crate::CalendarService) -> Self {
        Self { repo, calendar, file_limit: SITEMAP_FILE_LIMIT }
    }

    /// Smaller files than sitemaps.org allows (tests show the split without 50,000 rows).
    pub fn with_file_limit(mut self, limit: u64) -> Self {
        self.file_limit = limit.clamp(1, SITEMAP_FILE_LIMIT);
        self
    }

    /// Every file of the index: the pages, then as many listing and founder files as needed.
    pub async fn files(&self) -> Result<Vec<SitemapFile>, RepoError> {
        let (listings, founders) = (self.repo.count_live_listings().await?, self.repo.count_founders().await?);
        let mut files = vec![SitemapFile::Pages];
        files.extend((1..=listings.div_ceil(self.file_limit)).map(SitemapFile::Listings));
        files.extend((1..=founders.div_ceil(self.file_limit)).map(SitemapFile::Founders));
        Ok(files)
    }

    /// The live listings of file `number`; `None` past the last file.
    pub async fn listings(&self, number: u64) -> Result<Option<Vec<SitemapListing>>, RepoError> {
        let rows = self.repo.live_listings((number - 1).saturating_mul(self.file_limit), self.file_limit).await?;
        let exists = number == 1 || !rows.is_empty();
        Ok(exists.then(|| rows.into_iter().map(|(slug, updated_at)| SitemapListing { slug, updated_at }).collect()))
    }

    /// The founders of file `number`; `None` past the last file.
    pub async fn founders(&self, number: u64) -> Result<Option<Vec<Slug>>, RepoError> {
        let rows = self.repo.founders((number - 1).saturating_mul(self.file_limit), self.file_limit).await?;
        Ok((number == 1 || !rows.is_empty()).then_some(rows))
    }

    /// Every week from the first launch to the furthest bookable one: each has a page.
    pub async fn weeks(&self) -> Result<Vec<Week>, RepoError> {
        let (first, last) = (self.calendar.first_week().await?, self.calendar.last_bookable_week());
        let mut weeks = Vec::new();
        let mut week = first;
        while week <= last {
            weeks.push(week);
            week = week.plus_weeks(1);
        }
        Ok(weeks)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kernel::Clock;
    use std::sync::Mutex;

    struct Rows {
        listings: Vec<Slug>,
        founders: Vec<Slug>,
        asked: Mutex<Vec<(u64, u64)>>,
    }

    #[async_trait]
    impl SitemapRepository for Rows {
        async fn count_live_listings(&self) -> Result<u64, RepoError> {
            Ok(self.listings.len() as u64)
        }
        async fn live_listings(&self, offset: u64, limit: u64) -> Result<Vec<(Slug, OffsetDateTime)>, RepoError> {
            self.asked.lock().unwrap().push((offset, limit));
            Ok(self.listings.iter().skip(offset as usize).take(limit as usize).map(|s| (s.clone(), OffsetDateTime::UNIX_EPOCH)).collect())
        }
        async fn count_founders(&self) -> Result<u64, RepoError> {
            Ok(self.founders.len() as u64)
        }
        async fn founders(&self, offset: u64, limit: u64) -> Result<Vec<Slug>, RepoError> {
            Ok(self.founders.iter().skip(offset as usize).take(limit as usize).cloned().collect())
        }
    }

    fn service(listings: usize, founders: usize, limit: u64) -> (SitemapService, Arc<Rows>) {
        let slugs = |prefix: &str, n: usize| (0..n).map(|i| Slug::parse(&format!("{prefix}-{i}")).unwrap()).collect();
        let rows = Arc::new(Rows { listings: slugs("l", listings), founders: slugs("f", founders), asked: Mutex::default() });
        let policy = crate::CalendarPolicy { launch_offset: time::UtcOffset::UTC, weeks_ahead: 2 };
        let calendar = crate::CalendarService::new(Arc::new(crate::fakes::Launches::default()), crate::fakes::clock(), policy);
        (SitemapService::new(rows.clone(), calendar).with_file_limit(limit), rows)
    }

    #[tokio::test]
    async fn files_split_at_the_limit_and_cover_every_address_once() {
        let (sitemap, rows) = service(7, 3, 3);
        let files = sitemap.files().await.unwrap();
        let names: Vec<String> = files.iter().map(|f| f.name()).collect();
        assert_eq!(names, ["pages", "listings-1", "listings-2", "listings-3", "founders-1"]);
        let mut seen = Vec::new();
        for n in 1..=3 {
            let file = sitemap.listings(n).await.unwrap().unwrap();
            assert!(file.len() <= 3);
            seen.extend(file.into_iter().map(|l| l.slug));
        }
        assert_eq!(seen, rows.listings, "every live listing once, in order");
        assert_eq!(sitemap.listings(4).await.unwrap(), None, "past the last file");
        assert_eq!(*rows.asked.lock().unwrap(), [(0, 3), (3, 3), (6, 3), (9, 3)]);
        assert_eq!(sitemap.founders(1).await.unwrap().unwrap().len(), 3);
        assert_eq!(sitemap.founders(2).await.unwrap(), None);
    }

    #[tokio::test]
    async fn an_empty_directory_still_has_its_first_files_and_the_limit_is_capped() {
        let (sitemap, _) = service(0, 0, 10);
        assert_eq!(sitemap.files().await.unwrap(), [SitemapFile::Pages]);
        assert_eq!(sitemap.listings(1).await.unwrap(), Some(Vec::new()));
        assert_eq!(sitemap.with_file_limit(1_000_000).file_limit, SITEMAP_FILE_LIMIT);
    }

    #[tokio::test]
    async fn weeks_run_from_the_first_launch_to_the_last_bookable_week() {
        let (sitemap, _) = service(0, 0, 10);
        let weeks = sitemap.weeks().await.unwrap();
        let current = Week::at(crate::fakes::clock().now(), time::UtcOffset::UTC);
        assert_eq!(weeks, [current, current.plus_weeks(1), current.plus_weeks(2)], "no launch yet: this week and the bookable ones");
    }

    #[test]
    fn file_names_read_back() {
        for file in [SitemapFile::Pages, SitemapFile::Listings(12), SitemapFile::Founders(1)] {
            assert_eq!(SitemapFile::parse(&file.name()), Some(file));
        }
        for bad in ["listings-0", "listings-", "listings-x", "votes-1", "pages-1", ""] {
            assert_eq!(SitemapFile::parse(bad), None, "{bad}");
        }
    }
}
