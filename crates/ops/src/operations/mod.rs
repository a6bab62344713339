//! The operations, grouped by area. Each is a unit struct implementing `Operation`. A file
//! stands alone: what several operations share comes from `crate::wire`, never from another
//! operation file (an area split into a folder shares only its spec presets, from its `mod.rs`).

pub mod account;
pub mod badges;
pub mod blog;
pub mod catalog;
pub mod categories;
pub mod claims;
pub mod compare;
pub mod content;
pub mod drafts;
pub mod feeds;
pub mod founders;
pub mod launches;
pub mod listing;
pub mod media;
pub mod orders;
pub mod owner;
pub mod rankings;
pub mod search;
pub mod site;
