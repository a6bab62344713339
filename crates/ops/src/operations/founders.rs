//! `list_founders` and `get_founder`.

use crate::registry::{Input, Operation, OperationSpec};
use crate::wire::SchemaOf;
use crate::wire::{self, ImageView, InterviewAnswerView, paged_query, rfc3339};
use crate::{Caller, Context, InputPart, ListingServices, NoInput, OpError};
use async_trait::async_trait;
use garde::Validate;
use kernel::{CountryCode, Slug};
use listings::{CompanyRef, ListingSummary};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

pub struct ListFounders;

paged_query! {
    /// Query of `list_founders`.
    #[derive(Debug, Deserialize, JsonSchema, Validate)]
    #[serde(deny_unknown_fields)]
    pub struct FoundersQuery {
        /// Words of the founder's name; every word must appear.
        #[garde(length(chars, max = 120))]
        pub q: Option<String>,
        /// Only founders from this country (ISO 3166-1 alpha-2).
        #[garde(skip)]
        #[schemars(with = "Option<SchemaOf<CountryCode>>")]
        pub country: Option<CountryCode>,
    }
}

/// A founder in a list.
#[derive(Debug, Serialize, JsonSchema)]
pub struct FounderItem {
    #[schemars(with = "SchemaOf<Slug>")]
    pub slug: Slug,
    pub name: String,
    /// Their role, e.g. "Founder & CEO".
    pub title: Option<String>,
    #[schemars(with = "Option<SchemaOf<CountryCode>>")]
    pub country: Option<CountryCode>,
    /// Their picture, on our origin (null when no owner set one).
    pub avatar_url: Option<String>,
    /// The picture with its size and scaled copies.
    pub avatar: Option<ImageView>,
    /// Live listings they founded.
    #[schemars(with = "Vec<SchemaOf<CompanyRef>>")]
    pub companies: Vec<CompanyRef>,
    /// The founder's page on the site.
    pub url: String,
}

/// Founders behind live listings.
#[derive(Debug, Serialize, JsonSchema)]
pub struct FounderList {
    pub items: Vec<FounderItem>,
    pub page: u32,
    pub per_page: u32,
    pub total: u64,
}

#[async_trait]
impl Operation for ListFounders {
    type Path = NoInput;
    type Query = FoundersQuery;
    type Body = NoInput;
    type Output = FounderList;
    type Area = ListingServices;

    const SPEC: OperationSpec = OperationSpec {
        id: "list_founders",
        path: "/founders",
        summary: "Founders",
        description: "Founders behind live listings, by name. `q` keeps founders whose name contains every word of it \
                      (case-insensitive); `country` keeps founders from that country.",
        tag: "directory",
        ..OperationSpec::READ
    };

    async fn run(
        &self,
        listings: Context<'_, Self::Area>,
        _: &Caller,
        input: Input<NoInput, FoundersQuery, NoInput>,
    ) -> Result<FounderList, OpError> {
        let query = input.query;
        let page = query.page_request();
        let name = query.q.as_deref().map(str::trim).filter(|q| !q.is_empty());
        let founders = listings.founders.list(name, query.country.as_ref(), page).await?;
        Ok(FounderList {
            page: founders.page,
            per_page: founders.per_page,
            total: founders.total,
            items: founders
                .items
                .into_iter()
                .map(|f| FounderItem {
                    url: format!("{}/founders/{}", listings.site.site_url, f.slug),
                    slug: f.slug,
                    name: f.name,
                    title: f.title,
                    country: f.country,
                    avatar_url: f.avatar.map(|avatar| format!("{}{}", listings.site.site_url, avatar.path(kernel::ImageSize::Original))),
                    avatar: f.avatar.map(|avatar| ImageView::new(&avatar, &listings.site.site_url)),
                    companies: f.companies,
                })
                .collect(),
        })
    }
}

pub struct GetFounder;

/// Path of `get_founder`.
#[derive(Debug, Deserialize, JsonSchema, Validate)]
#[serde(deny_unknown_fields)]
pub struct FounderSlug {
    /// The founder's slug.
    #[garde(skip)]
    #[schemars(with = "SchemaOf<Slug>")]
    pub slug: Slug,
}

impl InputPart for FounderSlug {}

/// A published founder story.
#[derive(Debug, Serialize, JsonSchema)]
pub struct StoryView {
    /// The listing the story belongs to.
    #[schemars(with = "SchemaOf<CompanyRef>")]
    pub listing: CompanyRef,
    #[serde(flatten)]
    pub story: wire::StoryView,
    /// RFC 3339.
    pub published_at: String,
}

/// A founder's public profile.
#[derive(Debug, Serialize, JsonSchema)]
pub struct FounderView {
    #[schemars(with = "SchemaOf<Slug>")]
    pub slug: Slug,
    pub name: String,
    pub title: Option<String>,
    pub bio: Option<String>,
    #[schemars(with = "Option<SchemaOf<CountryCode>>")]
    pub country: Option<CountryCode>,
    /// Their picture, on our origin (null when no owner set one).
    pub avatar_url: Option<String>,
    /// The picture with its size and scaled copies.
    pub avatar: Option<ImageView>,
    /// Platform key to link.
    pub socials: BTreeMap<String, String>,
    /// Live listings the founder founded, most voted first.
    #[schemars(with = "Vec<SchemaOf<ListingSummary>>")]
    pub companies: Vec<ListingSummary>,
    /// Published stories of those listings, newest first.
    pub stories: Vec<StoryView>,
    /// The founder's interview answers (`answer_interview`), in the questions' order.
    pub interview: Vec<InterviewAnswerView>,
    pub url: String,
}

#[async_trait]
impl Operation for GetFounder {
    type Path = FounderSlug;
    type Query = NoInput;
    type Body = NoInput;
    type Output = FounderView;
    type Area = ListingServices;

    const SPEC: OperationSpec = OperationSpec {
        id: "get_founder",
        path: "/founders/{slug}",
        summary: "A founder's profile",
        description: "A founder's bio, socials, the live listings they founded and their published stories and interview answers. 404 for an \
                      unknown slug, or a founder none of whose listings is live yet.",
        tag: "directory",
        not_found: true,
        ..OperationSpec::READ
    };

    async fn run(
        &self,
        listings: Context<'_, Self::Area>,
        _: &Caller,
        input: Input<FounderSlug, NoInput, NoInput>,
    ) -> Result<FounderView, OpError> {
        let profile = listings.founders.profile(&input.path.slug).await.map_err(|err| OpError::from_founder(err, &input.path.slug))?;
        Ok(FounderView {
            url: format!("{}/founders/{}", listings.site.site_url, profile.slug),
            slug: profile.slug,
            name: profile.name,
            title: profile.title,
            bio: profile.bio,
            country: profile.country,
            avatar_url: profile.avatar.map(|avatar| format!("{}{}", listings.site.site_url, avatar.path(kernel::ImageSize::Original))),
            avatar: profile.avatar.map(|avatar| ImageView::new(&avatar, &listings.site.site_url)),
            socials: profile.socials,
            companies: profile.companies,
            stories: profile
                .stories
                .into_iter()
                .map(|s| StoryView { listing: s.listing, story: wire::StoryView { story: s.story }, published_at: rfc3339(s.published_at) })
                .collect(),
            interview: profile.interview.into_iter().map(InterviewAnswerView::from).collect(),
        })
    }
}
