//! Every conversion of a domain error into an `OpError`, in one place: what each variant means
//! to a caller (400 naming a field, 404, 500) is decided here, not in the operations.
//!
//! A `From` impl where the mapping needs nothing from the request, so operations use `?`.
//! Where the message names what the caller asked for ("no public listing has the slug x"),
//! an `OpError::from_*` function takes that value from the path.

use crate::OpError;
use content::BlogError;
use drafts::DraftError;
use kernel::{InvalidValue, RepoError, Slug};
use listings::{
    AwardsError, BadgeError, CalendarError, CompareError, DirectoryError, FounderError, InterviewError, LeaderboardError, OwnerError,
    ProfileError, SearchError,
};

impl From<RepoError> for OpError {
    fn from(error: RepoError) -> Self {
        Self::internal(error)
    }
}

impl From<DraftError> for OpError {
    fn from(error: DraftError) -> Self {
        match error {
            DraftError::NotFound => Self::NotFound("no draft with this id".into()),
            DraftError::Invalid(errors) => Self::Validation(errors),
            // Other writers kept winning the draft's optimistic lock: the caller may try again.
            DraftError::RateLimited { retry_after, .. } => Self::RateLimited { retry_after },
            DraftError::Contention => Self::Conflict { detail: DraftError::Contention.to_string(), retry_after: Some(1) },
            DraftError::Repo(err) => Self::internal(err),
            DraftError::Mail(err) => Self::internal(err),
            // Job-side failures; no operation returns them, but a mapping is total.
            err @ (DraftError::SiteUnreachable(_) | DraftError::Drafter(_)) => Self::internal(err),
        }
    }
}

impl From<orders::OrderError> for OpError {
    fn from(error: orders::OrderError) -> Self {
        use orders::OrderError;
        match error {
            OrderError::Invalid(errors) => Self::Validation(errors),
            OrderError::NotFound => Self::NotFound("you have no order with this number".into()),
            err @ OrderError::NotPending(_) => Self::Conflict { detail: err.to_string(), retry_after: None },
            OrderError::Provider(err) => Self::internal(err),
            OrderError::Repo(err) => Self::internal(err),
        }
    }
}

impl From<claims::ClaimError> for OpError {
    fn from(error: claims::ClaimError) -> Self {
        use claims::ClaimError;
        match error {
            ClaimError::Invalid(errors) => Self::Validation(errors),
            ClaimError::NotFound => Self::NotFound("you have no claim with this id".into()),
            // A daily quota of claim e-mails: the caller may try again once it has room.
            ClaimError::RateLimited { retry_after, .. } => Self::RateLimited { retry_after },
            ClaimError::Repo(err) => Self::internal(err),
            ClaimError::Mail(err) => Self::internal(err),
        }
    }
}

impl From<OwnerError> for OpError {
    fn from(error: OwnerError) -> Self {
        match error {
            OwnerError::NotFound => Self::NotFound("you own no listing with this id".into()),
            OwnerError::NoSuchFounder => {
                Self::NotFound("this listing has no founder with this slug (get_listing names its founders)".into())
            }
            OwnerError::NotAllowed(message) => Self::field("listing_id", message),
            OwnerError::Repo(err) => Self::internal(err),
            OwnerError::Mail(err) => Self::internal(err),
        }
    }
}

impl From<InterviewError> for OpError {
    fn from(error: InterviewError) -> Self {
        match error {
            InterviewError::Invalid(errors) => Self::Validation(errors),
            InterviewError::Repo(err) => Self::internal(err),
        }
    }
}

impl From<LeaderboardError> for OpError {
    fn from(error: LeaderboardError) -> Self {
        match error {
            LeaderboardError::WeekNotAllowed => Self::field("week", "only the community-weekly board takes a week"),
            err @ LeaderboardError::WeekOutOfRange { .. } => Self::NotFound(err.to_string()),
            err @ LeaderboardError::Repo(_) => Self::internal(err),
        }
    }
}

