//! In-memory stand-ins for the ports of the drafts domain, so use cases and job handlers are
//! tested without a database, a network or a model.

use crate::InviteQuota;
use crate::grounding::{CategoryRef, Proposal};
use crate::model::{Draft, DraftId, Evidence, FieldName, FieldValue, Proposed};
use crate::ports::{DraftCategories, DraftRepository, Drafter, DrafterError, InviteOutcome, SiteReader};
use crate::service::{DraftsPolicy, DraftsPorts, DraftsService};
use crate::site::{BlockKind, Page, ReadFailure, SiteSnapshot, TextBlock};
use async_trait::async_trait;
use kernel::{FixedClock, ListingId, NewJob, PageRequest, Paged, RepoError, UserId};
use listings::{CheckedSubmission, SubmissionService, SubmittedListingRepository};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use time::OffsetDateTime;

pub(crate) const T0: OffsetDateTime = time::macros::datetime!(2026-11-16 09:00 UTC);

/// Drafts, snapshots and the jobs enqueued with them.
#[derive(Default)]
pub(crate) struct Drafts {
    pub drafts: Mutex<HashMap<DraftId, (Draft, u64)>>,
    pub snapshots: Mutex<HashMap<DraftId, SiteSnapshot>>,
    pub jobs: Mutex<Vec<NewJob>>,
}

#[async_trait]
impl DraftRepository for Drafts {
    async fn insert(&self, draft: &Draft, job: &NewJob) -> Result<(), RepoError> {
        self.drafts.lock().unwrap().insert(draft.id, (draft.clone(), 0));
        self.jobs.lock().unwrap().push(job.clone());
        Ok(())
    }

    async fn get(&self, id: DraftId) -> Result<Option<(Draft, u64)>, RepoError> {
        Ok(self.drafts.lock().unwrap().get(&id).cloned())
    }

    async fn list(&self, owner: UserId, _: PageRequest) -> Result<Paged<Draft>, RepoError> {
        let items: Vec<Draft> = self.drafts.lock().unwrap().values().filter(|(d, _)| d.owner == owner).map(|(d, _)| d.clone()).collect();
        let total = items.len() as u64;
        Ok(Paged { items, page: 1, per_page: 20, total })
    }

    async fn save(&self, draft: &Draft, version: u64, job: Option<&NewJob>) -> Result<bool, RepoError> {
        let mut drafts = self.drafts.lock().unwrap();
        match drafts.get(&draft.id) {
            Some((_, current)) if *current == version => {
                drafts.insert(draft.id, (draft.clone(), version + 1));
                self.jobs.lock().unwrap().extend(job.cloned());
                Ok(true)
            }
            _ => Ok(false),
        }
    }

    async fn save_snapshot(&self, id: DraftId, snapshot: &SiteSnapshot) -> Result<(), RepoError> {
        self.snapshots.lock().unwrap().insert(id, snapshot.clone());
        Ok(())
    }

    async fn snapshot(&self, id: DraftId) -> Result<Option<SiteSnapshot>, RepoError> {
        Ok(self.snapshots.lock().unwrap().get(&id).cloned())
    }

    async fn add_invite(
        &self,
        _: DraftId,
        _: UserId,
        _: &str,
        _: &str,
        _: InviteQuota,
        _: OffsetDateTime,
    ) -> Result<InviteOutcome, RepoError> {
        Ok(InviteOutcome::Added { sent: 1 })
    }

    async fn invite_by_token(&self, _: &str) -> Result<Option<crate::ports::StoredInvite>, RepoError> {
        Ok(None)
    }

    async fn accept_invite(&self, _: i64, _: UserId, _: OffsetDateTime) -> Result<bool, RepoError> {
        Ok(false)
    }

    async fn reopen_invite(&self, _: i64) -> Result<(), RepoError> {
        Ok(())
    }
}

/// A website: one page per address, or a failure.
#[derive(Default)]
pub(crate) struct Sites {
    pub pages: Mutex<HashMap<String, Result<SiteSnapshot, String>>>,
}

