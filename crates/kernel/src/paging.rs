//! Pagination: a checked page request and the `{items, page, per_page, total}` envelope.

use serde::Serialize;

/// A page request whose bounds were checked: page 1..=1000, per_page 1..=100.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageRequest {
    page: u32,
    per_page: u32,
}

impl PageRequest {
    pub const MAX_PAGE: u32 = 1000;
    pub const MAX_PER_PAGE: u32 = 100;
    pub const DEFAULT_PER_PAGE: u32 = 20;

    /// Returns `None` when a bound is broken; the caller names the field.
    pub fn new(page: u32, per_page: u32) -> Option<Self> {
        ((1..=Self::MAX_PAGE).contains(&page) && (1..=Self::MAX_PER_PAGE).contains(&per_page)).then_some(Self { page, per_page })
    }

    pub fn page(self) -> u32 {
        self.page
    }

    pub fn per_page(self) -> u32 {
        self.per_page
    }

    /// Rows to skip before this page.
    pub fn offset(self) -> u64 {
        u64::from(self.page - 1) * u64::from(self.per_page)
    }
}

impl Default for PageRequest {
    fn default() -> Self {
        Self { page: 1, per_page: Self::DEFAULT_PER_PAGE }
    }
}

/// One page of a list, with the total count of the whole list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Paged<T> {
    pub items: Vec<T>,
    pub page: u32,
    pub per_page: u32,
    pub total: u64,
}

impl<T> Paged<T> {
    pub fn new(items: Vec<T>, request: PageRequest, total: u64) -> Self {
        Self { items, page: request.page, per_page: request.per_page, total }
    }

    pub fn map<U>(self, f: impl FnMut(T) -> U) -> Paged<U> {
        Paged { items: self.items.into_iter().map(f).collect(), page: self.page, per_page: self.per_page, total: self.total }
    }
}

#[cfg(test)]
mod tests {
    use super::PageRequest;

    #[test]
    fn bounds_are_enforced() {
        assert!(PageRequest::new(1, 1).is_some());
        assert!(PageRequest::new(1000, 100).is_some());
        assert!(PageRequest::new(0, 20).is_none());
        assert!(PageRequest::new(1001, 20).is_none());
        assert!(PageRequest::new(1, 0).is_none());
        assert!(PageRequest::new(1, 101).is_none());
    }

    #[test]
    fn offset_skips_previous_pages() {
        assert_eq!(PageRequest::new(3, 20).map(PageRequest::offset), Some(40));
    }
}
