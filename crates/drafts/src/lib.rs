#![doc = include_str!("../README.md")]

pub mod edit;
pub mod grounding;
mod model;
mod ports;
mod service;
pub mod site;

pub use edit::{DraftEdit, normalise_url};
pub use grounding::{CategoryRef, Dropped, Proposal, SocialLink, ground};
pub use model::*;
pub use ports::{DraftCategories, DraftRepository, Drafter, DrafterError, InviteOutcome, ListingDraft, ListingSink, SiteReader};
pub use service::{COMPETITOR_PAGES, DraftError, DraftsPolicy, DraftsPorts, DraftsService, Invitation, MAX_INVITES, MAX_PAGES, jobs};
pub use site::{ReadFailure, SiteSnapshot};