impl Sites {
    /// A site whose homepage says `text` in one paragraph.
    pub fn serve(&self, url: &str, text: &str) {
        let page = Page {
            url: url.to_owned(),
            blocks: vec![TextBlock { kind: BlockKind::Paragraph, text: text.to_owned(), section: None, role: Default::default() }],
            ..Default::default()
        };
        self.pages
            .lock()
            .unwrap()
            .insert(url.to_owned(), Ok(SiteSnapshot { home_url: url.to_owned(), pages: vec![page], ..SiteSnapshot::default() }));
    }

    pub fn down(&self, url: &str) {
        self.pages.lock().unwrap().insert(url.to_owned(), Err("connection refused".into()));
    }
}

#[async_trait]
impl SiteReader for Sites {
    async fn read(&self, url: &kernel::WebUrl, _: usize) -> Result<SiteSnapshot, ReadFailure> {
        match self.pages.lock().unwrap().get(url.as_str()) {
            Some(Ok(snapshot)) => Ok(snapshot.clone()),
            Some(Err(why)) => Err(ReadFailure::Unreachable(why.clone())),
            None => Err(ReadFailure::Unreachable("no such site".into())),
        }
    }

    async fn picture(&self, url: &kernel::WebUrl, _: usize) -> Result<Vec<u8>, ReadFailure> {
        Err(ReadFailure::Unreachable(format!("no picture at {url}")))
    }
}

/// Proposes the homepage's first paragraph as the name, quoting it.
pub(crate) struct FirstParagraphDrafter;

#[async_trait]
impl Drafter for FirstParagraphDrafter {
    async fn draft(&self, site: &SiteSnapshot, _: &[CategoryRef]) -> Result<Proposal, DrafterError> {
        let mut proposal = Proposal::default();
        if let Some(block) = site.pages.first().and_then(|page| page.blocks.first()) {
            let evidence = vec![Evidence::new(site.home_url.clone(), block.text.clone(), crate::Basis::PageText)];
            proposal.fields.insert(FieldName::Name, Proposed { value: FieldValue::Text(block.text.clone()), evidence });
        }
        Ok(proposal)
    }
}

/// One category: Productivity.
pub(crate) struct OneCategory;

#[async_trait]
impl DraftCategories for OneCategory {
    async fn all(&self) -> Result<Vec<CategoryRef>, RepoError> {
        Ok(vec![CategoryRef { slug: "productivity".into(), name: "Productivity".into(), ..CategoryRef::default() }])
    }
}

/// Listings written by submitted drafts.
#[derive(Default)]
pub(crate) struct Listings {
    pub saved: Mutex<Vec<CheckedSubmission>>,
}

#[async_trait]
impl SubmittedListingRepository for Listings {
    async fn save_submitted(
        &self,
        _: UserId,
        existing: Option<ListingId>,
        listing: &CheckedSubmission,
        _: OffsetDateTime,
    ) -> Result<ListingId, RepoError> {
        let mut saved = self.saved.lock().unwrap();
        saved.push(listing.clone());
        Ok(existing.unwrap_or(ListingId::new(saved.len() as i64)))
    }
}

/// A drafts service over fakes, with handles on each fake.
pub(crate) struct World {
    pub service: DraftsService,
    pub drafts: Arc<Drafts>,
    pub sites: Arc<Sites>,
    pub listings: Arc<Listings>,
}

impl World {
    pub fn new() -> Self {
        let drafts = Arc::new(Drafts::default());
        let sites = Arc::new(Sites::default());
        let listings = Arc::new(Listings::default());
        let clock = Arc::new(FixedClock::new(T0));
        let service = DraftsService::new(
            DraftsPorts {
                repo: drafts.clone(),
                reader: sites.clone(),
                drafter: Arc::new(FirstParagraphDrafter),
                categories: Arc::new(OneCategory),
                listings: SubmissionService::new(listings.clone(), clock.clone()),
                media: media::testing::media_service(clock.clone()),
                mailer: Arc::new(kernel::MemoryMailer::default()),
                clock: clock.clone(),
            },
            DraftsPolicy {
                site_url: "https://launchdir.example".into(),
                site_name: "Launchdir".into(),
                invites_per_account_per_day: 30,
                invites_per_recipient_per_day: 3,
            },
        );
        Self { service, drafts, sites, listings }
    }

    pub fn draft(&self, id: DraftId) -> Draft {
        self.drafts.drafts.lock().unwrap()[&id].0.clone()
    }
}
