#![doc = include_str!("../README.md")]

mod cached;
mod client_network;
mod clock;
mod countries;
mod error;
mod faq;
mod housekeeping;
mod idempotency;
mod ids;
mod image_ref;
mod jobs;
mod mail;
pub mod markup;
mod money;
mod paging;
mod rate_limit;
pub mod secrets;
mod socials;
mod splitmix;
mod story;
mod values;
mod web_url;
mod week;
mod writes;

pub use cached::{Cached, CachedByKey};
pub use client_network::{client_key, client_network};
pub use clock::{Clock, FixedClock, SystemClock};
pub use error::{FieldError, RepoError};
pub use faq::Faq;
pub use housekeeping::{Housekeeping, Purge, PurgeCutoffs, Purged};
pub use idempotency::{IDEMPOTENCY_KEPT_FOR, IdempotencyScope, IdempotencyStore, Reservation, StoredResponse};
pub use ids::{ApiKeyId, CategoryId, ClaimId, FounderId, ListingId, UserId};
pub use image_ref::{ImageFormat, ImageRef, ImageSize, scaled_height};
#[cfg(feature = "testing")]
pub use jobs::MemoryJobQueue;
pub use jobs::{ClaimedJob, Job, JobHandler, JobOutcome, JobQueue, JobRun, JobState, NewJob, error_chain, retry_delay};
#[cfg(feature = "testing")]
pub use mail::MemoryMailer;
pub use mail::{MailError, Mailer, OutgoingEmail};
pub use money::Cents;
pub use paging::{PageRequest, Paged};
pub use rate_limit::{RateDecision, RateLimiter, RateQuota};
pub use socials::{HTTPS_LINK_PATTERN, SocialKey, check_https_link, check_socials};
pub use splitmix::SplitMix64;
pub use story::{Story, StoryBounds};
pub use values::{CountryCode, Email, InvalidValue, Slug};
pub use web_url::WebUrl;
pub use week::Week;
pub use writes::WriteGeneration;
