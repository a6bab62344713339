//! The paginated query (`page` and `per_page`, declared once for every list that pages) and the
//! page of a list an operation returns.

use garde::Validate;
use kernel::{PageRequest, Paged};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Declares a query part: the struct as written, followed by `page` and `per_page` with the
/// bounds and defaults every paginated list shares, its `InputPart` impl and `page_request`.
///
/// A macro, not a field: serde's `flatten` would let a query hold a `Pagination`, but it cannot
/// be combined with `deny_unknown_fields`, which every input part needs.
macro_rules! paged_query {
    (
        $(#[$attr:meta])*
        $vis:vis struct $name:ident {
            $($(#[$field_attr:meta])* $field_vis:vis $field:ident: $ty:ty),* $(,)?
        }
    ) => {
        $(#[$attr])*
        $vis struct $name {
            $($(#[$field_attr])* $field_vis $field: $ty,)*
            /// Page number, starting at 1.
            #[serde(default = "crate::wire::first_page")]
            #[garde(range(min = 1, max = 1000))]
            pub page: u32,
            /// Items per page.
            #[serde(default = "crate::wire::default_per_page")]
            #[garde(range(min = 1, max = 100))]
            pub per_page: u32,
        }

        impl crate::InputPart for $name {}

        impl $name {
            /// The page asked for.
            pub fn page_request(&self) -> kernel::PageRequest {
                crate::wire::page_request(self.page, self.per_page)
            }
        }
    };
}
pub(crate) use paged_query;

paged_query! {
    /// `page` and `per_page` of a paginated list.
    #[derive(Debug, Clone, Copy, Deserialize, JsonSchema, Validate)]
    #[serde(deny_unknown_fields)]
    pub struct Pagination {}
}

impl Pagination {
    /// The first `per_page` items.
    pub fn first(per_page: u32) -> Self {
        Self { page: 1, per_page }
    }
}

pub(crate) fn first_page() -> u32 {
    1
}

pub(crate) fn default_per_page() -> u32 {
    PageRequest::DEFAULT_PER_PAGE
}

pub(crate) fn page_request(page: u32, per_page: u32) -> PageRequest {
    // Bounds were checked by garde before any use case runs.
    PageRequest::new(page, per_page).unwrap_or_default()
}

/// One page of a list, with the total count of the whole list.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(rename = "Paged")]
pub struct PageOf<T> {
    pub items: Vec<T>,
    pub page: u32,
    pub per_page: u32,
    pub total: u64,
}

impl<T> From<Paged<T>> for PageOf<T> {
    fn from(Paged { items, page, per_page, total }: Paged<T>) -> Self {
        Self { items, page, per_page, total }
    }
}
