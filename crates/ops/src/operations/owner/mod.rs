//! The owner's listings, one file a topic: status and the free queue (`listings`), edits
//! (`edit`), milestones, the founder story, updates, the founder interview and founders'
//! pictures (`avatars`).

mod avatars;
mod edit;
mod interview;
mod listings;
mod milestones;
mod story;
mod updates;

pub use avatars::{FounderAvatarBody, FounderAvatarView, ListingFounderPath, SetFounderAvatar};
pub use edit::{UpdateMyListing, UpdateMyListingBody, UpdatedListingView, VersionView};
pub use interview::{AnswerInterview, AnswerInterviewBody, InterviewAnswerInput, InterviewView, ShownOnView};
pub use listings::{ChooseFreeListing, FreeQueueView, GetMyListing, ListMyListings};
pub use milestones::{AddMilestone, DeleteMilestone, DeletedView, MilestonePath, MilestoneView};
pub use story::{SetFounderStory, StoryView};
pub use updates::{PostListingUpdate, UpdateInput, UpdateView};