impl From<AwardsError> for OpError {
    fn from(error: AwardsError) -> Self {
        match error {
            AwardsError::UnknownListing => Self::field("listing", "no listing has this slug"),
            err @ AwardsError::Repo(_) => Self::internal(err),
        }
    }
}

impl From<SearchError> for OpError {
    fn from(error: SearchError) -> Self {
        match error {
            SearchError::UnknownCategory => Self::field("category", "no category has this slug"),
            err @ SearchError::Repo(_) => Self::internal(err),
        }
    }
}

impl From<CalendarError> for OpError {
    fn from(error: CalendarError) -> Self {
        match error {
            err @ CalendarError::OutOfRange { .. } => Self::NotFound(err.to_string()),
            err @ CalendarError::Repo(_) => Self::internal(err),
        }
    }
}

impl From<CompareError> for OpError {
    fn from(error: CompareError) -> Self {
        match error {
            CompareError::Unknown { field } => Self::field(field, "names no live listing"),
            CompareError::Same => Self::field("b", "must name another listing than a"),
            err @ CompareError::NotFound => Self::NotFound(err.to_string()),
            err @ CompareError::Repo(_) => Self::internal(err),
        }
    }
}

// The "not found" variants below say "this slug"; the operations that know the slug use the
// `from_*` functions further down to name it.

impl From<ProfileError> for OpError {
    fn from(error: ProfileError) -> Self {
        match error {
            err @ ProfileError::NotFound => Self::NotFound(err.to_string()),
            err @ ProfileError::Repo(_) => Self::internal(err),
        }
    }
}

impl From<BadgeError> for OpError {
    fn from(error: BadgeError) -> Self {
        match error {
            err @ BadgeError::NotFound => Self::NotFound(err.to_string()),
            err @ BadgeError::Repo(_) => Self::internal(err),
        }
    }
}

impl From<BlogError> for OpError {
    fn from(error: BlogError) -> Self {
        match error {
            err @ BlogError::NotFound => Self::NotFound(err.to_string()),
            err @ BlogError::Repo(_) => Self::internal(err),
        }
    }
}

impl From<FounderError> for OpError {
    fn from(error: FounderError) -> Self {
        match error {
            err @ FounderError::NotFound => Self::NotFound(err.to_string()),
            err @ FounderError::Repo(_) => Self::internal(err),
        }
    }
}

impl From<DirectoryError> for OpError {
    fn from(error: DirectoryError) -> Self {
        match error {
            err @ DirectoryError::CategoryNotFound => Self::NotFound(err.to_string()),
            err @ DirectoryError::Repo(_) => Self::internal(err),
        }
    }
}

fn no_public_listing(slug: &Slug) -> OpError {
    OpError::NotFound(format!("no public listing has the slug {slug}"))
}

impl OpError {
    /// `get_listing`: the profile of the listing `slug`.
    pub(crate) fn from_profile(error: ProfileError, slug: &Slug) -> Self {
        match error {
            ProfileError::NotFound => no_public_listing(slug),
            other => other.into(),
        }
    }

    /// `get_badges`: the badges of the listing `slug`.
    pub(crate) fn from_badges(error: BadgeError, slug: &Slug) -> Self {
        match error {
            BadgeError::NotFound => no_public_listing(slug),
            other => other.into(),
        }
    }

    /// `get_alternatives`: the alternatives to the listing `slug`.
    pub(crate) fn from_alternatives(error: CompareError, slug: &Slug) -> Self {
        match error {
            CompareError::NotFound => no_public_listing(slug),
            other => other.into(),
        }
    }

    /// `get_blog_post`: the post `slug`.
    pub(crate) fn from_blog_post(error: BlogError, slug: &Slug) -> Self {
        match error {
            BlogError::NotFound => Self::NotFound(format!("no published blog post has the slug {slug}")),
            other => other.into(),
        }
    }

