#![doc = include_str!("../README.md")]

pub mod edit;
#[cfg(test)]
mod fakes;
mod field_name;
pub mod grounding;
mod invites;
mod jobs;
pub mod meaning;
mod model;
pub mod people;
pub mod pictures;
pub mod places;
mod ports;
pub mod prices;
mod service;
pub mod site;
mod submission;

pub use edit::DraftEdit;
pub use grounding::{CategoryRef, Dropped, Proposal, SocialLink, ground};
pub use invites::{AcceptedInvite, INVITE_LIFETIME, InviteState, OpenInvite};
pub use jobs::{CollectPictures, CompareCompetitor, CrawlDraft, RegenerateDraft};
pub use model::*;
pub use pictures::{DraftPicture, PictureRole};
pub use ports::{DraftCategories, DraftRepository, Drafter, DrafterError, InviteOutcome, InviteQuota, SiteReader, StoredInvite};
pub use service::{COMPETITOR_PAGES, DraftError, DraftsPolicy, DraftsPorts, DraftsService, Invitation, MAX_INVITES, MAX_PAGES};
pub use site::{ReadFailure, SiteSnapshot};
