//! The claim use cases: `claim_listing`, `list_my_claims`, `verify_claim`, the e-mailed link and
//! its confirmation, the expiry of pending claims and the periodic re-check of verified ones.
//!
//! Mails to third parties (the address a claim names, a listing's earlier owners) hold only the
//! site's words, the listing's name and host, and the link: never the claimant's display name or
//! anything else a caller typed, so nobody can make the site carry their text to someone else.
//! The use cases are not even given the claimant's name.

use crate::checks::{Check, dns_verdict, file_verdict, meta_verdict, probe_verdict};
use crate::model::{
    CheckOutcome, CheckRecord, Claim, ClaimMethod, ClaimStatus, EMAIL_LINK_LIFETIME, Instructions, Publish, claimable_email, instructions,
};
use crate::ports::{ClaimRepository, LinkedClaim, MailQuota, NewClaim, QuotaSpent, SiteProbe, Stored, TeamClaim, TxtResolver};
use kernel::{ClaimId, Clock, Email, FieldError, MailError, Mailer, OutgoingEmail, PageRequest, Paged, RepoError, Slug, UserId, WebUrl};
use listings::{Granted, OwnershipService};
use std::sync::Arc;
use time::{Duration, OffsetDateTime};

/// Why a claim use case refused.
#[derive(Debug, thiserror::Error)]
pub enum ClaimError {
    /// Bad input, each failure naming its field.
    #[error("invalid claim")]
    Invalid(Vec<FieldError>),
    /// No such claim of this caller.
    #[error("no such claim")]
    NotFound,
    /// A daily quota of claim e-mails is spent: try again in `retry_after` seconds.
    #[error("{detail}")]
    RateLimited { retry_after: u32, detail: String },
    #[error(transparent)]
    Repo(#[from] RepoError),
    #[error(transparent)]
    Mail(#[from] MailError),
}

impl ClaimError {
    fn field(field: &str, message: impl Into<String>) -> Self {
        Self::Invalid(vec![FieldError::new(field, message)])
    }
}

/// Why an e-mailed link does not confirm a claim.
#[derive(Debug, thiserror::Error)]
pub enum LinkError {
    #[error("this link names no claim")]
    Unknown,
    #[error("this link has expired")]
    Expired,
    #[error("this claim is {0} already")]
    Used(&'static str),
    #[error(transparent)]
    Repo(#[from] RepoError),
}

/// A deployment's claim settings.
#[derive(Debug, Clone)]
pub struct ClaimsPolicy {
    /// Brands what claimants publish: `_{prefix}-verification.<domain>`, `{prefix}-verification`.
    pub prefix: String,
    pub site_name: String,
    /// The site address, without a trailing slash: the e-mailed link points there.
    pub site_url: String,
    /// How often a verified dns, meta or file claim is checked again.
    pub recheck_every: Duration,
    /// Claim e-mails one account may have sent in any 24 hours.
    pub emails_per_account_per_day: u32,
    /// Claim e-mails one address may receive in any 24 hours.
    pub emails_per_recipient_per_day: u32,
}

/// The ports the claim use cases run on.
pub struct ClaimsPorts {
    pub repo: Arc<dyn ClaimRepository>,
    pub listings: OwnershipService,
    pub txt: Arc<dyn TxtResolver>,
    pub site: Arc<dyn SiteProbe>,
    pub mailer: Arc<dyn Mailer>,
    pub clock: Arc<dyn Clock>,
}

/// The claim use cases.
#[derive(Clone)]
pub struct ClaimsService {
    repo: Arc<dyn ClaimRepository>,
    listings: OwnershipService,
    txt: Arc<dyn TxtResolver>,
    site: Arc<dyn SiteProbe>,
    mailer: Arc<dyn Mailer>,
    clock: Arc<dyn Clock>,
    policy: ClaimsPolicy,
}

/// Re-checks per run of the periodic job; the rest wait for the next run.
const RECHECKS_PER_RUN: u64 = 200;

impl ClaimsService {
    pub fn new(ports: ClaimsPorts, policy: ClaimsPolicy) -> Self {
        let ClaimsPorts { repo, listings, txt, site, mailer, clock } = ports;
        Self { repo, listings, txt, site, mailer, clock, policy }
    }

    /// What the claimant publishes for `claim`, under this deployment's prefix.
    pub fn instructions(&self, claim: &Claim) -> Instructions {
        instructions(claim, &self.policy.prefix)
    }

    /// `claim_listing`: a pending claim on the public listing `slug`. Claiming again by the same
    /// method answers the claim there is (pending or verified); a pending e-mail claim whose link
    /// has expired gets a new link then. Every link e-mailed counts against the claimant's and the
    /// address's daily quotas (`ClaimError::RateLimited` beyond).
    pub async fn claim(&self, claimant: UserId, slug: &str, method: ClaimMethod, email: Option<&str>) -> Result<Claim, ClaimError> {
        let unknown = || ClaimError::field("slug", "no public listing has this slug");
        let slug = Slug::parse(slug).map_err(|_| unknown())?;
        let listing = self.listings.claimable(&slug).await?.ok_or_else(unknown)?;
        let website = WebUrl::parse(&listing.url)
            .map_err(|err| RepoError::Backend(format!("listing {} has no web address: {err}", listing.slug).into()))?;
        let email = match (method, email.map(str::trim).filter(|email| !email.is_empty())) {
            (ClaimMethod::Email, None) => {
                return Err(ClaimError::field("email", "an address at the company's domain is needed for method email"));
            }
            (ClaimMethod::Email, Some(raw)) => {
                let email = Email::parse(raw).map_err(|err| ClaimError::field("email", err.0))?;
                claimable_email(&email, &website).map_err(|refusal| ClaimError::field("email", refusal.to_string()))?;
                Some(email)
            }
            (_, Some(_)) => return Err(ClaimError::field("email", "only method email takes an address")),
            (_, None) => None,
        };
        let now = self.clock.now();
        let secret = || kernel::secrets::random_token().map_err(RepoError::backend);
        let (token, link) = if method == ClaimMethod::Email { (None, Some(secret()?)) } else { (Some(secret()?), None) };
        let new = NewClaim {
            listing: listing.id,
            claimant,
            method,
            token,
            email,
            link_hash: link.as_deref().map(kernel::secrets::sha256_hex),
            created_at: now,
        };
        let asked = new.email.clone();
        match self.repo.create(new, self.mail_quota()).await? {
            Stored::New(claim) => {
                if let Some(link) = link {
                    self.send_link(&claim, &link).await?;
                }
                Ok(claim)
            }
            Stored::OverQuota(spent) => Err(self.over_quota(spent, now)),
            Stored::Existing(claim) => {
                let pending = claim.status == ClaimStatus::Pending;
                let Some(asked) = asked.filter(|_| pending && claim.method == ClaimMethod::Email) else { return Ok(claim) };
                // Another address (a typo corrected), or a link that no longer works (or never
                // went out): a new link, to the address asked for; the earlier one stops working.
                if claim.email.as_ref() != Some(&asked) || self.link_expired(&claim).await? {
                    let link = secret()?;
                    let hash = kernel::secrets::sha256_hex(&link);
                    if let Some(spent) = self.repo.set_link(claim.id, claimant, &asked, &hash, self.mail_quota(), now).await? {
                        return Err(self.over_quota(spent, now));
                    }
                    let claim = Claim { email: Some(asked), ..claim };
                    self.send_link(&claim, &link).await?;
                    return Ok(claim);
                }
                Ok(claim)
            }
        }
    }

    fn mail_quota(&self) -> MailQuota {
        MailQuota {
            per_account_per_day: self.policy.emails_per_account_per_day,
            per_recipient_per_day: self.policy.emails_per_recipient_per_day,
        }
    }

    /// The 429 for a spent quota: retry once the oldest e-mail counted is a day old.
    fn over_quota(&self, spent: QuotaSpent, now: OffsetDateTime) -> ClaimError {
        let wait = |oldest: OffsetDateTime| u32::try_from((oldest + Duration::DAY - now).whole_seconds().max(1)).unwrap_or(u32::MAX);
        let quota = self.mail_quota();
        match spent {
            QuotaSpent::Account { oldest } => ClaimError::RateLimited {
                retry_after: wait(oldest),
                detail: format!("an account can have at most {} claim e-mails sent a day", quota.per_account_per_day),
            },
            QuotaSpent::Recipient { oldest } => ClaimError::RateLimited {
                retry_after: wait(oldest),
                detail: format!("an address can receive at most {} claim e-mails a day", quota.per_recipient_per_day),
            },
        }
    }

    /// Whether the e-mail claim's latest link no longer works.
    async fn link_expired(&self, claim: &Claim) -> Result<bool, RepoError> {
        let sent = self.repo.link_sent_at(claim.id).await?;
        Ok(sent.is_none_or(|sent| sent + EMAIL_LINK_LIFETIME <= self.clock.now()))
    }

    /// E-mails the link, then records when, so a send that failed is retried by the next claim.
    /// The address is whichever the claimant typed: the mail says only our words, the listing's
    /// name and host, and the link.
    async fn send_link(&self, claim: &Claim, link: &str) -> Result<(), ClaimError> {
        let Some(mail) = link_mail(&self.policy, claim, link) else { return Ok(()) };
        self.mailer.send(mail).await?;
        Ok(self.repo.link_sent(claim.id, self.clock.now()).await?)
    }

    /// `list_my_claims`: the caller's claims, newest first, each with its status as of now.
    pub async fn mine(&self, claimant: UserId, page: PageRequest) -> Result<Paged<Claim>, ClaimError> {
        let now = self.clock.now();
        Ok(self.repo.of_claimant(claimant, page).await?.map(|claim| as_of(claim, now)))
    }

    /// `verify_claim`: checks a pending claim now and answers its new state. A failed check keeps
    /// it pending with what was looked at and found; an e-mail claim verifies through its link, so
    /// here it only answers its state.
    pub async fn verify(&self, claimant: UserId, id: ClaimId) -> Result<Claim, ClaimError> {
        let claim = self.repo.get(id).await?.filter(|claim| claim.claimant == claimant).ok_or(ClaimError::NotFound)?;
        let now = self.clock.now();
        match claim.status_at(now) {
            ClaimStatus::Verified => {
                // Granting is idempotent: a verification cut off before it granted is completed.
                // Not while the proof is gone: the site team decides about that owner.
                if claim.proof_missing_since.is_none() {
                    self.grant(&claim).await?;
                }
                return Ok(claim);
            }
            ClaimStatus::Expired => return Ok(as_of(claim, now)),
            ClaimStatus::Pending if claim.method == ClaimMethod::Email => return Ok(claim),
            ClaimStatus::Pending => {}
        }
        let record = CheckRecord::of(&self.check(&claim).await, now);
        if record.outcome == CheckOutcome::Verified {
            if self.repo.mark_verified(id, &record).await? {
                self.grant(&claim).await?;
            }
        } else {
            self.repo.record_check(id, &record).await?;
        }
        let claim = self.repo.get(id).await?.ok_or(ClaimError::NotFound)?;
        Ok(as_of(claim, now))
    }

    /// Looks for the claim's proof where its instructions say.
    async fn check(&self, claim: &Claim) -> Check {
        match self.instructions(claim).publish {
            Publish::DnsTxt { name, value } => dns_verdict(&name, &self.txt.txt(&name).await, &value),
            Publish::MetaTag { name, content } => {
                let homepage = format!("{}/", claim.website.origin());
                let Ok(url) = WebUrl::parse(&homepage) else {
                    return Check::CouldNotCheck { looked_at: homepage, why: "the listing's website is not an address".into() };
                };
                probe_verdict(&homepage, self.site.meta_contents(&url, &name).await, |contents| {
                    meta_verdict(&homepage, &contents, &content)
                })
            }
            Publish::File { url, body } => {
                let Ok(address) = WebUrl::parse(&url) else {
                    return Check::CouldNotCheck { looked_at: url, why: "the listing's website is not an address".into() };
                };
                probe_verdict(&url, self.site.file_body(&address).await, |found| file_verdict(&url, &found, &body))
            }
            // `verify` never checks an e-mail claim: its link is the proof.
            Publish::EmailLink { to } => Check::CouldNotCheck {
                looked_at: format!("the link sent to {to}"),
                why: "an e-mail claim verifies through its link".into(),
            },
        }
    }

    /// Makes the claimant an owner and tells the listing's earlier owners (in our words: the
    /// claimant's name is theirs to choose, and these owners did not).
    async fn grant(&self, claim: &Claim) -> Result<(), ClaimError> {
        let Granted::NewOwner { earlier_owners } = self.listings.grant(claim.listing, claim.claimant, claim.id).await? else {
            return Ok(());
        };
        for owner in earlier_owners {
            // The ownership stands whether or not the e-mail goes out; a failure is logged.
            if let Err(err) = self.mailer.send(new_owner_mail(&self.policy, claim, owner)).await {
                tracing::warn!(error = %err, claim = claim.id.get(), "an earlier owner could not be told about a new owner");
            }
        }
        Ok(())
    }

    /// The claim behind an e-mailed link, for the page that confirms it. A link whose address
    /// the rule refuses today (sent before the rule was tightened, or the listing's website has
    /// moved) proves nothing: it answers as an unknown link.
    pub async fn link(&self, token: &str) -> Result<LinkedClaim, LinkError> {
        let linked = self.repo.by_link(&kernel::secrets::sha256_hex(token)).await?.ok_or(LinkError::Unknown)?;
        let still_claimable = linked.claim.email.as_ref().is_some_and(|email| claimable_email(email, &linked.claim.website).is_ok());
        if !still_claimable {
            return Err(LinkError::Unknown);
        }
        let now = self.clock.now();
        match linked.claim.status_at(now) {
            ClaimStatus::Pending if linked.sent_at + EMAIL_LINK_LIFETIME <= now => Err(LinkError::Expired),
            ClaimStatus::Pending => Ok(linked),
            ClaimStatus::Expired => Err(LinkError::Expired),
            status @ ClaimStatus::Verified => Err(LinkError::Used(status.as_str())),
        }
    }

    /// Confirming the e-mailed link verifies its claim.
    pub async fn confirm_link(&self, token: &str) -> Result<Claim, LinkError> {
        let linked = self.link(token).await?;
        let now = self.clock.now();
        let record = CheckRecord {
            at: now,
            outcome: CheckOutcome::Verified,
            looked_at: format!("the link sent to {}", linked.claim.email.as_ref().map(Email::as_str).unwrap_or_default()),
            found: "confirmed".into(),
        };
        if !self.repo.mark_verified(linked.claim.id, &record).await? {
            return Err(LinkError::Used("verified"));
        }
        self.grant(&linked.claim).await.map_err(|err| match err {
            ClaimError::Repo(err) => LinkError::Repo(err),
            other => LinkError::Repo(RepoError::backend(other)),
        })?;
        Ok(self.repo.get(linked.claim.id).await?.unwrap_or(linked.claim))
    }

    /// Marks pending claims past their lifetime expired (the periodic job).
    pub async fn expire_due(&self) -> Result<u64, RepoError> {
        self.repo.expire_pending(self.clock.now() - crate::CLAIM_LIFETIME).await
    }

    /// Checks verified dns, meta and file claims again once `recheck_every` has passed since
    /// their last check. A proof that is gone is recorded and the site team told; ownership is
    /// not removed. A check that could not be made (the site or its DNS did not answer) is
    /// recorded as such, for the site team's page, and counts against nobody.
    pub async fn recheck_due(&self) -> Result<RecheckSummary, RepoError> {
        let now = self.clock.now();
        let mut summary = RecheckSummary::default();
        for claim in self.repo.due_for_recheck(now - self.policy.recheck_every, RECHECKS_PER_RUN).await? {
            match self.recheck_one(&claim, now).await? {
                CheckOutcome::Verified => summary.still_there += 1,
                CheckOutcome::NotFound => summary.missing += 1,
                CheckOutcome::CouldNotCheck => summary.could_not_check += 1,
            }
        }
        Ok(summary)
    }

    /// The site team's "check again" on a verified dns, meta or file claim: the re-check, now.
    /// `None` for a claim that is not such a claim.
    pub async fn recheck(&self, id: ClaimId) -> Result<Option<CheckOutcome>, RepoError> {
        let Some(claim) = self.repo.get(id).await? else { return Ok(None) };
        if claim.status != ClaimStatus::Verified || claim.method == ClaimMethod::Email {
            return Ok(None);
        }
        self.recheck_one(&claim, self.clock.now()).await.map(Some)
    }

    async fn recheck_one(&self, claim: &Claim, now: OffsetDateTime) -> Result<CheckOutcome, RepoError> {
        let record = CheckRecord::of(&self.check(claim).await, now);
        match record.outcome {
            CheckOutcome::Verified => self.repo.record_recheck(claim.id, &record, None).await?,
            CheckOutcome::NotFound => {
                self.repo.record_recheck(claim.id, &record, Some(claim.proof_missing_since.unwrap_or(now))).await?;
                if claim.proof_missing_since.is_none() {
                    self.tell_site_team(claim, &record).await?;
                }
            }
            // Recorded (the site team sees it), but nothing is held against the owner; the next
            // check comes after the interval like any other.
            CheckOutcome::CouldNotCheck => self.repo.record_recheck(claim.id, &record, claim.proof_missing_since).await?,
        }
        Ok(record.outcome)
    }

    async fn tell_site_team(&self, claim: &Claim, record: &CheckRecord) -> Result<(), RepoError> {
        let team = self.repo.site_team().await?;
        if team.is_empty() {
            tracing::warn!(claim = claim.id.get(), "a verified claim's proof is gone and no account has the admin role to be told");
        }
        let ClaimsPolicy { site_name, site_url, .. } = &self.policy;
        for to in team {
            let email = OutgoingEmail {
                to,
                subject: format!("A verified claim's proof is gone on {site_name}"),
                body: format!(
                    "Claim {id} on the listing {name} ({website}) was verified by {method}. Checked again, the proof is gone:\n\
                     looked at {looked_at}, found {found}.\n\nThe owner keeps the listing until you decide: {site_url}/admin/claims\n",
                    id = claim.id,
                    name = claim.listing_name,
                    website = claim.website,
                    method = method_words(claim.method),
                    looked_at = record.looked_at,
                    found = record.found,
                ),
                kind: "claim_proof_missing".into(),
            };
            if let Err(err) = self.mailer.send(email).await {
                tracing::warn!(error = %err, claim = claim.id.get(), "the site team could not be told about a lost proof");
            }
        }
        Ok(())
    }

    /// The site team's list of claims.
    pub async fn for_team(&self, search: Option<&str>, page: PageRequest) -> Result<Paged<TeamClaim>, RepoError> {
        let now = self.clock.now();
        Ok(self.repo.for_team(search, page).await?.map(|team| TeamClaim { claim: as_of(team.claim, now), ..team }))
    }
}

/// What a run of re-checks found.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct RecheckSummary {
    pub still_there: u64,
    pub missing: u64,
    pub could_not_check: u64,
}

/// The claim with its status as of `now` (a pending claim past its lifetime reads expired before
/// the periodic job has marked it).
fn as_of(claim: Claim, now: OffsetDateTime) -> Claim {
    Claim { status: claim.status_at(now), ..claim }
}

/// The e-mailed link of an e-mail claim, to the address the claimant gave (`None` without one).
/// Our words, the listing's name and host (not the whole address, whose path and query are
/// anyone's text) and the link; the subject only our words.
fn link_mail(policy: &ClaimsPolicy, claim: &Claim, link: &str) -> Option<OutgoingEmail> {
    let ClaimsPolicy { site_name, site_url, .. } = policy;
    Some(OutgoingEmail {
        to: claim.email.clone()?,
        subject: format!("Confirm an ownership claim on {site_name}"),
        body: format!(
            "Hello,\n\nAn account on {site_name} asked to be recognised as an owner of the listing {name} ({host}), \
             and gave this address to prove it controls the company's domain.\n\n\
             If that is right, open this page and press Confirm (the link works for 48 hours):\n\
             {site_url}/claims/confirm?token={link}\n\n\
             If you do not know about this claim, ignore this e-mail: nothing changes without the confirmation.\n",
            name = claim.listing_name,
            host = claim.website.host(),
        ),
        kind: "claim_link".into(),
    })
}

/// Tells an earlier owner that a claim made someone else an owner too, in the same words.
fn new_owner_mail(policy: &ClaimsPolicy, claim: &Claim, to: Email) -> OutgoingEmail {
    let ClaimsPolicy { site_name, site_url, .. } = policy;
    OutgoingEmail {
        to,
        subject: format!("A new owner of your listing on {site_name}"),
        body: format!(
            "Hello,\n\nAn account proved control of {host} by {method} and is now also an owner of the listing \
             {name} on {site_name} ({site_url}/listings/{slug}). You remain an owner.\n\n\
             If this is unexpected, reply to this e-mail and the site team will look into it.\n",
            host = claim.website.host(),
            method = method_words(claim.method),
            name = claim.listing_name,
            slug = claim.listing_slug,
        ),
        kind: "claim_new_owner".into(),
    }
}

fn method_words(method: ClaimMethod) -> &'static str {
    match method {
        ClaimMethod::Dns => "a DNS record",
        ClaimMethod::Meta => "a meta tag on its homepage",
        ClaimMethod::File => "a file on its website",
        ClaimMethod::Email => "an e-mail to an address at its domain",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kernel::ListingId;

    fn policy() -> ClaimsPolicy {
        ClaimsPolicy {
            prefix: "launchdir".into(),
            site_name: "Launchdir".into(),
            site_url: "https://launch.example".into(),
            recheck_every: Duration::days(30),
            emails_per_account_per_day: 10,
            emails_per_recipient_per_day: 3,
        }
    }

    /// An e-mail claim on a listing whose address carries text in its path and query.
    fn claim() -> Claim {
        Claim {
            id: ClaimId::new(7),
            listing: ListingId::new(3),
            listing_slug: Slug::parse("acme").unwrap(),
            listing_name: "Acme".into(),
            website: WebUrl::parse("https://www.acme.com/Urgent-call-us?msg=Send+your+password").unwrap(),
            claimant: UserId::new(9),
            method: ClaimMethod::Email,
            status: ClaimStatus::Pending,
            token: None,
            email: Some(Email::parse("ceo@acme.com").unwrap()),
            created_at: time::macros::datetime!(2026-11-01 0:00 UTC),
            verified_at: None,
            last_check: None,
            proof_missing_since: None,
        }
    }

    #[test]
    fn mails_to_third_parties_hold_only_our_words_the_listings_name_and_host_and_the_link() {
        let link = link_mail(&policy(), &claim(), "tok").unwrap();
        assert_eq!(link.to.as_str(), "ceo@acme.com");
        assert_eq!(link.subject, "Confirm an ownership claim on Launchdir");
        assert_eq!(
            link.body,
            "Hello,\n\nAn account on Launchdir asked to be recognised as an owner of the listing Acme (www.acme.com), and gave \
             this address to prove it controls the company's domain.\n\nIf that is right, open this page and press Confirm (the \
             link works for 48 hours):\nhttps://launch.example/claims/confirm?token=tok\n\nIf you do not know about this claim, \
             ignore this e-mail: nothing changes without the confirmation.\n"
        );
        let owner = new_owner_mail(&policy(), &claim(), Email::parse("founder@acme.com").unwrap());
        assert_eq!(owner.subject, "A new owner of your listing on Launchdir");
        assert_eq!(
            owner.body,
            "Hello,\n\nAn account proved control of www.acme.com by an e-mail to an address at its domain and is now also an \
             owner of the listing Acme on Launchdir (https://launch.example/listings/acme). You remain an owner.\n\nIf this is \
             unexpected, reply to this e-mail and the site team will look into it.\n"
        );
        for mail in [&link, &owner] {
            assert!(!mail.body.contains("password") && !mail.body.contains("Urgent"), "{}", mail.body);
        }
        assert!(link_mail(&policy(), &Claim { email: None, ..claim() }, "tok").is_none());
    }
}
