//! What a site reader found: the pages it was allowed to read, as text and metadata. Drafters
//! write from it and the grounding check verifies quotes against it.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The pages read from one site.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SiteSnapshot {
    /// The homepage after redirects.
    pub home_url: String,
    /// The homepage first, then the other pages in the order read.
    pub pages: Vec<Page>,
    /// Same-origin pages robots.txt kept us from reading.
    pub skipped: Vec<String>,
    /// Pages read as a browser shows them, after their scripts ran.
    #[serde(default)]
    pub rendered: Vec<String>,
    /// Pages that show their content only with JavaScript and were read without it (rendering
    /// is off, no browser is installed, or it failed).
    #[serde(default)]
    pub needs_javascript: Vec<String>,
}

/// What kind of text a block is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BlockKind {
    /// A heading, `h1` to `h6`.
    Heading(u8),
    Paragraph,
    ListItem,
    /// A question of an FAQ (`summary`, `dt`).
    Term,
    /// Any other visible text.
    Other,
}

/// Whose words a block is, or what it is about, as the page's structure tells: a customer's
/// testimonial, a partner's offer or a competitor's row is on the page but not about the
/// product, and `crate::meaning` says which values each kind of block may support.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BlockRole {
    /// The product's own words about itself.
    #[default]
    Content,
    /// The page's footer (contact details, addresses, links).
    Footer,
    /// A testimonial or review: someone else's words (`blockquote`, a figure with a quote,
    /// a section named or headed like testimonials, reviews or customers, schema.org `Review`).
    Testimonial,
    /// Partners and integrations: other companies' products.
    Partner,
    /// A comparison with other products (their prices and features are not the product's).
    Comparison,
    /// A roadmap or "coming soon": what the product does not do yet.
    Roadmap,
    /// A copyright line (its year is not a founding year).
    Copyright,
    /// A cookie or consent banner.
    CookieBanner,
}

/// A block of visible text, whitespace folded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TextBlock {
    pub kind: BlockKind,
    pub text: String,
    /// The nearest heading above it.
    pub section: Option<String>,
    /// What kind of block of the page it sits in.
    #[serde(default)]
    pub role: BlockRole,
}

/// A link on a page, resolved to an absolute URL.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Link {
    pub url: String,
    pub text: String,
}

/// An image, resolved to an absolute URL, with hints of what it shows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Image {
    pub url: String,
    pub alt: String,
    /// Its `class` and `id`, lower-cased.
    pub hint: String,
}

/// One page as read.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Page {
    pub url: String,
    pub lang: Option<String>,
    pub title: Option<String>,
    pub meta_description: Option<String>,
    pub meta_keywords: Option<String>,
    /// `og:title`, `og:site_name`, `og:description`, `og:image`, ...
    pub open_graph: BTreeMap<String, String>,
    /// JSON-LD objects of the types we read, `@graph` flattened.
    pub json_ld: Vec<serde_json::Value>,
    pub blocks: Vec<TextBlock>,
    pub links: Vec<Link>,
    pub images: Vec<Image>,
    /// `src` of embedded frames (videos).
    pub embeds: Vec<String>,
    /// `rel=icon` links.
    pub icons: Vec<String>,
}

/// Collapses every run of whitespace into one space and trims the ends.
pub fn fold_whitespace(text: &str) -> String {
    let mut folded = String::with_capacity(text.len());
    for word in text.split_whitespace() {
        if !folded.is_empty() {
            folded.push(' ');
        }
        folded.push_str(word);
    }
    folded
}

/// Why a site could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReadFailure {
    #[error("robots.txt disallows the homepage")]
    RobotsDisallowed,
    #[error("unreachable: {0}")]
    Unreachable(String),
    #[error("not an HTML page ({0})")]
    NotHtml(String),
    #[error("blocked address: {0}")]
    BlockedAddress(String),
    #[error("larger than the limit")]
    TooLarge,
}

impl ReadFailure {
    pub fn reason(&self) -> crate::FailureReason {
        use crate::FailureReason as R;
        match self {
            Self::RobotsDisallowed => R::RobotsDisallowed,
            Self::Unreachable(_) => R::Unreachable,
            Self::NotHtml(_) => R::NotHtml,
            Self::BlockedAddress(_) => R::BlockedAddress,
            Self::TooLarge => R::TooLarge,
        }
    }
}
