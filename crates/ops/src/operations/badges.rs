//! `get_badges`: the badges a listing may show, with embed code and image URLs.

use crate::registry::{Input, Operation, OperationSpec};
use crate::wire::ListingSlug;
use crate::wire::SchemaOf;
use crate::{Caller, Context, InputPart, ListingServices, OpError};
use async_trait::async_trait;
use garde::Validate;
use kernel::markup::escape;
use kernel::{Slug, Week};
use listings::{BadgeStyle, Mode, Shape, Size};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The shape of a badge.
#[derive(Debug, Clone, Copy, Default, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum ShapeParam {
    #[default]
    Standard,
    Outline,
    Pill,
    Banner,
    Square,
}

/// Light, dark, or following the page's colour scheme (`prefers-color-scheme`).
#[derive(Debug, Clone, Copy, Default, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum ModeParam {
    Light,
    Dark,
    #[default]
    Auto,
}

/// Small, medium or large.
#[derive(Debug, Clone, Copy, Default, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum SizeParam {
    S,
    #[default]
    M,
    L,
}

/// How the badges should look; the same three parameters the image URL takes.
#[derive(Debug, Clone, Copy, Deserialize, JsonSchema, Validate)]
#[serde(deny_unknown_fields)]
pub struct BadgeQuery {
    #[serde(default)]
    #[garde(skip)]
    pub shape: ShapeParam,
    #[serde(default)]
    #[garde(skip)]
    pub mode: ModeParam,
    #[serde(default)]
    #[garde(skip)]
    pub size: SizeParam,
}

impl InputPart for BadgeQuery {}

impl BadgeQuery {
    pub fn style(self) -> BadgeStyle {
        BadgeStyle {
            shape: match self.shape {
                ShapeParam::Standard => Shape::Standard,
                ShapeParam::Outline => Shape::Outline,
                ShapeParam::Pill => Shape::Pill,
                ShapeParam::Banner => Shape::Banner,
                ShapeParam::Square => Shape::Square,
            },
            mode: match self.mode {
                ModeParam::Light => Mode::Light,
                ModeParam::Dark => Mode::Dark,
                ModeParam::Auto => Mode::Auto,
            },
            size: match self.size {
                SizeParam::S => Size::S,
                SizeParam::M => Size::M,
                SizeParam::L => Size::L,
            },
        }
    }
}

/// A badge with everything needed to show it.
#[derive(Debug, Serialize, JsonSchema)]
pub struct BadgeView {
    /// `listed`, `launched`, `featured`, `verified` (an owner proved control by a claim),
    /// `launch-of-the-week-1` (2, 3).
    pub kind: String,
    /// What the badge says, e.g. "Launched on Launchdir".
    pub title: String,
    /// The week of a weekly award.
    #[schemars(with = "Option<SchemaOf<Week>>")]
    pub week: Option<Week>,
    /// The SVG image, in the requested shape, mode and size.
    pub image_url: String,
    pub width: u32,
    pub height: u32,
    /// Where the badge links: the listing's page on the site.
    pub link: String,
    /// Ready-to-paste HTML: the image inside a link to the listing.
    pub embed_html: String,
}

/// The listing named by a badge.
#[derive(Debug, Serialize, JsonSchema)]
pub struct BadgeListing {
    #[schemars(with = "SchemaOf<Slug>")]
    pub slug: Slug,
    pub name: String,
    #[schemars(with = "SchemaOf<listings::ListingStatus>")]
    pub status: listings::ListingStatus,
}

/// The badges a listing may show.
#[derive(Debug, Serialize, JsonSchema)]
pub struct BadgeList {
    pub listing: BadgeListing,
    pub shape: ShapeParam,
    pub mode: ModeParam,
    pub size: SizeParam,
    pub items: Vec<BadgeView>,
}

pub struct GetBadges;

#[async_trait]
impl Operation for GetBadges {
    type Path = ListingSlug;
    type Query = BadgeQuery;
    type Body = crate::NoInput;
    type Output = BadgeList;
    type Area = ListingServices;

    const SPEC: OperationSpec = OperationSpec {
        id: "get_badges",
        path: "/listings/{slug}/badges",
        summary: "Badges a listing may show",
        description: "The badges a listing has earned (Listed on, Launched on, Launch of the Week #1 to #3), each with its \
                      SVG image URL in the requested shape (standard, outline, pill, banner, square), mode (light, dark, \
                      auto: follows prefers-color-scheme) and size (s, m, l), and ready HTML embed code that links back \
                      to the listing. A listing waiting for its free launch gets the Listed on badge it must show on its \
                      homepage. 404 for an unknown or unpublished listing.",
        tag: "directory",
        not_found: true,
        ..OperationSpec::READ
    };

    async fn run(
        &self,
        listings: Context<'_, Self::Area>,
        _: &Caller,
        input: Input<ListingSlug, BadgeQuery, crate::NoInput>,
    ) -> Result<BadgeList, OpError> {
        let (listing, earned) =
            listings.badges.earned(&input.path.slug).await.map_err(|err| OpError::from_badges(err, &input.path.slug))?;
        let query = input.query;
        let style = query.style();
        let (width, height) = style.dimensions();
        let site = &listings.site;
        let link = format!("{}/listings/{}", site.site_url, listing.slug);
        let items = earned
            .into_iter()
            .map(|badge| {
                let image_url = format!(
                    "{}/badges/{}/{}.svg?shape={}&mode={}&size={}",
                    site.site_url,
                    listing.slug,
                    badge.kind.code(),
                    style.shape.as_str(),
                    style.mode.as_str(),
                    style.size.as_str()
                );
                let title = format!("{} {}", badge.title, site.name);
                let embed_html = format!(
                    r#"<a href="{}" target="_blank" rel="noopener" title="{}"><img src="{}" alt="{}: {}" width="{width}" height="{height}" style="border:0" /></a>"#,
                    escape(&link),
                    escape(&title),
                    escape(&image_url),
                    escape(&title),
                    escape(&listing.name),
                );
                BadgeView { kind: badge.kind.code(), title, week: badge.week, image_url, width, height, link: link.clone(), embed_html }
            })
            .collect();
        Ok(BadgeList {
            listing: BadgeListing { slug: listing.slug, name: listing.name, status: listing.status },
            shape: query.shape,
            mode: query.mode,
            size: query.size,
            items,
        })
    }
}
