//! `DraftsService`: the use cases behind the draft operations, and the jobs that read sites,
//! redraft fields and compare a competitor.

use crate::edit::{DraftEdit, check_field_values};
use crate::grounding::{CategoryRef, Proposal, ground, seo_of};
use crate::jobs::{CompareCompetitor, CrawlDraft, RegenerateDraft};
use crate::model::{ComparisonRow, Competitor, Draft, DraftId, DraftStatus, FailureReason, FieldName, FieldState, FieldValue, Section};
use crate::ports::{DraftCategories, DraftRepository, Drafter, DrafterError, SiteReader};
use crate::site::SiteSnapshot;
use crate::submission::submission_of;
use kernel::WebUrl;
use kernel::{Clock, Email, FieldError, Job, ListingId, MailError, Mailer, NewJob, PageRequest, Paged, RepoError, UserId};
use listings::{SubmissionError, SubmissionService};
use std::sync::Arc;

/// How many times a read-modify-write of a draft is tried before it gives way.
pub(crate) const WRITE_TRIES: usize = 5;

/// Pages read per draft: the homepage and up to nine more.
pub const MAX_PAGES: usize = 10;
/// Pages read of a competitor's site.
pub const COMPETITOR_PAGES: usize = 3;
/// Co-founder invitations per draft.
pub const MAX_INVITES: u32 = 10;

