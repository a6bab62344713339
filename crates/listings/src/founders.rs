//! Founders behind live listings: a searchable list and public profiles.

use crate::model::ListingSummary;
use crate::service::DirectoryShape;
use async_trait::async_trait;
use kernel::{Clock, CountryCode, PageRequest, Paged, RepoError, Slug};
use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::Arc;
use time::OffsetDateTime;

/// A listing named from a founder's side.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CompanyRef {
    pub slug: Slug,
    pub name: String,
}

/// A founder in a list, with the live listings they founded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FounderSummary {
    pub slug: Slug,
    pub name: String,
    pub title: Option<String>,
    pub country: Option<CountryCode>,
    /// Their picture, an image we keep, when an owner of one of their listings set one.
    pub avatar: Option<kernel::ImageRef>,
    pub companies: Vec<CompanyRef>,
}

/// A founder story published with one of the founder's listings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PublishedStory {
    pub listing: CompanyRef,
    pub story: kernel::Story,
    pub published_at: OffsetDateTime,
}

/// A founder's public profile.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FounderProfile {
    pub slug: Slug,
    pub name: String,
    pub title: Option<String>,
    pub bio: Option<String>,
    pub country: Option<CountryCode>,
    /// Their picture, an image we keep, when an owner of one of their listings set one.
    pub avatar: Option<kernel::ImageRef>,
    /// Platform key (`x`, `linkedin`, ...) to link.
    pub socials: BTreeMap<String, String>,
    /// Live listings the founder founded, most voted first.
    pub companies: Vec<ListingSummary>,
    /// Published stories of those listings, newest first.
    pub stories: Vec<PublishedStory>,
    /// Interview answers of the account that owns a listing this founder is the primary
    /// founder of, in the questions' order.
    pub interview: Vec<crate::InterviewAnswer>,
}

/// Where founders are read from.
#[async_trait]
pub trait FounderRepository: Send + Sync {
    /// Founders of at least one live listing, by name (then id). `name_words` (lower case) must
    /// all appear in the name; `country` must match. `known_total`, when the directory's counts
    /// know how many match, spares counting them.
    async fn list_behind_live(
        &self,
        name_words: &[String],
        country: Option<&CountryCode>,
        page: PageRequest,
        known_total: Option<u64>,
    ) -> Result<Paged<FounderSummary>, RepoError>;

    /// The profile of the founder with this slug, with stories published at or before `now`;
    /// `None` when there is no such founder or none of their listings is live.
    async fn profile(&self, slug: &Slug, now: OffsetDateTime) -> Result<Option<FounderProfile>, RepoError>;
}

/// Why a founder read failed.
#[derive(Debug, thiserror::Error)]
pub enum FounderError {
    #[error("no founder of a live listing has this slug")]
    NotFound,
    #[error(transparent)]
    Repo(#[from] RepoError),
}

/// The founder use cases.
#[derive(Clone)]
pub struct FoundersService {
    founders: Arc<dyn FounderRepository>,
    clock: Arc<dyn Clock>,
    shape: DirectoryShape,
}

impl FoundersService {
    pub fn new(founders: Arc<dyn FounderRepository>, clock: Arc<dyn Clock>, shape: DirectoryShape) -> Self {
        Self { founders, clock, shape }
    }

    /// Founders behind live listings, optionally matched by name words and country.
    pub async fn list(
        &self,
        name: Option<&str>,
        country: Option<&CountryCode>,
        page: PageRequest,
    ) -> Result<Paged<FounderSummary>, FounderError> {
        let words: Vec<String> = name.map(|n| n.split_whitespace().map(str::to_lowercase).take(8).collect()).unwrap_or_default();
        let known_total = if words.is_empty() && country.is_none() { Some(self.shape.get().await?.1.founders) } else { None };
        Ok(self.founders.list_behind_live(&words, country, page, known_total).await?)
    }

    pub async fn profile(&self, slug: &Slug) -> Result<FounderProfile, FounderError> {
        self.founders.profile(slug, self.clock.now()).await?.ok_or(FounderError::NotFound)
    }
}