    /// `get_founder`: the founder `slug`.
    pub(crate) fn from_founder(error: FounderError, slug: &Slug) -> Self {
        match error {
            FounderError::NotFound => Self::NotFound(format!("no founder of a live listing has the slug {slug}")),
            other => other.into(),
        }
    }

    /// `get_category`: the category `slug`.
    pub(crate) fn from_category(error: DirectoryError, slug: &Slug) -> Self {
        match error {
            DirectoryError::CategoryNotFound => Self::NotFound(format!("no category has the slug {slug}")),
            other => other.into(),
        }
    }

    /// `delete_milestone`: the listing may be the caller's and the milestone still missing.
    pub(crate) fn from_milestone_delete(error: OwnerError) -> Self {
        match error {
            OwnerError::NotFound => Self::NotFound("you own no listing with this id, or it has no such milestone".into()),
            other => other.into(),
        }
    }

    /// A value read back from storage that no longer parses: the fault is ours, not the caller's.
    pub(crate) fn corrupt(error: InvalidValue) -> Self {
        Self::internal(error)
    }
}

impl OpError {
    /// A media error about the image that came in `field`: the image itself is a 400 naming it;
    /// the store failing is ours.
    pub fn from_media(error: media::MediaError, field: &str) -> Self {
        match error {
            media::MediaError::Refused(refusal) => Self::field(field, refusal.to_string()),
            media::MediaError::Unknown => Self::field(field, media::MediaError::Unknown.to_string()),
            error @ (media::MediaError::Store(_) | media::MediaError::Scale(_) | media::MediaError::Draw(_)) => Self::internal(error),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The code and the detail a caller sees (the field for a validation error).
    fn check(error: OpError, code: &str, detail: &str) {
        let shown = match &error {
            OpError::Validation(errors) => errors.iter().map(|e| format!("{}: {}", e.field, e.message)).collect::<Vec<_>>().join("; "),
            other => other.to_string(),
        };
        assert_eq!((error.code(), shown.as_str()), (code, detail));
    }

    #[test]
    fn domain_errors_keep_their_meaning() {
        let slug = Slug::parse("quillflow").unwrap();
        check(OpError::from_profile(ProfileError::NotFound, &slug), "not_found", "no public listing has the slug quillflow");
        check(OpError::from_badges(BadgeError::NotFound, &slug), "not_found", "no public listing has the slug quillflow");
        check(OpError::from_alternatives(CompareError::NotFound, &slug), "not_found", "no public listing has the slug quillflow");
        check(OpError::from_blog_post(BlogError::NotFound, &slug), "not_found", "no published blog post has the slug quillflow");
        check(OpError::from_founder(FounderError::NotFound, &slug), "not_found", "no founder of a live listing has the slug quillflow");
        check(OpError::from_category(DirectoryError::CategoryNotFound, &slug), "not_found", "no category has the slug quillflow");
        check(
            OpError::from_milestone_delete(OwnerError::NotFound),
            "not_found",
            "you own no listing with this id, or it has no such milestone",
        );
        check(OwnerError::NotFound.into(), "not_found", "you own no listing with this id");
        check(OwnerError::NotAllowed("is archived".into()).into(), "validation_failed", "listing_id: is archived");
        check(DraftError::NotFound.into(), "not_found", "no draft with this id");
        check(LeaderboardError::WeekNotAllowed.into(), "validation_failed", "week: only the community-weekly board takes a week");
        check(AwardsError::UnknownListing.into(), "validation_failed", "listing: no listing has this slug");
        check(SearchError::UnknownCategory.into(), "validation_failed", "category: no category has this slug");
        check(CompareError::Unknown { field: "a" }.into(), "validation_failed", "a: names no live listing");
        check(CompareError::Same.into(), "validation_failed", "b: must name another listing than a");
        check(RepoError::Duplicate("users.email".into()).into(), "internal_error", "internal error");
        check(ProfileError::Repo(RepoError::Duplicate("x".into())).into(), "internal_error", "internal error");
    }
}
