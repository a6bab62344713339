//! A claim and its rules: the four methods, the statuses (`pending` -> `verified` | `expired`
//! after 14 days), what the claimant publishes for each method, and which e-mail addresses may
//! claim a listing (an address at the listing's registrable domain itself or at its website's
//! exact host; never another subdomain, a public suffix, a look-alike such as
//! `acme.com.evil.example`, or a free or disposable mail domain).

use kernel::{ClaimId, Email, ListingId, Slug, UserId, WebUrl};
use time::{Duration, OffsetDateTime};

/// A pending claim expires after this long.
pub const CLAIM_LIFETIME: Duration = Duration::days(14);
/// The e-mailed link works this long.
pub const EMAIL_LINK_LIFETIME: Duration = Duration::hours(48);

/// How a claimant proves control.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ClaimMethod {
    Dns,
    Meta,
    File,
    Email,
}

impl ClaimMethod {
    pub const ALL: [Self; 4] = [Self::Dns, Self::Meta, Self::File, Self::Email];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Dns => "dns",
            Self::Meta => "meta",
            Self::File => "file",
            Self::Email => "email",
        }
    }

    pub fn parse(raw: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|method| method.as_str() == raw)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClaimStatus {
    Pending,
    Verified,
    Expired,
}

impl ClaimStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Pending => "pending",
            Self::Verified => "verified",
            Self::Expired => "expired",
        }
    }
}

/// A claim as the domain knows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Claim {
    pub id: ClaimId,
    pub listing: ListingId,
    pub listing_slug: Slug,
    pub listing_name: String,
    /// The listing's website: its host names the TXT record, its origin the meta tag's page and
    /// the file's address.
    pub website: WebUrl,
    pub claimant: UserId,
    pub method: ClaimMethod,
    /// As stored; [`Claim::status_at`] tells a pending claim past its lifetime as expired.
    pub status: ClaimStatus,
    /// What the claimant publishes (dns, meta, file); `None` for e-mail, whose link's token is a
    /// secret kept only as a hash.
    pub token: Option<String>,
    /// The address the link went to (e-mail claims).
    pub email: Option<Email>,
    pub created_at: OffsetDateTime,
    pub verified_at: Option<OffsetDateTime>,
    /// The latest check: when, what was looked at, what was found.
    pub last_check: Option<CheckRecord>,
    /// A verified claim whose proof a re-check no longer found, since when (ownership stays;
    /// the site team is told).
    pub proof_missing_since: Option<OffsetDateTime>,
}

impl Claim {
    /// The status at `now`: a pending claim past its lifetime is expired.
    pub fn status_at(&self, now: OffsetDateTime) -> ClaimStatus {
        match self.status {
            ClaimStatus::Pending if now >= self.expires_at() => ClaimStatus::Expired,
            status => status,
        }
    }

    /// When a pending claim expires.
    pub fn expires_at(&self) -> OffsetDateTime {
        self.created_at + CLAIM_LIFETIME
    }
}

/// What a check concluded, as a claim keeps it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CheckOutcome {
    Verified,
    NotFound,
    CouldNotCheck,
}

impl CheckOutcome {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Verified => "verified",
            Self::NotFound => "not_found",
            Self::CouldNotCheck => "could_not_check",
        }
    }

    pub fn parse(raw: &str) -> Option<Self> {
        [Self::Verified, Self::NotFound, Self::CouldNotCheck].into_iter().find(|outcome| outcome.as_str() == raw)
    }
}

/// One check of a claim: when, what was looked at, and what was found there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckRecord {
    pub at: OffsetDateTime,
    pub outcome: CheckOutcome,
    /// "TXT records at _launchdir-verification.acme.com".
    pub looked_at: String,
    /// "none", "found 2 records, none matches", "the token", or why it could not be checked.
    pub found: String,
}

impl CheckRecord {
    pub fn of(check: &crate::Check, at: OffsetDateTime) -> Self {
        let (outcome, looked_at, found) = match check {
            crate::Check::Verified { looked_at } => (CheckOutcome::Verified, looked_at.clone(), "the token".to_owned()),
            crate::Check::NotFound { looked_at, found } => (CheckOutcome::NotFound, looked_at.clone(), found.clone()),
            crate::Check::CouldNotCheck { looked_at, why } => (CheckOutcome::CouldNotCheck, looked_at.clone(), why.clone()),
        };
        Self { at, outcome, looked_at, found }
    }
}

/// One thing to publish.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Publish {
    /// A TXT record `name` with the value `value`.
    DnsTxt { name: String, value: String },
    /// `<meta name="{name}" content="{content}">` in the homepage's head.
    MetaTag { name: String, content: String },
    /// A file at `url` whose body is `body`.
    File { url: String, body: String },
    /// A link sent to `to`.
    EmailLink { to: String },
}

