//! Wire types shared by several operations: the path parts that name a listing or a draft, the
//! paginated query, the inputs and views of profile sections (FAQs, milestones, the founder
//! story), the listing, owned-listing and draft views, and how instants are written. Operation
//! files take what they share from here, never from one another.

mod dates;
mod draft;
mod draft_edit;
mod interview;
mod listing;
mod media;
mod owned;
mod page;
mod paths;
mod schemas;
mod sections;

pub(crate) use dates::rfc3339;
pub use draft::{DraftPath, DraftView, FieldView, PictureView, SectionView};
pub use draft_edit::{FounderInput, PictureInput, SeoInput, UpdateDraftBody};
pub use interview::InterviewAnswerView;
pub use listing::{
    CategoryView, DomainRatingView, FounderCardView, ListingView, MediaView, PricingView, RatingView, UnlockedView, UpdateView,
};
pub use media::{ImageSizeView, ImageView};
pub use owned::{BadgeCheckView, MyListingView, OwnedListingView};
pub use page::{PageOf, Pagination};
pub(crate) use page::{default_per_page, first_page, page_request, paged_query};
pub use paths::{ListingPath, ListingSlug};
pub use schemas::SchemaOf;
pub(crate) use sections::socials_schema;
pub use sections::{FaqInput, MilestoneInput, MilestoneView, OwnedStoryInput, StoryInput, StoryView};
