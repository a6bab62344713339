//! `get_site_info`: what this site is and where everything lives.

use crate::registry::{Input, Operation, OperationSpec};
use crate::wire::SchemaOf;
use crate::{App, Caller, Context, NoInput, OpError};
use async_trait::async_trait;
use listings::SiteCounts;
use schemars::JsonSchema;
use serde::Serialize;

pub struct GetSiteInfo;

/// The site's name, purpose, counts and where its pages, docs and tool server are.
#[derive(Debug, Serialize, JsonSchema)]
pub struct SiteInfo {
    pub name: String,
    pub purpose: String,
    pub site_url: String,
    pub api_base_url: String,
    pub launch_timezone: String,
    /// The seller's country (ISO 3166 alpha-2): it decides which buyers pay domestic VAT.
    pub seller_country: String,
    #[schemars(with = "SchemaOf<SiteCounts>")]
    pub counts: SiteCounts,
    pub urls: PublicUrls,
    pub docs: DocLocations,
}

/// Pages for people.
#[derive(Debug, Serialize, JsonSchema)]
pub struct PublicUrls {
    pub home: String,
    pub launches: String,
    pub categories: String,
    pub leaderboards: String,
    pub founders: String,
    pub blog: String,
    pub submit: String,
}

/// Where machines find the API's description and the tool server.
#[derive(Debug, Serialize, JsonSchema)]
pub struct DocLocations {
    pub api_docs: String,
    pub openapi: String,
    pub mcp: String,
}

#[async_trait]
impl Operation for GetSiteInfo {
    type Path = NoInput;
    type Query = NoInput;
    type Body = NoInput;
    type Output = SiteInfo;
    type Area = App;

    const SPEC: OperationSpec = OperationSpec {
        id: "get_site_info",
        path: "/site",
        summary: "About this site",
        description: "The site's name and purpose, its public pages, the counts of live listings and categories, \
                      and where the API docs, the OpenAPI file and the MCP tool server are.",
        tag: "site",
        ..OperationSpec::READ
    };

    async fn run(&self, app: Context<'_, Self::Area>, _: &Caller, _: Input<NoInput, NoInput, NoInput>) -> Result<SiteInfo, OpError> {
        let counts = app.listings.directory.counts().await?;
        let site = &app.site;
        let page = |path: &str| format!("{}{path}", site.site_url);
        Ok(SiteInfo {
            name: site.name.clone(),
            purpose: "A public directory of product launches: a weekly launch calendar, leaderboards, awards, \
                      founders and badges. Submit a product by its website address; votes come only from people on the site."
                .to_owned(),
            site_url: site.site_url.clone(),
            api_base_url: site.base_url.clone(),
            launch_timezone: site.launch_timezone.clone(),
            seller_country: app.commerce.orders.seller_country().to_string(),
            counts,
            urls: PublicUrls {
                home: page("/"),
                launches: page("/launches"),
                categories: page("/categories"),
                leaderboards: page("/leaderboards"),
                founders: page("/founders"),
                blog: page("/blog"),
                submit: page("/submit"),
            },
            docs: DocLocations { api_docs: page("/docs/api"), openapi: format!("{}/openapi.json", site.base_url), mcp: page("/mcp") },
        })
    }
}
