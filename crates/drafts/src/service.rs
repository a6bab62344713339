//! `DraftsService`: the use cases behind the draft operations, and the jobs that read sites,
//! redraft fields and compare a competitor.

use crate::edit::{DraftEdit, check_field_values, check_socials, host_of, normalise_url};
use crate::grounding::{CategoryRef, Proposal, ground, seo_of};
use crate::model::{ComparisonRow, Competitor, Draft, DraftId, DraftStatus, FailureReason, FieldName, FieldState, FieldValue, Section};
use crate::ports::{DraftCategories, DraftRepository, Drafter, InviteOutcome, ListingDraft, ListingSink, SiteReader};
use crate::site::SiteSnapshot;
use kernel::{Clock, Email, FieldError, ListingId, MailError, Mailer, NewJob, OutgoingEmail, PageRequest, Paged, RepoError, UserId};
use serde_json::json;
use std::sync::Arc;

/// Job kinds this domain enqueues and runs.
pub mod jobs {
    /// Read the site and draft the profile: `{"draft_id"}`.
    pub const CRAWL: &str = "draft.crawl";
    /// Redraft some fields from what was read: `{"draft_id", "fields": [...]}`.
    pub const REGENERATE: &str = "draft.regenerate";
    /// Read a competitor's site and compare: `{"draft_id", "url"}`.
    pub const COMPETITOR: &str = "draft.competitor";
}

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
}

impl DraftError {
    fn field(field: impl Into<String>, message: impl Into<String>) -> Self {
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
}

#[derive(Clone)]
pub struct DraftsService {
    repo: Arc<dyn DraftRepository>,
    reader: Arc<dyn SiteReader>,
    drafter: Arc<dyn Drafter>,
    categories: Arc<dyn DraftCategories>,
    listings: Arc<dyn ListingSink>,
    mailer: Arc<dyn Mailer>,
    clock: Arc<dyn Clock>,
    policy: DraftsPolicy,
}

/// The ports a `DraftsService` runs against.
pub struct DraftsPorts {
    pub repo: Arc<dyn DraftRepository>,
    pub reader: Arc<dyn SiteReader>,
    pub drafter: Arc<dyn Drafter>,
    pub categories: Arc<dyn DraftCategories>,
    pub listings: Arc<dyn ListingSink>,
    pub mailer: Arc<dyn Mailer>,
    pub clock: Arc<dyn Clock>,
}

impl DraftsService {
    pub fn new(ports: DraftsPorts, policy: DraftsPolicy) -> Self {
        let DraftsPorts { repo, reader, drafter, categories, listings, mailer, clock } = ports;
        Self { repo, reader, drafter, categories, listings, mailer, clock, policy }
    }

