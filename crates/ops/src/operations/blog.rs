//! `list_blog_posts` and `get_blog_post`.

use crate::registry::{Input, Operation, OperationSpec};
use crate::wire::SchemaOf;
use crate::wire::{paged_query, rfc3339};
use crate::{Caller, ContentServices, Context, InputPart, NoInput, OpError};
use async_trait::async_trait;
use content::BlogPostSummary;
use garde::Validate;
use kernel::{Faq, Slug};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub struct ListBlogPosts;

paged_query! {
    /// Query of `list_blog_posts`.
    #[derive(Debug, Deserialize, JsonSchema, Validate)]
    #[serde(deny_unknown_fields)]
    pub struct BlogQuery {
        /// Words to look for in titles, summaries and texts; every word must appear.
        #[garde(length(chars, max = 200))]
        pub q: Option<String>,
    }
}

/// A post in a list.
#[derive(Debug, Serialize, JsonSchema)]
pub struct BlogPostItem {
    #[schemars(with = "SchemaOf<Slug>")]
    pub slug: Slug,
    pub title: String,
    pub summary: String,
    pub author_name: String,
    pub tags: Vec<String>,
    /// RFC 3339.
    pub published_at: String,
    /// The post's page on the site.
    pub url: String,
}

/// Published posts.
#[derive(Debug, Serialize, JsonSchema)]
pub struct BlogPostList {
    pub items: Vec<BlogPostItem>,
    pub page: u32,
    pub per_page: u32,
    pub total: u64,
}

fn item(content: Context<'_, ContentServices>, post: BlogPostSummary) -> BlogPostItem {
    BlogPostItem {
        url: format!("{}/blog/{}", content.site.site_url, post.slug),
        slug: post.slug,
        title: post.title,
        summary: post.summary,
        author_name: post.author_name,
        tags: post.tags,
        published_at: rfc3339(post.published_at),
    }
}

#[async_trait]
impl Operation for ListBlogPosts {
    type Path = NoInput;
    type Query = BlogQuery;
    type Body = NoInput;
    type Output = BlogPostList;
    type Area = ContentServices;

    const SPEC: OperationSpec = OperationSpec {
        id: "list_blog_posts",
        path: "/blog",
        summary: "Blog posts",
        description: "Published blog posts, newest first. With `q`, only posts whose title, summary or text contains \
                      every word of it (case-insensitive), posts with every word in the title first.",
        tag: "content",
        ..OperationSpec::READ
    };

    async fn run(
        &self,
        content: Context<'_, Self::Area>,
        _: &Caller,
        input: Input<NoInput, BlogQuery, NoInput>,
    ) -> Result<BlogPostList, OpError> {
        let page = input.query.page_request();
        let q = input.query.q.as_deref().map(str::trim).filter(|q| !q.is_empty());
        let posts = content.blog.list(q, page).await?;
        Ok(BlogPostList {
            page: posts.page,
            per_page: posts.per_page,
            total: posts.total,
            items: posts.items.into_iter().map(|post| item(content, post)).collect(),
        })
    }
}

pub struct GetBlogPost;

/// Path of `get_blog_post`.
#[derive(Debug, Deserialize, JsonSchema, Validate)]
#[serde(deny_unknown_fields)]
pub struct BlogSlug {
    /// The post's slug.
    #[garde(skip)]
    #[schemars(with = "SchemaOf<Slug>")]
    pub slug: Slug,
}

impl InputPart for BlogSlug {}

/// A whole post.
#[derive(Debug, Serialize, JsonSchema)]
pub struct BlogPostView {
    #[serde(flatten)]
    pub post: BlogPostItem,
    /// The full text, Markdown.
    pub body_markdown: String,
    #[schemars(with = "Vec<SchemaOf<Faq>>")]
    pub faqs: Vec<Faq>,
    /// RFC 3339.
    pub updated_at: String,
}

#[async_trait]
impl Operation for GetBlogPost {
    type Path = BlogSlug;
    type Query = NoInput;
    type Body = NoInput;
    type Output = BlogPostView;
    type Area = ContentServices;

    const SPEC: OperationSpec = OperationSpec {
        id: "get_blog_post",
        path: "/blog/{slug}",
        summary: "A blog post",
        description: "A published blog post with its full Markdown text and FAQs. 404 for an unknown or unpublished slug.",
        tag: "content",
        not_found: true,
        ..OperationSpec::READ
    };

    async fn run(
        &self,
        content: Context<'_, Self::Area>,
        _: &Caller,
        input: Input<BlogSlug, NoInput, NoInput>,
    ) -> Result<BlogPostView, OpError> {
        let post = content.blog.get(&input.path.slug).await.map_err(|err| OpError::from_blog_post(err, &input.path.slug))?;
        Ok(BlogPostView {
            post: item(content, post.summary),
            body_markdown: post.body_markdown,
            faqs: post.faqs,
            updated_at: rfc3339(post.updated_at),
        })
    }
}
