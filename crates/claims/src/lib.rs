#![doc = include_str!("../README.md")]

pub mod checks;
pub mod free_mail;
pub mod jobs;
pub mod model;
pub mod ports;
pub mod service;

pub use checks::{Check, Probe, TxtLookup, dns_verdict, file_verdict, meta_verdict};
pub use jobs::{ExpireClaims, RecheckClaims, periodic_jobs};
pub use model::{
    CLAIM_LIFETIME, CheckOutcome, CheckRecord, Claim, ClaimMethod, ClaimStatus, EMAIL_LINK_LIFETIME, EmailRefusal, Instructions, Publish,
    claimable_email, instructions,
};
pub use ports::{
    ClaimRepository, LinkedClaim, MAIL_QUOTA_WINDOW, MailQuota, NewClaim, QuotaSpent, SiteProbe, Stored, TeamClaim, TxtResolver,
};
pub use service::{ClaimError, ClaimsPolicy, ClaimsPorts, ClaimsService, LinkError, RecheckSummary};