/// What the claimant does, in words and as data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Instructions {
    pub publish: Publish,
    pub text: String,
}

/// What to publish for `claim`. `prefix` brands the names (`launchdir`).
pub fn instructions(claim: &Claim, prefix: &str) -> Instructions {
    let token = claim.token.clone().unwrap_or_default();
    let (domain, origin) = (claim.website.site_domain(), claim.website.origin());
    match claim.method {
        ClaimMethod::Dns => {
            let (name, value) = (format!("_{prefix}-verification.{domain}"), format!("{prefix}-verification={token}"));
            let text = format!("Add a TXT record at {name} with the value {value}, then ask us to verify the claim.");
            Instructions { publish: Publish::DnsTxt { name, value }, text }
        }
        ClaimMethod::Meta => {
            let name = format!("{prefix}-verification");
            let text = format!("Put <meta name=\"{name}\" content=\"{token}\"> in the head of {origin}/, then ask us to verify the claim.");
            Instructions { publish: Publish::MetaTag { name, content: token }, text }
        }
        ClaimMethod::File => {
            let url = format!("{origin}/.well-known/{prefix}-verification.txt");
            let text = format!("Serve a file at {url} whose body is {token}, then ask us to verify the claim.");
            Instructions { publish: Publish::File { url, body: token }, text }
        }
        ClaimMethod::Email => {
            let to = claim.email.as_ref().map(ToString::to_string).unwrap_or_default();
            let text = format!("We e-mailed a link to {to}; open it within 48 hours and confirm.");
            Instructions { publish: Publish::EmailLink { to }, text }
        }
    }
}

/// Why an address may not claim a listing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum EmailRefusal {
    #[error("the address must be at the company's own domain")]
    OtherDomain,
    #[error("the address must be at the company's domain itself or at its website's host, not at another subdomain of it")]
    OtherSubdomain,
    #[error("the company's website has no registrable domain an address could be at")]
    NoDomain,
    #[error("a free or disposable e-mail address cannot prove control of a company: use an address at the company's domain")]
    FreeMail,
}

