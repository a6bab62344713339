#![doc = include_str!("../README.md")]

pub mod address;
pub mod badge;
pub mod claim_probe;
pub mod client_metadata;
mod enclosure;
pub mod extract;
pub mod fetcher;
pub mod page;
pub mod reader;
pub mod render;
pub mod robots;
#[cfg(feature = "testing")]
pub mod testing;

pub use address::AddressPolicy;
pub use badge::HomepageBadgeProbe;
pub use claim_probe::ClaimSiteProbe;
pub use client_metadata::ClientMetadataFetcher;
pub use fetcher::{FetchError, Fetched, FetcherConfig, SafeFetcher, install_crypto_provider};
pub use reader::CrawlingSiteReader;
pub use render::{ChromiumRenderer, RenderBudget};
pub use robots::RobotsCache;

/// The product token robots.txt groups are matched against.
pub const BOT_TOKEN: &str = "LaunchdirBot";

/// Our `User-Agent`: the bot's name, version, and the page about it.
pub fn user_agent(site_url: &str) -> String {
    format!("{BOT_TOKEN}/{} (+{site_url}/bot)", env!("CARGO_PKG_VERSION"))
}
