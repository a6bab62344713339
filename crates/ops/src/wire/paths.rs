//! Path parts that name a listing, shared by the operations under the same path.

use crate::InputPart;
use crate::wire::SchemaOf;
use garde::Validate;
use kernel::Slug;
use schemars::JsonSchema;
use serde::Deserialize;

/// `{slug}`: a public listing (`get_listing`, `get_badges`, `get_alternatives`).
#[derive(Debug, Deserialize, JsonSchema, Validate)]
#[serde(deny_unknown_fields)]
pub struct ListingSlug {
    /// The listing's slug.
    #[garde(skip)]
    #[schemars(with = "SchemaOf<Slug>")]
    pub slug: Slug,
}

impl InputPart for ListingSlug {}

/// `{listing_id}`: a listing of the caller's (`/me/listings/{listing_id}/...`).
#[derive(Debug, Deserialize, JsonSchema, Validate)]
#[serde(deny_unknown_fields)]
pub struct ListingPath {
    /// The listing's id.
    #[garde(range(min = 1))]
    pub listing_id: i64,
}

impl InputPart for ListingPath {}

impl ListingPath {
    pub fn id(&self) -> kernel::ListingId {
        kernel::ListingId::new(self.listing_id)
    }
}