/// Whether `email` may claim a listing whose website is `website`. The address must be at the
/// website's registrable domain (by the Public Suffix List) itself or at the website's exact
/// host: for `https://www.zendesk.com/`, `ceo@zendesk.com` and `ceo@www.zendesk.com`, never
/// `support@attacker-trial.zendesk.com` (a vendor's customers get mailboxes on its subdomains).
/// An address at a free or disposable mail domain (`crate::free_mail`) never claims, even a
/// listing on that domain; nor does one at a public suffix or at a look-alike such as
/// `acme.com.evil.example`.
pub fn claimable_email(email: &Email, website: &WebUrl) -> Result<(), EmailRefusal> {
    let registrable = website.registrable_domain().ok_or(EmailRefusal::NoDomain)?;
    let host = website.host().trim_end_matches('.');
    let at = email.domain().trim_end_matches('.').to_ascii_lowercase();
    // The address's own registrable domain, by the same list and its default rule; none for an
    // address at a public suffix (`ceo@co.uk`).
    let Some(own) = psl::domain_str(&at) else { return Err(EmailRefusal::OtherDomain) };
    if crate::free_mail::free_or_disposable(&at, own) {
        return Err(EmailRefusal::FreeMail);
    }
    if at == registrable || at == host {
        Ok(())
    } else if own == registrable {
        Err(EmailRefusal::OtherSubdomain)
    } else {
        Err(EmailRefusal::OtherDomain)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn claim(method: ClaimMethod) -> Claim {
        Claim {
            id: ClaimId::new(1),
            listing: ListingId::new(1),
            listing_slug: Slug::parse("acme").unwrap(),
            listing_name: "Acme".into(),
            website: WebUrl::parse("https://www.acme.com/").unwrap(),
            claimant: UserId::new(1),
            method,
            status: ClaimStatus::Pending,
            token: (method != ClaimMethod::Email).then(|| "tok_123".to_owned()),
            email: (method == ClaimMethod::Email).then(|| Email::parse("ceo@acme.com").unwrap()),
            created_at: time::macros::datetime!(2026-11-01 0:00 UTC),
            verified_at: None,
            last_check: None,
            proof_missing_since: None,
        }
    }

    #[test]
    fn each_method_says_exactly_what_to_publish_with_the_deployments_prefix() {
        let dns = instructions(&claim(ClaimMethod::Dns), "launchdir");
        assert_eq!(
            dns.publish,
            Publish::DnsTxt { name: "_launchdir-verification.acme.com".into(), value: "launchdir-verification=tok_123".into() }
        );
        let meta = instructions(&claim(ClaimMethod::Meta), "brand");
        assert_eq!(meta.publish, Publish::MetaTag { name: "brand-verification".into(), content: "tok_123".into() });
        let file = instructions(&claim(ClaimMethod::File), "launchdir");
        assert_eq!(
            file.publish,
            Publish::File { url: "https://www.acme.com/.well-known/launchdir-verification.txt".into(), body: "tok_123".into() }
        );
        let email = instructions(&claim(ClaimMethod::Email), "launchdir");
        assert_eq!(email.publish, Publish::EmailLink { to: "ceo@acme.com".into() });
        assert!(email.text.contains("48 hours"));
    }

    #[test]
    fn a_pending_claim_expires_after_fourteen_days() {
        let pending = claim(ClaimMethod::Dns);
        assert_eq!(pending.status_at(pending.created_at + Duration::days(13)), ClaimStatus::Pending);
        assert_eq!(pending.status_at(pending.created_at + Duration::days(14)), ClaimStatus::Expired);
        let verified = Claim { status: ClaimStatus::Verified, ..pending };
        assert_eq!(verified.status_at(verified.created_at + Duration::days(400)), ClaimStatus::Verified);
    }

    #[test]
    fn only_addresses_at_the_companys_registrable_domain_or_its_exact_host_may_claim() {
        let may =
            |email: &str, host: &str| claimable_email(&Email::parse(email).unwrap(), &WebUrl::parse(&format!("https://{host}/")).unwrap());
        assert_eq!(may("ceo@acme.com", "www.acme.com"), Ok(()));
        assert_eq!(may("ceo@www.acme.com", "www.acme.com"), Ok(()), "the website's exact host");
        assert_eq!(may("ceo@ACME.com", "www.acme.com"), Ok(()));
        assert_eq!(may("ceo@acme.co.uk", "shop.acme.co.uk"), Ok(()));
        assert_eq!(may("ceo@shop.acme.co.uk", "shop.acme.co.uk"), Ok(()));
        assert_eq!(may("ceo@acme.github.io", "acme.github.io"), Ok(()), "a registrable domain under a private suffix");
        assert_eq!(may("ceo@cinderforge.example", "www.cinderforge.example"), Ok(()), "a TLD the list does not name");
        // Another subdomain is a vendor's customer, not the vendor.
        assert_eq!(may("support@attacker-trial.zendesk.com", "www.zendesk.com"), Err(EmailRefusal::OtherSubdomain));
        assert_eq!(may("ceo@mail.acme.com", "acme.com"), Err(EmailRefusal::OtherSubdomain));
        assert_eq!(may("ceo@mail.acme.com", "www.acme.com"), Err(EmailRefusal::OtherSubdomain));
        assert_eq!(may("ceo@www.acme.com", "acme.com"), Err(EmailRefusal::OtherSubdomain), "not the listing's host");
        assert_eq!(may("ceo@gmail.com", "www.acme.com"), Err(EmailRefusal::FreeMail), "free mail");
        assert_eq!(may("ceo@gmail.com", "sites.gmail.com"), Err(EmailRefusal::FreeMail), "free mail even on its own domain");
        assert_eq!(may("ceo@yahoo.co.uk", "acme.co.uk"), Err(EmailRefusal::FreeMail));
        assert_eq!(may("anyone@hey.com", "hey.com"), Err(EmailRefusal::FreeMail), "beyond the 24 hand-written domains");
        assert_eq!(may("x@mailinator.com", "acme.com"), Err(EmailRefusal::FreeMail), "disposable");
        assert_eq!(may("x@sub.mailinator.com", "sub.mailinator.com"), Err(EmailRefusal::FreeMail), "under a listed domain");
        assert_eq!(may("ceo@acme.com.evil.example", "acme.com"), Err(EmailRefusal::OtherDomain), "a look-alike");
        assert_eq!(may("ceo@notacme.com", "acme.com"), Err(EmailRefusal::OtherDomain), "a suffix of the name is not the domain");
        assert_eq!(may("ceo@co.uk", "acme.co.uk"), Err(EmailRefusal::OtherDomain), "a public suffix");
        assert_eq!(may("ceo@github.io", "acme.github.io"), Err(EmailRefusal::OtherDomain), "a private public suffix");
        assert_eq!(may("ceo@acme.com", "127.0.0.1"), Err(EmailRefusal::NoDomain), "an address has no domain to be at");
        assert_eq!(may("ceo@other.github.io", "acme.github.io"), Err(EmailRefusal::OtherDomain), "a neighbour on a shared host");
    }
}
