#![doc = include_str!("../README.md")]

pub mod founders;
pub mod model;
pub mod ports;
pub mod service;

pub use founders::{
    CompanyRef, FounderError, FounderProfile, FounderRepository, FounderSummary, FoundersService, PublishedStory, StorySections,
};
pub use model::{Category, CategoryNode, CategoryPage, CategoryRef, Faq, ListingStatus, ListingSummary, SiteCounts};
pub use ports::{CategoryRepository, ListingRepository, LiveCounts};
pub use service::{DirectoryError, DirectoryService};
