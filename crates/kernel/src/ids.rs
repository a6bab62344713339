//! Typed ids, so a listing id can never stand in for a user id.

macro_rules! int_id {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
        #[serde(transparent)]
        pub struct $name(i64);

        impl $name {
            pub const fn new(value: i64) -> Self {
                Self(value)
            }

            pub const fn get(self) -> i64 {
                self.0
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                self.0.fmt(f)
            }
        }

    };
}

int_id!(
    /// A person with an account.
    UserId
);
int_id!(
    /// An API key of a user.
    ApiKeyId
);
int_id!(
    /// A product listing.
    ListingId
);
int_id!(
    /// A directory category.
    CategoryId
);
int_id!(
    /// A founder profile.
    FounderId
);
int_id!(
    /// An ownership claim on a listing.
    ClaimId
);