/// Why a draft use case did not succeed.
#[derive(Debug, thiserror::Error)]
pub enum DraftError {
    #[error("no such draft")]
    NotFound,
    #[error("invalid input")]
    Invalid(Vec<FieldError>),
    #[error(transparent)]
    Repo(#[from] RepoError),
    #[error(transparent)]
    Mail(#[from] MailError),
    /// Other writers kept changing the draft between our read and our write: try again soon.
    #[error("the draft kept changing while it was being updated; try again")]
    Contention,
    /// The site could not be reached; a passing fault worth another try.
    #[error("the site could not be reached: {0}")]
    SiteUnreachable(String),
    #[error(transparent)]
    Drafter(#[from] DrafterError),
    /// A quota of invitations is spent: try again in `retry_after` seconds.
    #[error("{detail}")]
    RateLimited { retry_after: u32, detail: String },
}

impl From<SubmissionError> for DraftError {
    fn from(error: SubmissionError) -> Self {
        match error {
            SubmissionError::Invalid(errors) => Self::Invalid(errors),
            SubmissionError::Repo(error) => Self::Repo(error),
        }
    }
}

impl DraftError {
    pub(crate) fn field(field: impl Into<String>, message: impl Into<String>) -> Self {
        Self::Invalid(vec![FieldError::new(field, message)])
    }
}

/// What `invite_cofounder` did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invitation {
    pub email: Email,
    pub invites_sent: u32,
    pub invites_left: u32,
}

/// Settings of the drafts domain.
#[derive(Debug, Clone)]
pub struct DraftsPolicy {
    /// The site address, for links in e-mails.
    pub site_url: String,
    pub site_name: String,
    /// Co-founder invitations an account may send in any 24 hours.
    pub invites_per_account_per_day: u32,
    /// Co-founder invitations one address may receive in any 24 hours.
    pub invites_per_recipient_per_day: u32,
}

#[derive(Clone)]
pub struct DraftsService {
    pub(crate) repo: Arc<dyn DraftRepository>,
    pub(crate) reader: Arc<dyn SiteReader>,
    drafter: Arc<dyn Drafter>,
    categories: Arc<dyn DraftCategories>,
    listings: SubmissionService,
    /// Keeps the pictures found on a site, and checks the ones a maker names.
    pub(crate) media: media::MediaService,
    pub(crate) mailer: Arc<dyn Mailer>,
    pub(crate) clock: Arc<dyn Clock>,
    pub(crate) policy: DraftsPolicy,
}

/// The ports a `DraftsService` runs against.
pub struct DraftsPorts {
    pub repo: Arc<dyn DraftRepository>,
    pub reader: Arc<dyn SiteReader>,
    pub drafter: Arc<dyn Drafter>,
    pub categories: Arc<dyn DraftCategories>,
    /// The listings domain's use case that turns a submitted draft into a listing.
    pub listings: SubmissionService,
    /// The media domain's use cases: pictures found on a site are kept through them.
    pub media: media::MediaService,
    pub mailer: Arc<dyn Mailer>,
    pub clock: Arc<dyn Clock>,
}

impl DraftsService {
    pub fn new(ports: DraftsPorts, policy: DraftsPolicy) -> Self {
        let DraftsPorts { repo, reader, drafter, categories, listings, media, mailer, clock } = ports;
        Self { repo, reader, drafter, categories, listings, media, mailer, clock, policy }
    }

    /// `submit_listing`: a new draft for the website, read in the background.
    pub async fn submit(&self, owner: UserId, url: &str) -> Result<Draft, DraftError> {
        let url = WebUrl::parse(url).map_err(|message| DraftError::field("url", message))?;
        let now = self.clock.now();
        let draft = Draft::new(owner, url, now);
        let job = CrawlDraft { draft_id: draft.id }.new_job(now);
        self.repo.insert(&draft, &job).await?;
        Ok(draft)
    }

    /// `list_my_drafts`: newest first.
    pub async fn list(&self, owner: UserId, page: PageRequest) -> Result<Paged<Draft>, DraftError> {
        Ok(self.repo.list(owner, page).await?)
    }

    /// `get_draft`: someone else's draft is not found.
    pub async fn get(&self, owner: UserId, id: DraftId) -> Result<Draft, DraftError> {
        Ok(self.load_owned(owner, id).await?.0)
    }

    pub(crate) async fn load_owned(&self, owner: UserId, id: DraftId) -> Result<(Draft, u64), DraftError> {
        match self.repo.get(id).await? {
            Some((draft, version)) if draft.owner == owner => Ok((draft, version)),
            _ => Err(DraftError::NotFound),
        }
    }

    /// `update_draft`. Every change is checked before anything is written; a submitted draft's
    /// listing is updated too.
    pub async fn update(&self, owner: UserId, id: DraftId, edit: DraftEdit) -> Result<Draft, DraftError> {
        let categories =
            if edit.fields.iter().any(|(name, _)| *name == FieldName::Categories) { self.categories.all().await? } else { Vec::new() };
        if let Some(pictures) = &edit.pictures {
            self.check_uploads(owner, id, pictures).await?;
        }
        // Optimistic locking: a background job may write the draft between our read and write.
        for _ in 0..WRITE_TRIES {
            let (mut draft, version) = self.load_owned(owner, id).await?;
            let job = self.apply(&mut draft, &edit, &categories)?;
            if draft.status == DraftStatus::Submitted {
                // The listing takes the edit too: refuse it before anything is written when the
                // listing's bounds do not allow it.
                submission_of(&draft)?.check().map_err(DraftError::Invalid)?;
            }
            draft.updated_at = self.clock.now();
            if self.repo.save(&draft, version, job.as_ref()).await? {
                if draft.status == DraftStatus::Submitted {
                    self.save_listing(&mut draft).await?;
                }
                return Ok(draft);
            }
        }
        Err(DraftError::Contention)
    }

    /// Applies an edit in memory; returns the job it needs, if any.
    fn apply(&self, draft: &mut Draft, edit: &DraftEdit, categories: &[CategoryRef]) -> Result<Option<NewJob>, DraftError> {
        let mut errors = Vec::new();
        let values = check_field_values(&edit.fields, categories, &mut errors);
        for (at, socials) in [("company_socials", &edit.company_socials), ("founder_socials", &edit.founder_socials)] {
            if let Some(socials) = socials {
                kernel::check_socials(at, socials, &mut errors);
            }
        }
        let busy = matches!(draft.status, DraftStatus::Crawling | DraftStatus::Drafting);
        for (i, name) in edit.regenerate.iter().enumerate() {
            if draft.field(*name).locked || edit.lock_fields.contains(name) {
                errors.push(FieldError::new(
                    format!("regenerate[{i}]"),
                    format!("{name} is locked (override); unlock it by setting it instead"),
                ));
            } else if busy {
                errors.push(FieldError::new(format!("regenerate[{i}]"), "the draft is still being drafted; wait until it is ready"));
            } else if draft.regenerating.contains(name) {
                errors.push(FieldError::new(format!("regenerate[{i}]"), format!("{name} is being redrafted already")));
            }
        }
        let competitor = match edit.competitor_url.as_deref().map(str::trim) {
            None | Some("") => None,
            Some(url) => match WebUrl::parse(url) {
                Ok(url) => Some(url),
                Err(message) => {
                    errors.push(FieldError::new("competitor_url", message));
                    None
                }
            },
        };
        let pictures = edit.pictures.as_ref().map(|pictures| {
            let merged = crate::pictures::merge_pictures(&draft.pictures, pictures);
            crate::pictures::check_pictures(&merged, &mut errors);
            merged
        });
        if !errors.is_empty() {
            return Err(DraftError::Invalid(errors));
        }
        if let Some(pictures) = pictures {
            draft.pictures = pictures;
        }

        for (name, value) in values {
            draft.field_mut(name).set_by_caller(value);
        }
        for name in &edit.restore {
            draft.field_mut(*name).restore();
        }
        for name in &edit.lock_fields {
            draft.field_mut(*name).locked = true;
        }
        if let Some(faqs) = &edit.faqs {
            draft.faqs.set_by_caller(faqs.clone());
        }
        if let Some(socials) = &edit.company_socials {
            draft.company_socials.set_by_caller(socials.clone());
        }
        if let Some(socials) = &edit.founder_socials {
            draft.founder_socials.set_by_caller(socials.clone());
        }
        if let Some(founders) = &edit.founders {
            draft.founders.set_by_caller(founders.clone());
        }
        if let Some(story) = &edit.story {
            draft.story.set_by_caller(story.clone());
        }
        if let Some(milestones) = &edit.milestones {
            draft.milestones.set_by_caller(milestones.clone());
        }
        if let Some(seo) = &edit.seo {
            draft.seo.set_by_caller(seo.clone());
        }
        let now = self.clock.now();
        let mut job = None;
        match (&edit.competitor_url, competitor) {
            (Some(_), Some(url)) => {
                draft.competitor =
                    Some(Competitor { url: url.clone(), status: "pending".into(), failure_reason: None, comparison: Vec::new() });
                job = Some(CompareCompetitor { draft_id: draft.id, url }.new_job(now));
            }
            (Some(_), None) => draft.competitor = None,
            (None, _) => {}
        }
        if !edit.regenerate.is_empty() {
            for name in &edit.regenerate {
                if !draft.regenerating.contains(name) {
                    draft.regenerating.push(*name);
                }
            }
            // A competitor read and a redraft in one edit: the redraft job carries both.
            let competitor_url = job.take().and(draft.competitor.as_ref().map(|c| c.url.clone()));
            job = Some(RegenerateDraft { draft_id: draft.id, fields: draft.regenerating.clone(), competitor_url }.new_job(now));
        }
        Ok(job)
    }

    /// `submit_draft`: saves the draft as a listing in status `draft` (not published), or
    /// updates the listing made before.
    pub async fn submit_draft(&self, owner: UserId, id: DraftId) -> Result<(Draft, ListingId), DraftError> {
        // The listing made by a try that lost the race for the draft's version: the next try
        // updates it instead of making a second one.
        let mut made: Option<ListingId> = None;
        for _ in 0..WRITE_TRIES {
            let (mut draft, version) = self.load_owned(owner, id).await?;
            if matches!(draft.status, DraftStatus::Crawling | DraftStatus::Drafting) {
                return Err(DraftError::field("id", "the draft is still being drafted; submit it when its status is ready"));
            }
            // A site on a network we never reach cannot become a listing: its badge could never
            // be checked, and its address would be published as if it were a public site.
            if draft.failure_reason == Some(FailureReason::BlockedAddress) {
                return Err(DraftError::field(
                    "id",
                    "the draft's address leads to a network this directory never reaches; it cannot be submitted",
                ));
            }
            if draft.listing_id.is_none() {
                draft.listing_id = made;
            }
            let listing = self.save_listing(&mut draft).await?;
            made = Some(listing);
            draft.status = DraftStatus::Submitted;
            draft.failure_reason = None;
            draft.updated_at = self.clock.now();
            if self.repo.save(&draft, version, None).await? {
                return Ok((draft, listing));
            }
        }
        Err(DraftError::Contention)
    }

    /// Hands the draft to the listings domain, which checks it and writes the listing.
    async fn save_listing(&self, draft: &mut Draft) -> Result<ListingId, DraftError> {
        let submission = submission_of(draft)?;
        let id = self.listings.save(draft.owner, draft.listing_id, &submission).await?;
        draft.listing_id = Some(id);
        Ok(id)
    }

    /// A job of this domain was given up (its last attempt failed or died): the draft shows
    /// that instead of waiting forever. `crawl`: the read itself; `fields` and `competitor`:
    /// what a redraft or a comparison was working on.
    pub(crate) async fn abandon(
        &self,
        id: DraftId,
        crawl: bool,
        fields: Vec<FieldName>,
        competitor: Option<WebUrl>,
    ) -> Result<(), DraftError> {
        self.modify(id, move |draft| {
            if crawl && matches!(draft.status, DraftStatus::Crawling | DraftStatus::Drafting) {
                draft.status = DraftStatus::Failed;
                draft.failure_reason = Some(FailureReason::Internal);
            }
            draft.regenerating.retain(|name| !fields.contains(name));
            if let Some(competitor) = draft.competitor.as_mut().filter(|c| Some(&c.url) == competitor.as_ref() && c.status == "pending") {
                competitor.status = "failed".into();
                competitor.failure_reason = Some(FailureReason::Internal);
            }
        })
        .await
    }

    /// Reads the site, drafts, checks grounding, and makes the draft `ready` (or `failed`).
    pub(crate) async fn crawl(&self, id: DraftId, last_attempt: bool) -> Result<(), DraftError> {
        let Some((draft, _)) = self.repo.get(id).await? else { return Ok(()) };
        match draft.status {
            DraftStatus::Crawling => {}
            // An earlier run read the site and failed while drafting: draft from what it read.
            DraftStatus::Drafting => {
                if let Some(snapshot) = self.repo.snapshot(id).await? {
                    let proposal = self.propose(&snapshot).await?;
                    return self.make_ready(id, &proposal).await;
                }
            }
            // Done by an earlier run whose completion was not recorded.
            _ => return Ok(()),
        }
        let snapshot = match self.reader.read(&draft.url, MAX_PAGES).await {
            Ok(snapshot) => snapshot,
            Err(failure) => {
                let reason = failure.reason();
                // An unreachable site may be a passing fault: retried with backoff before failing.
                if reason == FailureReason::Unreachable && !last_attempt {
                    return Err(DraftError::SiteUnreachable(failure.to_string()));
                }
                tracing::info!(draft = %id, %failure, "the site could not be read");
                return self
                    .modify(id, |draft| {
                        draft.status = DraftStatus::Failed;
                        draft.failure_reason = Some(reason);
                    })
                    .await;
            }
        };
        self.repo.save_snapshot(id, &snapshot).await?;
        self.modify(id, |draft| {
            draft.status = DraftStatus::Drafting;
            draft.pages_read = snapshot.pages.iter().map(|page| page.url.clone()).collect();
            draft.pages_skipped = snapshot.skipped.clone();
            draft.pages_rendered = snapshot.rendered.clone();
            draft.pages_needing_javascript = snapshot.needs_javascript.clone();
        })
        .await?;
        let proposal = self.propose(&snapshot).await?;
        self.make_ready(id, &proposal).await
    }

    /// The draft takes its proposal and is ready; the site's pictures are looked for next, by a
    /// job of their own (fetching and keeping them takes longer than drafting), enqueued in the
    /// same write.
    async fn make_ready(&self, id: DraftId, proposal: &Proposal) -> Result<(), DraftError> {
        for _ in 0..2 * WRITE_TRIES {
            let Some((mut draft, version)) = self.repo.get(id).await? else { return Ok(()) };
            take_proposal(&mut draft, proposal, None);
            draft.status = DraftStatus::Ready;
            let job = draft.pictures.is_empty().then(|| crate::jobs::CollectPictures { draft_id: id }.new_job(self.clock.now()));
            draft.looking_for_pictures = job.is_some();
            draft.updated_at = self.clock.now();
            if self.repo.save(&draft, version, job.as_ref()).await? {
                return Ok(());
            }
        }
        Err(DraftError::Contention)
    }

    /// Drafts and grounds a proposal.
    async fn propose(&self, snapshot: &SiteSnapshot) -> Result<Proposal, DraftError> {
        let categories = self.categories.all().await?;
        let proposal = self.drafter.draft(snapshot, &categories).await?;
        let (kept, dropped) = ground(proposal, snapshot, &categories);
        for item in &dropped {
            tracing::info!(what = %item.what, why = %item.why, "grounding dropped a proposed value");
        }
        Ok(kept)
    }

    pub(crate) async fn regenerate(&self, id: DraftId, fields: &[FieldName]) -> Result<(), DraftError> {
        let Some((draft, _)) = self.repo.get(id).await? else { return Ok(()) };
        let snapshot = match self.repo.snapshot(id).await? {
            Some(snapshot) => snapshot,
            None => match self.reader.read(&draft.url, MAX_PAGES).await {
                Ok(snapshot) => {
                    self.repo.save_snapshot(id, &snapshot).await?;
                    snapshot
                }
                Err(_) => SiteSnapshot::default(),
            },
        };
        let proposal = if snapshot.pages.is_empty() { Proposal::default() } else { self.propose(&snapshot).await? };
        self.modify(id, |draft| {
            take_proposal(draft, &proposal, Some(fields));
            draft.regenerating.retain(|name| !fields.contains(name));
        })
        .await
    }

    pub(crate) async fn compare(&self, id: DraftId, url: &WebUrl) -> Result<(), DraftError> {
        let outcome = match self.reader.read(url, COMPETITOR_PAGES).await {
            Ok(snapshot) => Ok((self.propose(&snapshot).await?, snapshot)),
            Err(failure) => Err(failure.reason()),
        };
        self.modify(id, |draft| {
            let Some(competitor) = draft.competitor.as_mut().filter(|c| &c.url == url) else { return };
            match &outcome {
                Ok((proposal, _)) => {
                    competitor.status = "ready".into();
                    competitor.comparison = COMPARED
                        .iter()
                        .map(|field| {
                            let ours = draft.fields.get(field).and_then(|f| f.value.as_ref()).map(render);
                            let theirs = proposal.fields.get(field);
                            ComparisonRow {
                                field: field.as_str().into(),
                                ours,
                                theirs: theirs.map(|p| render(&p.value)),
                                evidence: theirs.map(|p| p.evidence.clone()).unwrap_or_default(),
                            }
                        })
                        .collect();
                }
                Err(reason) => {
                    competitor.status = "failed".into();
                    competitor.failure_reason = Some(*reason);
                }
            }
        })
        .await
    }

    /// Read-modify-write of a draft by a job, retried when the caller wrote it meanwhile.
    pub(crate) async fn modify(&self, id: DraftId, change: impl Fn(&mut Draft)) -> Result<(), DraftError> {
        // Jobs try harder than callers: a person can retry a 409, a job would only back off.
        for _ in 0..2 * WRITE_TRIES {
            let Some((mut draft, version)) = self.repo.get(id).await? else { return Ok(()) };
            change(&mut draft);
            draft.updated_at = self.clock.now();
            if self.repo.save(&draft, version, None).await? {
                if draft.status == DraftStatus::Submitted && draft.listing_id.is_some() {
                    // Redrafted fields of a submitted draft reach its listing too; a listing
                    // that no longer accepts them keeps its values.
                    let _ = self.save_listing(&mut draft).await;
                }
                return Ok(());
            }
        }
        Err(DraftError::Contention)
    }
}

/// Facts set side by side with a competitor.
const COMPARED: [FieldName; 9] = [
    FieldName::Name,
    FieldName::Tagline,
    FieldName::Categories,
    FieldName::PricingModel,
    FieldName::PricingSummary,
    FieldName::Features,
    FieldName::Country,
    FieldName::FoundedYear,
    FieldName::Stage,
];

fn render(value: &FieldValue) -> String {
    match value {
        FieldValue::Text(text) => text.clone(),
        FieldValue::List(items) => items.join("; "),
    }
}

/// Takes a grounded proposal into a draft: every field the caller has not made their own
/// (`only`: just these fields). Locked fields are never touched.
fn take_proposal(draft: &mut Draft, proposal: &Proposal, only: Option<&[FieldName]>) {
    for name in FieldName::ALL {
        if only.is_some_and(|only| !only.contains(&name)) {
            continue;
        }
        // A value its own check would refuse is not proposed at all.
        let drafted = proposal.fields.get(&name).filter(|proposed| crate::edit::passes_checks(name, &proposed.value)).cloned();
        let field = draft.field_mut(name);
        let caller_owned = matches!(field.state, FieldState::Edited | FieldState::Manual | FieldState::Deleted);
        if field.locked || (caller_owned && only.is_none()) {
            // Keep the AI's latest value for `restore`, without changing what the caller chose.
            if !field.locked {
                field.ai = drafted;
            }
            continue;
        }
        field.take_ai(drafted);
    }
    if only.is_some() {
        return;
    }
    fn section<T: Clone>(section: &mut Section<T>, value: T, evidence: Vec<crate::Evidence>, found: bool) {
        if matches!(section.state, FieldState::Ai | FieldState::NotFound) {
            section.value = value;
            section.evidence = evidence;
            section.state = if found { FieldState::Ai } else { FieldState::NotFound };
        }
    }
    let evidence = |items: &mut dyn Iterator<Item = &Vec<crate::Evidence>>| items.flatten().cloned().collect::<Vec<_>>();
    section(
        &mut draft.faqs,
        proposal.faqs.iter().map(|p| p.value.clone()).take(10).collect(),
        evidence(&mut proposal.faqs.iter().map(|p| &p.evidence)),
        !proposal.faqs.is_empty(),
    );
    section(
        &mut draft.founders,
        proposal.founders.iter().map(|p| p.value.clone()).take(6).collect(),
        evidence(&mut proposal.founders.iter().map(|p| &p.evidence)),
        !proposal.founders.is_empty(),
    );
    section(
        &mut draft.company_socials,
        proposal.socials.iter().map(|p| (p.value.key.clone(), p.value.url.clone())).collect(),
        evidence(&mut proposal.socials.iter().map(|p| &p.evidence)),
        !proposal.socials.is_empty(),
    );
    match seo_of(proposal) {
        Some((seo, quotes)) => section(&mut draft.seo, seo, quotes, true),
        None => section(&mut draft.seo, Default::default(), Vec::new(), false),
    }
}
