//! SeaORM entities, one module per table. They never leave this crate.

pub mod api_key;
pub mod award;
pub mod award_week;
pub mod billboard_contribution;
pub mod blog_post;
pub mod category;
pub mod founder;
pub mod interview_question;
pub mod listing;
pub mod listing_alternative;
pub mod listing_category;
pub mod listing_follow;
pub mod listing_founder;
pub mod listing_media;
pub mod listing_metric;
pub mod listing_milestone;
pub mod listing_story;
pub mod listing_update;
pub mod product;
pub mod review;
pub mod user;
pub mod vote;
