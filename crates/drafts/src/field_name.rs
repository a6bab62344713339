//! The names of a draft's 18 editable profile fields: on the wire (`usps`), in words for
//! pages ("What sets it apart"), and the shape each value takes.

use serde::{Deserialize, Serialize};

/// The 18 editable profile fields of a draft.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FieldName {
    Name,
    Tagline,
    ShortDescription,
    Description,
    Stage,
    Categories,
    Tags,
    PricingModel,
    PricingSummary,
    Country,
    City,
    FoundedYear,
    Features,
    Usps,
    Keywords,
    ContactEmail,
    DemoVideoUrl,
    LogoUrl,
}

/// The shape and bounds of a field's value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldKind {
    /// A string of at most this many characters.
    Text(usize),
    /// At most this many strings of at most 200 characters each.
    List(usize),
}

impl FieldName {
    pub const ALL: [FieldName; 18] = [
        Self::Name,
        Self::Tagline,
        Self::ShortDescription,
        Self::Description,
        Self::Stage,
        Self::Categories,
        Self::Tags,
        Self::PricingModel,
        Self::PricingSummary,
        Self::Country,
        Self::City,
        Self::FoundedYear,
        Self::Features,
        Self::Usps,
        Self::Keywords,
        Self::ContactEmail,
        Self::DemoVideoUrl,
        Self::LogoUrl,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Name => "name",
            Self::Tagline => "tagline",
            Self::ShortDescription => "short_description",
            Self::Description => "description",
            Self::Stage => "stage",
            Self::Categories => "categories",
            Self::Tags => "tags",
            Self::PricingModel => "pricing_model",
            Self::PricingSummary => "pricing_summary",
            Self::Country => "country",
            Self::City => "city",
            Self::FoundedYear => "founded_year",
            Self::Features => "features",
            Self::Usps => "usps",
            Self::Keywords => "keywords",
            Self::ContactEmail => "contact_email",
            Self::DemoVideoUrl => "demo_video_url",
            Self::LogoUrl => "logo_url",
        }
    }

    pub fn parse(value: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|name| name.as_str() == value)
    }

    /// What people call the field, for pages (the wire name is for programs: `usps` reads as
    /// "What sets it apart").
    pub fn label(self) -> &'static str {
        match self {
            Self::Name => "Name",
            Self::Tagline => "Tagline",
            Self::ShortDescription => "Short description",
            Self::Description => "Description",
            Self::Stage => "Stage",
            Self::Categories => "Categories",
            Self::Tags => "Tags",
            Self::PricingModel => "Pricing model",
            Self::PricingSummary => "Pricing",
            Self::Country => "Country",
            Self::City => "City",
            Self::FoundedYear => "Year founded",
            Self::Features => "Features",
            Self::Usps => "What sets it apart",
            Self::Keywords => "Keywords",
            Self::ContactEmail => "Contact e-mail",
            Self::DemoVideoUrl => "Demo video",
            Self::LogoUrl => "Logo",
        }
    }

    pub fn kind(self) -> FieldKind {
        match self {
            Self::Description => FieldKind::Text(20_000),
            Self::Categories | Self::Tags | Self::Features | Self::Usps | Self::Keywords => FieldKind::List(20),
            _ => FieldKind::Text(500),
        }
    }
}

impl std::fmt::Display for FieldName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
