//! The owner's listings, one file a topic: status and the free queue (`listings`), edits
//! (`edit`), milestones, the founder story, updates and the founder interview.

mod edit;
mod interview;
mod listings;
mod milestones;
mod story;
mod updates;

pub use edit::{UpdateMyListing, UpdateMyListingBody, UpdatedListingView, VersionView};
pub use interview::{AnswerInterview, AnswerInterviewBody, InterviewAnswerInput, InterviewView, ShownOnView};
pub use listings::{ChooseFreeListing, FreeQueueView, GetMyListing, ListMyListings};
pub use milestones::{AddMilestone, DeleteMilestone, DeletedView, MilestonePath, MilestoneView};
pub use story::{SetFounderStory, StoryView};
pub use updates::{PostListingUpdate, UpdateInput, UpdateView};

use crate::{HttpMethod, OperationSpec};
use accounts::Scope;

/// What every read of the owner's own listings shares.
const OWNER_READ: OperationSpec = OperationSpec { scope: Some(Scope::AccountRead), tag: "owner", ..OperationSpec::READ };

/// What every change to an owned listing shares: the write scope, `Idempotency-Key`, and 404
/// for a listing that is not the caller's. Each operation names its method where it is not POST.
const OWNER_WRITE: OperationSpec = OperationSpec {
    method: HttpMethod::Post,
    scope: Some(Scope::ListingsWrite),
    idempotent: true,
    tag: "owner",
    not_found: true,
    ..OperationSpec::READ
};
