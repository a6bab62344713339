//! `BlogRepository` over SeaORM: word matching with case-insensitive `LIKE`.

use crate::entity::blog_post;
use crate::{SeaStore, lower_contains, repo_err};
use async_trait::async_trait;
use content::{BlogPost, BlogPostSummary, BlogRepository};
use kernel::{Faq, PageRequest, Paged, RepoError, Slug};
use sea_orm::sea_query::Expr;
use sea_orm::{ColumnTrait, Condition, EntityTrait, Order, PaginatorTrait, QueryFilter, QueryOrder, QuerySelect};
use time::OffsetDateTime;

fn summary_of(row: &blog_post::Model) -> Result<BlogPostSummary, RepoError> {
    Ok(BlogPostSummary {
        slug: Slug::parse(&row.slug).map_err(RepoError::backend)?,
        title: row.title.clone(),
        summary: row.summary.clone(),
        author_name: row.author_name.clone(),
        tags: serde_json::from_value(row.tags.clone()).map_err(RepoError::backend)?,
        published_at: row.published_at.ok_or_else(|| RepoError::Backend("a listed post has no published_at".into()))?,
    })
}

#[async_trait]
impl BlogRepository for SeaStore {
    async fn list_published(&self, now: OffsetDateTime, words: &[String], page: PageRequest) -> Result<Paged<BlogPostSummary>, RepoError> {
        let mut query = blog_post::Entity::find().filter(blog_post::Column::PublishedAt.lte(now));
        for word in words {
            query = query.filter(
                Condition::any()
                    .add(lower_contains(blog_post::Column::Title, word))
                    .add(lower_contains(blog_post::Column::Summary, word))
                    .add(lower_contains(blog_post::Column::BodyMarkdown, word)),
            );
        }
        let total = query.clone().count(&self.db).await.map_err(repo_err)?;
        if !words.is_empty() {
            // Posts whose title holds every word come first.
            let mut in_title = Condition::all();
            for word in words {
                in_title = in_title.add(lower_contains(blog_post::Column::Title, word));
            }
            let title_first: Expr = Expr::case(in_title, 0).finally(1).into();
            query = query.order_by(title_first, Order::Asc);
        }
        let rows = query
            .order_by_desc(blog_post::Column::PublishedAt)
            .order_by_desc(blog_post::Column::Id)
            .offset(page.offset())
            .limit(u64::from(page.per_page()))
            .all(&self.db)
            .await
            .map_err(repo_err)?;
        let items = rows.iter().map(summary_of).collect::<Result<_, _>>()?;
        Ok(Paged::new(items, page, total))
    }

    async fn find_published(&self, slug: &Slug, now: OffsetDateTime) -> Result<Option<BlogPost>, RepoError> {
        let row = blog_post::Entity::find()
            .filter(blog_post::Column::Slug.eq(slug.as_str()))
            .filter(blog_post::Column::PublishedAt.lte(now))
            .one(&self.db)
            .await
            .map_err(repo_err)?;
        let Some(row) = row else { return Ok(None) };
        let faqs: Vec<Faq> = serde_json::from_value(row.faqs.clone()).map_err(RepoError::backend)?;
        Ok(Some(BlogPost { summary: summary_of(&row)?, body_markdown: row.body_markdown, faqs, updated_at: row.updated_at }))
    }
}