    /// `submit_listing`: a new draft for the website, read in the background.
    pub async fn submit(&self, owner: UserId, url: &str) -> Result<Draft, DraftError> {
        let url = normalise_url(url).map_err(|message| DraftError::field("url", message))?;
        let now = self.clock.now();
        let draft = Draft::new(owner, url, now);
        let job = NewJob::now(jobs::CRAWL, json!({"draft_id": draft.id}), now);
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

    async fn load_owned(&self, owner: UserId, id: DraftId) -> Result<(Draft, u64), DraftError> {
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
        // Optimistic locking: a background job may write the draft between our read and write.
        for _ in 0..5 {
            let (mut draft, version) = self.load_owned(owner, id).await?;
            let job = self.apply(&mut draft, &edit, &categories)?;
            if draft.status == DraftStatus::Submitted {
                // The listing takes the edit too: refuse it before anything is written when the
                // listing's bounds do not allow it.
                listing_of(&draft)?;
            }
            draft.updated_at = self.clock.now();
            if self.repo.save(&draft, version, job.as_ref()).await? {
                if draft.status == DraftStatus::Submitted {
                    self.save_listing(&mut draft).await?;
                }
                return Ok(draft);
            }
        }
        Err(DraftError::Repo(RepoError::Backend("the draft kept changing while it was being updated".into())))
    }

    /// Applies an edit in memory; returns the job it needs, if any.
    fn apply(&self, draft: &mut Draft, edit: &DraftEdit, categories: &[CategoryRef]) -> Result<Option<NewJob>, DraftError> {
        let mut errors = Vec::new();
        let values = check_field_values(&edit.fields, categories, &mut errors);
        for (at, socials) in [("company_socials", &edit.company_socials), ("founder_socials", &edit.founder_socials)] {
            if let Some(socials) = socials {
                check_socials(at, socials, &mut errors);
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
            Some(url) => match normalise_url(url) {
                Ok(url) => Some(url),
                Err(message) => {
                    errors.push(FieldError::new("competitor_url", message));
                    None
                }
            },
        };
        if !errors.is_empty() {
            return Err(DraftError::Invalid(errors));
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
                job = Some(NewJob::now(jobs::COMPETITOR, json!({"draft_id": draft.id, "url": url}), now));
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
            let fields: Vec<&str> = draft.regenerating.iter().map(|f| f.as_str()).collect();
            let competitor = job.take().map(|job| job.payload["url"].clone());
            job = Some(NewJob::now(jobs::REGENERATE, json!({"draft_id": draft.id, "fields": fields, "competitor_url": competitor}), now));
        }
        Ok(job)
    }

    /// `invite_cofounder`: e-mails an invitation; at most ten per draft, each address once.
    pub async fn invite(&self, owner: UserId, id: DraftId, email: Email, inviter: &str) -> Result<Invitation, DraftError> {
        let (draft, _) = self.load_owned(owner, id).await?;
        let token = kernel::secrets::random_token().map_err(|err| DraftError::Repo(RepoError::backend(err)))?;
        // The repository counts and inserts in one transaction, so the limit holds under races.
        let sent =
            match self.repo.add_invite(id, email.as_str(), &kernel::secrets::sha256_hex(&token), MAX_INVITES, self.clock.now()).await? {
                InviteOutcome::Added { sent } => sent,
                InviteOutcome::Duplicate => return Err(DraftError::field("email", "this address was invited to this draft already")),
                InviteOutcome::LimitReached => {
                    return Err(DraftError::field("email", format!("a draft can send at most {MAX_INVITES} invitations")));
                }
            };
        let product = draft.text(FieldName::Name).unwrap_or(&draft.url).to_owned();
        let site = &self.policy;
        self.mailer
            .send(OutgoingEmail {
                to: email.clone(),
                subject: format!("{inviter} invites you to add your founder profile to {product}"),
                body: format!(
                    "Hello,\n\n{inviter} is listing {product} on {} and invites you, as a co-founder, to add your own founder profile.\n\nAccept the invitation here:\n{}/invites/{token}\n\nIf you do not know {product}, ignore this e-mail.\n",
                    site.site_name, site.site_url
                ),
                kind: "draft_invite".into(),
            })
            .await?;
        self.modify(id, |draft| draft.invites = draft.invites.max(sent)).await?;
        Ok(Invitation { email, invites_sent: sent, invites_left: MAX_INVITES.saturating_sub(sent) })
    }

    /// `submit_draft`: saves the draft as a listing in status `draft` (not published), or
    /// updates the listing made before.
    pub async fn submit_draft(&self, owner: UserId, id: DraftId) -> Result<(Draft, ListingId), DraftError> {
        // The listing made by a try that lost the race for the draft's version: the next try
        // updates it instead of making a second one.
        let mut made: Option<ListingId> = None;
        for _ in 0..5 {
            let (mut draft, version) = self.load_owned(owner, id).await?;
            if matches!(draft.status, DraftStatus::Crawling | DraftStatus::Drafting) {
                return Err(DraftError::field("id", "the draft is still being drafted; submit it when its status is ready"));
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
        Err(DraftError::Repo(RepoError::Backend("the draft kept changing while it was being updated".into())))
    }

    async fn save_listing(&self, draft: &mut Draft) -> Result<ListingId, DraftError> {
        let listing = listing_of(draft)?;
        let id = self.listings.save(draft.owner, draft.listing_id, &listing, self.clock.now()).await?;
        draft.listing_id = Some(id);
        Ok(id)
    }

    /// Runs a job of this domain. `Err` means "try again later"; outcomes a person should see
    /// (an unreadable site) are written to the draft and are `Ok`.
    pub async fn run_job(&self, kind: &str, payload: &serde_json::Value, last_attempt: bool) -> Result<(), DraftError> {
        let Some(id) = payload["draft_id"].as_str().and_then(|id| id.parse().ok()).map(DraftId) else {
            return Err(DraftError::field("payload.draft_id", "is missing"));
        };
        match kind {
            jobs::CRAWL => self.crawl(id, last_attempt).await,
            jobs::REGENERATE => {
                let fields: Vec<FieldName> =
                    payload["fields"].as_array().into_iter().flatten().filter_map(|f| f.as_str().and_then(FieldName::parse)).collect();
                self.regenerate(id, &fields).await?;
                match payload["competitor_url"].as_str() {
                    Some(url) => self.compare(id, url).await,
                    None => Ok(()),
                }
            }
            jobs::COMPETITOR => self.compare(id, payload["url"].as_str().unwrap_or_default()).await,
            _ => Err(DraftError::field("kind", format!("{kind} is not a drafts job"))),
        }
    }

    /// A job of this domain failed for good (or its worker died on the last attempt): the
    /// draft shows that instead of waiting forever.
    pub async fn abandon(&self, kind: &str, payload: &serde_json::Value) -> Result<(), DraftError> {
        let Some(id) = payload["draft_id"].as_str().and_then(|id| id.parse().ok()).map(DraftId) else { return Ok(()) };
        let fields: Vec<FieldName> =
            payload["fields"].as_array().into_iter().flatten().filter_map(|f| f.as_str().and_then(FieldName::parse)).collect();
        let url = payload["url"].as_str().or(payload["competitor_url"].as_str()).map(str::to_owned);
        let kind = kind.to_owned();
        self.modify(id, move |draft| {
            if kind == jobs::CRAWL && matches!(draft.status, DraftStatus::Crawling | DraftStatus::Drafting) {
                draft.status = DraftStatus::Failed;
                draft.failure_reason = Some(FailureReason::Internal);
            }
            draft.regenerating.retain(|name| !fields.contains(name));
            if let Some(competitor) = draft.competitor.as_mut().filter(|c| Some(&c.url) == url.as_ref() && c.status == "pending") {
                competitor.status = "failed".into();
                competitor.failure_reason = Some(FailureReason::Internal);
            }
        })
        .await
    }

    /// Reads the site, drafts, checks grounding, and makes the draft `ready` (or `failed`).
    async fn crawl(&self, id: DraftId, last_attempt: bool) -> Result<(), DraftError> {
        let Some((draft, _)) = self.repo.get(id).await? else { return Ok(()) };
        match draft.status {
            DraftStatus::Crawling => {}
            // An earlier run read the site and failed while drafting: draft from what it read.
            DraftStatus::Drafting => {
                if let Some(snapshot) = self.repo.snapshot(id).await? {
                    let proposal = self.propose(&snapshot).await?;
                    return self
                        .modify(id, |draft| {
                            take_proposal(draft, &proposal, None);
                            draft.status = DraftStatus::Ready;
                        })
                        .await;
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
                    return Err(DraftError::Repo(RepoError::Backend(failure.to_string().into())));
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
        })
        .await?;
        let proposal = self.propose(&snapshot).await?;
        self.modify(id, |draft| {
            take_proposal(draft, &proposal, None);
            draft.status = DraftStatus::Ready;
        })
        .await
    }

    /// Drafts and grounds a proposal.
    async fn propose(&self, snapshot: &SiteSnapshot) -> Result<Proposal, DraftError> {
        let categories = self.categories.all().await?;
        let proposal = self.drafter.draft(snapshot, &categories).await.map_err(|err| DraftError::Repo(RepoError::backend(err)))?;
        let (kept, dropped) = ground(proposal, snapshot, &categories);
        for item in &dropped {
            tracing::info!(what = %item.what, why = %item.why, "grounding dropped a proposed value");
        }
        Ok(kept)
    }

    async fn regenerate(&self, id: DraftId, fields: &[FieldName]) -> Result<(), DraftError> {
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

    async fn compare(&self, id: DraftId, url: &str) -> Result<(), DraftError> {
        let outcome = match self.reader.read(url, COMPETITOR_PAGES).await {
            Ok(snapshot) => Ok((self.propose(&snapshot).await?, snapshot)),
            Err(failure) => Err(failure.reason()),
        };
        self.modify(id, |draft| {
            let Some(competitor) = draft.competitor.as_mut().filter(|c| c.url == url) else { return };
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
    async fn modify(&self, id: DraftId, change: impl Fn(&mut Draft)) -> Result<(), DraftError> {
        for _ in 0..10 {
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
        Err(DraftError::Repo(RepoError::Backend("the draft kept changing".into())))
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
        let field = draft.field_mut(name);
        let caller_owned = matches!(field.state, FieldState::Edited | FieldState::Manual | FieldState::Deleted);
        if field.locked || (caller_owned && only.is_none()) {
            // Keep the AI's latest value for `restore`, without changing what the caller chose.
            if !field.locked {
                field.ai = proposal.fields.get(&name).cloned();
            }
            continue;
        }
        field.take_ai(proposal.fields.get(&name).cloned());
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

/// The listing a draft makes. A listing needs a name and a category, and its fields have the
/// bounds of an owned listing (some tighter than a draft's).
fn listing_of(draft: &Draft) -> Result<ListingDraft, DraftError> {
    let mut errors = Vec::new();
    let name = draft.text(FieldName::Name).map(str::trim).unwrap_or_default().to_owned();
    if name.is_empty() {
        errors.push(FieldError::new("fields.name", "a listing needs a name; set it with update_draft"));
    }
    let categories = draft.list(FieldName::Categories).to_vec();
    if categories.is_empty() {
        errors.push(FieldError::new("fields.categories", "a listing needs at least one category; set it with update_draft"));
    } else if categories.len() > 4 {
        errors.push(FieldError::new("fields.categories", "a listing has one primary category and at most 3 more"));
    }
    let bounded = |errors: &mut Vec<FieldError>, field: FieldName, max: usize| {
        let text = draft.text(field).map(str::trim).map(str::to_owned);
        if text.as_ref().is_some_and(|text| text.chars().count() > max) {
            errors.push(FieldError::new(format!("fields.{field}"), format!("a listing's {field} is at most {max} characters")));
        }
        text
    };
    let tagline = bounded(&mut errors, FieldName::Tagline, 200);
    let short_description = bounded(&mut errors, FieldName::ShortDescription, 300);
    let description = bounded(&mut errors, FieldName::Description, 20_000);
    let stage = bounded(&mut errors, FieldName::Stage, 40);
    let pricing_model = bounded(&mut errors, FieldName::PricingModel, 40);
    let pricing_summary = bounded(&mut errors, FieldName::PricingSummary, 300);
    let country = bounded(&mut errors, FieldName::Country, 2);
    let city = bounded(&mut errors, FieldName::City, 120);
    let contact_email = bounded(&mut errors, FieldName::ContactEmail, 254);
    let demo_video_url = bounded(&mut errors, FieldName::DemoVideoUrl, 500);
    let logo_url = bounded(&mut errors, FieldName::LogoUrl, 500);
    let founded_year = match draft.text(FieldName::FoundedYear).map(str::trim) {
        None => None,
        Some(year) => match year.parse::<i32>() {
            Ok(year) if (1800..=2100).contains(&year) => Some(year),
            _ => {
                errors.push(FieldError::new("fields.founded_year", "a listing's founded_year is a year from 1800 to 2100"));
                None
            }
        },
    };
    if draft.story.value.title.as_ref().is_some_and(|title| title.chars().count() > 200) {
        errors.push(FieldError::new("story.title", "a listing's story title is at most 200 characters"));
    }
    for (i, founder) in draft.founders.value.iter().enumerate() {
        if founder.name.chars().count() > 160 || founder.title.as_ref().is_some_and(|t| t.chars().count() > 160) {
            errors.push(FieldError::new(format!("founders[{i}]"), "a founder's name and title are at most 160 characters"));
        }
    }
    if !errors.is_empty() {
        return Err(DraftError::Invalid(errors));
    }
    Ok(ListingDraft {
        name,
        url: draft.url.clone(),
        domain: host_of(&draft.url).trim_start_matches("www.").to_owned(),
        tagline,
        short_description,
        description,
        stage,
        categories,
        tags: draft.list(FieldName::Tags).to_vec(),
        pricing_model,
        pricing_summary,
        country,
        city,
        founded_year,
        features: draft.list(FieldName::Features).to_vec(),
        usps: draft.list(FieldName::Usps).to_vec(),
        keywords: draft.list(FieldName::Keywords).to_vec(),
        contact_email,
        demo_video_url,
        logo_url,
        faqs: draft.faqs.value.clone(),
        socials: draft.company_socials.value.clone(),
        founders: draft.founders.value.clone(),
        founder_socials: draft.founder_socials.value.clone(),
        story: draft.story.value.clone(),
        milestones: draft.milestones.value.clone(),
        seo: draft.seo.value.clone(),
        not_found_on_website: draft.not_found_on_website().into_iter().map(str::to_owned).collect(),
    })
}
