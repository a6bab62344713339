//! The claim operations: `claim_listing`, `list_my_claims` and `verify_claim`. A verified claim
//! makes the claimant an owner of the listing and earns it the Verified badge; it is not a paid
//! listing.

use crate::registry::{Input, Operation, OperationSpec};
use crate::wire::PageOf;
use crate::wire::{Pagination, rfc3339};
use crate::{Caller, Context, HttpMethod, InputPart, NoInput, OpError, RateClass};
use accounts::Scope;
use async_trait::async_trait;
use claims::{CheckRecord, Claim, ClaimMethod, ClaimStatus, Publish};
use garde::Validate;
use kernel::ClaimId;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// How the claimant proves control of the company.
#[derive(Debug, Clone, Copy, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum MethodWire {
    /// A TXT record at `_launchdir-verification.<domain>`.
    Dns,
    /// A meta tag in the homepage's head.
    Meta,
    /// A file at `/.well-known/launchdir-verification.txt`.
    File,
    /// A link e-mailed to an address at the company's domain.
    Email,
}

impl MethodWire {
    fn method(self) -> ClaimMethod {
        match self {
            Self::Dns => ClaimMethod::Dns,
            Self::Meta => ClaimMethod::Meta,
            Self::File => ClaimMethod::File,
            Self::Email => ClaimMethod::Email,
        }
    }

    fn of(method: ClaimMethod) -> Self {
        match method {
            ClaimMethod::Dns => Self::Dns,
            ClaimMethod::Meta => Self::Meta,
            ClaimMethod::File => Self::File,
            ClaimMethod::Email => Self::Email,
        }
    }
}

/// `claim_listing`'s body.
#[derive(Debug, Deserialize, JsonSchema, Validate)]
#[serde(deny_unknown_fields)]
pub struct ClaimBody {
    /// The slug of a public listing (live, scheduled or waiting for its badge).
    #[garde(length(chars, min = 1, max = 220))]
    pub slug: String,
    #[garde(skip)]
    pub method: MethodWire,
    /// For method `email` only: an address at the company's domain itself or at the website's
    /// exact host (never another subdomain; not free or disposable mail).
    #[garde(length(chars, max = 254))]
    #[schemars(extend("format" = "email"))]
    pub email: Option<String>,
}

impl InputPart for ClaimBody {}

/// `{claim_id}`: one of the caller's claims.
#[derive(Debug, Deserialize, JsonSchema, Validate)]
#[serde(deny_unknown_fields)]
pub struct ClaimPath {
    /// The claim's id.
    #[garde(range(min = 1))]
    pub claim_id: i64,
}

impl InputPart for ClaimPath {}

/// What to publish, as data (the same as `text` says in words).
#[derive(Debug, Serialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum PublishView {
    /// A TXT record named `name` whose value is `value`.
    DnsTxt { name: String, value: String },
    /// `tag` in the head of `page`.
    MetaTag { page: String, name: String, content: String, tag: String },
    /// A file at `url` whose whole body is `body` (a trailing newline is fine).
    File { url: String, body: String },
    /// A link was e-mailed to `to`; it works 48 hours.
    EmailLink { to: String },
}

/// What the claimant does next.
#[derive(Debug, Serialize, JsonSchema)]
pub struct InstructionsView {
    /// What to do, in words; once the claim is verified or expired, what that means.
    pub text: String,
    pub publish: PublishView,
}

/// The latest check of a claim.
#[derive(Debug, Serialize, JsonSchema)]
pub struct CheckView {
    pub at: String,
    /// `verified`, `not_found`, or `could_not_check` (the resolver or the site did not answer: try again).
    #[schemars(extend("enum" = ["verified", "not_found", "could_not_check"]))]
    pub outcome: &'static str,
    /// "TXT records at _launchdir-verification.acme.com".
    pub looked_at: String,
    /// "none", "found 2 records, none matches", "an answer with status 404", ...
    pub found: String,
}

impl CheckView {
    fn of(check: &CheckRecord) -> Self {
        Self { at: rfc3339(check.at), outcome: check.outcome.as_str(), looked_at: check.looked_at.clone(), found: check.found.clone() }
    }
}

/// A claim.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ClaimView {
    pub id: i64,
    /// The claimed listing's slug.
    pub listing: String,
    pub method: MethodWire,
    /// `pending`, `verified` or `expired` (a pending claim expires 14 days after it was made).
    #[schemars(extend("enum" = ["pending", "verified", "expired"]))]
    pub status: &'static str,
    pub instructions: InstructionsView,
    pub created_at: String,
    /// When a pending claim expires.
    pub expires_at: Option<String>,
    pub verified_at: Option<String>,
    pub last_check: Option<CheckView>,
    /// A verified claim whose proof a monthly re-check no longer found, since when. Ownership
    /// stays; the site team is told.
    pub proof_missing_since: Option<String>,
}

