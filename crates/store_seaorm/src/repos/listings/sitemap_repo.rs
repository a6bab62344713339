//! `SitemapRepository` over SeaORM: windows of live listings and of founders behind one, by id.

use crate::entity::{founder, listing};
use crate::{SeaStore, repo_err, utc};
use async_trait::async_trait;
use kernel::{RepoError, Slug};
use listings::SitemapRepository;
use sea_orm::{ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter, QueryOrder, QuerySelect};
use time::OffsetDateTime;

fn slug(raw: &str) -> Result<Slug, RepoError> {
    Slug::parse(raw).map_err(RepoError::backend)
}

#[async_trait]
impl SitemapRepository for SeaStore {
    async fn count_live_listings(&self) -> Result<u64, RepoError> {
        listing::Entity::find().filter(listing::Column::Status.eq("live")).count(&self.db).await.map_err(repo_err)
    }

    async fn live_listings(&self, offset: u64, limit: u64) -> Result<Vec<(Slug, OffsetDateTime)>, RepoError> {
        let rows: Vec<(String, sea_orm::prelude::TimeDateTimeWithTimeZone)> = listing::Entity::find()
            .select_only()
            .column(listing::Column::Slug)
            .column(listing::Column::UpdatedAt)
            .filter(listing::Column::Status.eq("live"))
            .order_by_asc(listing::Column::Id)
            .offset(offset)
            .limit(limit)
            .into_tuple()
            .all(&self.db)
            .await
            .map_err(repo_err)?;
        rows.into_iter().map(|(raw, updated_at)| Ok((slug(&raw)?, utc(updated_at)))).collect()
    }

    async fn count_founders(&self) -> Result<u64, RepoError> {
        founder::Entity::find()
            .filter(founder::Column::Id.in_subquery(crate::shared::queries::founders_of_live_listings()))
            .count(&self.db)
            .await
            .map_err(repo_err)
    }

    async fn founders(&self, offset: u64, limit: u64) -> Result<Vec<Slug>, RepoError> {
        let rows: Vec<String> = founder::Entity::find()
            .select_only()
            .column(founder::Column::Slug)
            .filter(founder::Column::Id.in_subquery(crate::shared::queries::founders_of_live_listings()))
            .order_by_asc(founder::Column::Id)
            .offset(offset)
            .limit(limit)
            .into_tuple()
            .all(&self.db)
            .await
            .map_err(repo_err)?;
        rows.iter().map(|raw| slug(raw)).collect()
    }
}