impl ClaimView {
    fn of(claim: &Claim, claims: Context<'_, claims::ClaimsService>) -> Self {
        let instructions = claims.instructions(claim);
        let publish = match instructions.publish {
            Publish::DnsTxt { name, value } => PublishView::DnsTxt { name, value },
            Publish::MetaTag { name, content } => PublishView::MetaTag {
                page: format!("{}/", claim.website.origin()),
                tag: format!("<meta name=\"{name}\" content=\"{content}\">"),
                name,
                content,
            },
            Publish::File { url, body } => PublishView::File { url, body },
            Publish::EmailLink { to } => PublishView::EmailLink { to },
        };
        Self {
            id: claim.id.get(),
            listing: claim.listing_slug.to_string(),
            method: MethodWire::of(claim.method),
            status: claim.status.as_str(),
            instructions: InstructionsView { text: next_step(claim, instructions.text), publish },
            created_at: rfc3339(claim.created_at),
            expires_at: (claim.status == ClaimStatus::Pending).then(|| rfc3339(claim.expires_at())),
            verified_at: claim.verified_at.map(rfc3339),
            last_check: claim.last_check.as_ref().map(CheckView::of),
            proof_missing_since: claim.proof_missing_since.map(rfc3339),
        }
    }
}

/// The instructions' words for a pending claim; what its state means otherwise.
fn next_step(claim: &Claim, pending: String) -> String {
    match (claim.status, claim.method) {
        (ClaimStatus::Pending, _) => pending,
        (ClaimStatus::Verified, ClaimMethod::Email) => "Verified through the e-mailed link: you are an owner of this listing.".into(),
        (ClaimStatus::Verified, _) => {
            "Verified: you are an owner of this listing. Keep the proof published: it is checked again monthly.".into()
        }
        (ClaimStatus::Expired, _) => "This claim expired 14 days after it was made. Claim the listing again to start over.".into(),
    }
}

const CLAIMS_WRITE: OperationSpec = OperationSpec {
    method: HttpMethod::Post,
    scope: Some(Scope::ListingsWrite),
    idempotent: true,
    tag: "claims",
    rate: RateClass::Write,
    ..OperationSpec::READ
};

pub struct ClaimListing;

#[async_trait]
impl Operation for ClaimListing {
    type Path = NoInput;
    type Query = NoInput;
    type Body = ClaimBody;
    type Output = ClaimView;
    type Area = claims::ClaimsService;

    const SPEC: OperationSpec = OperationSpec {
        id: "claim_listing",
        path: "/claims",
        success_status: 201,
        summary: "Claim a listing of your company",
        description: "Starts a claim on a public listing and returns what to publish: dns (a TXT record), meta (a tag in \
                      the homepage's head), file (a file under /.well-known/) or email (a link sent to an address at the \
                      company's domain, valid 48 hours). Publish it, then call verify_claim; an e-mail claim verifies when \
                      the link is confirmed. A verified claim makes you an owner (beside any existing owner) and earns the \
                      Verified badge; it is not a paid listing. Claiming again by the same method returns the pending claim. \
                      Pending claims expire after 14 days.",
        ..CLAIMS_WRITE
    };

    async fn run(
        &self,
        claims: Context<'_, Self::Area>,
        caller: &Caller,
        input: Input<NoInput, NoInput, ClaimBody>,
    ) -> Result<ClaimView, OpError> {
        let principal = caller.signed_in()?;
        let body = &input.body;
        // The claimant's display name stays out: the e-mailed link goes to a third party.
        let claim = claims.claim(principal.user.id, &body.slug, body.method.method(), body.email.as_deref()).await?;
        Ok(ClaimView::of(&claim, claims))
    }
}

pub struct ListMyClaims;

#[async_trait]
impl Operation for ListMyClaims {
    type Path = NoInput;
    type Query = Pagination;
    type Body = NoInput;
    type Output = PageOf<ClaimView>;
    type Area = claims::ClaimsService;

    const SPEC: OperationSpec = OperationSpec {
        id: "list_my_claims",
        path: "/claims",
        scope: Some(Scope::AccountRead),
        summary: "Your claims",
        description: "Your claims, newest first, each with its status, what to publish (again), and its latest check.",
        tag: "claims",
        ..OperationSpec::READ
    };

    async fn run(
        &self,
        claims: Context<'_, Self::Area>,
        caller: &Caller,
        input: Input<NoInput, Pagination, NoInput>,
    ) -> Result<PageOf<ClaimView>, OpError> {
        let page = claims.mine(caller.user_id()?, input.query.page_request()).await?;
        Ok(PageOf::from(page.map(|claim| ClaimView::of(&claim, claims))))
    }
}

pub struct VerifyClaim;

#[async_trait]
impl Operation for VerifyClaim {
    type Path = ClaimPath;
    type Query = NoInput;
    type Body = NoInput;
    type Output = ClaimView;
    type Area = claims::ClaimsService;

    const SPEC: OperationSpec = OperationSpec {
        id: "verify_claim",
        path: "/claims/{claim_id}/verify",
        summary: "Check a claim's proof now",
        description: "Checks the DNS TXT record, the meta tag or the file of a pending claim now and returns the claim in \
                      its new state. A failed check keeps it pending and says in last_check what was looked at and what was \
                      found; could_not_check means the resolver or the site did not answer (try again). An e-mail claim is \
                      verified by confirming its link; here it only shows its state. Someone else's claim is 404.",
        not_found: true,
        rate: RateClass::VerifyClaim,
        ..CLAIMS_WRITE
    };

    async fn run(
        &self,
        claims: Context<'_, Self::Area>,
        caller: &Caller,
        input: Input<ClaimPath, NoInput, NoInput>,
    ) -> Result<ClaimView, OpError> {
        let principal = caller.signed_in()?;
        let claim = claims.verify(principal.user.id, ClaimId::new(input.path.claim_id)).await?;
        Ok(ClaimView::of(&claim, claims))
    }
}
