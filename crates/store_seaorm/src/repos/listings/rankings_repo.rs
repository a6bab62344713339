//! `RankingRepository` and `AwardRepository` over SeaORM.

use crate::entity::{award, award_week, billboard_total, directory_count, listing, listing_metric};
use crate::shared::positions::{RankKind, Ranked};
use crate::shared::rows::SummaryRow;
use crate::{SeaStore, repo_err};
use async_trait::async_trait;
use kernel::{ListingId, PageRequest, Paged, RepoError, Slug, Week};
use listings::{Award, AwardRepository, ListingSummary, RankingRepository, Winner};
use sea_orm::{ActiveModelTrait, ColumnTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect, Set, TransactionTrait};
use std::collections::{HashMap, HashSet};
use time::OffsetDateTime;

/// The kept totals of the boards (`directory_counts`, kept by migration 22's triggers): live
/// listings with a Domain Rating, with a monthly revenue, with a billboard contribution.
const RATED: &str = "rated";
const EARNING: &str = "earning";
const ON_BILLBOARD: &str = "on_billboard";

impl SeaStore {
    /// One of the kept totals in `directory_counts`, by name.
    async fn kept_count(&self, name: &str) -> Result<u64, RepoError> {
        let value = directory_count::Entity::find_by_id(name).one(&self.db).await.map_err(repo_err)?.map_or(0, |row| row.value);
        Ok(u64::try_from(value).unwrap_or(0))
    }

    /// Summaries of these listings, keyed by id.
    pub(crate) async fn summaries_by_id(&self, ids: &[i64]) -> Result<HashMap<i64, ListingSummary>, RepoError> {
        if ids.is_empty() {
            return Ok(HashMap::new());
        }
        // A summary's columns and their primary categories in one statement.
        let rows = SummaryRow::select()
            .filter(listing::Column::Id.is_in(ids.iter().copied()))
            .into_model::<SummaryRow>()
            .all(&self.db)
            .await
            .map_err(repo_err)?;
        rows.into_iter().map(|row| Ok((row.id, row.into_summary()?))).collect()
    }

    /// The summaries of `ids`, in their order (an id with no listing is left out).
    pub(crate) async fn summaries_in_order(&self, ids: &[i64]) -> Result<Vec<ListingSummary>, RepoError> {
        let mut summaries = self.summaries_by_id(ids).await?;
        Ok(ids.iter().filter_map(|id| summaries.remove(id)).collect())
    }

    /// Joins ranked `(listing id, value)` rows to their summaries, keeping the order.
    async fn with_summaries<T>(&self, ranked: Vec<(i64, T)>) -> Result<Vec<(ListingSummary, T)>, RepoError> {
        let ids: Vec<i64> = ranked.iter().map(|(id, _)| *id).collect();
        let mut summaries = self.summaries_by_id(&ids).await?;
        Ok(ranked.into_iter().filter_map(|(id, value)| summaries.remove(&id).map(|summary| (summary, value))).collect())
    }
}

#[async_trait]
impl RankingRepository for SeaStore {
    async fn by_votes(&self, page: PageRequest, total: u64) -> Result<Paged<ListingSummary>, RepoError> {
        let rows = Ranked {
            base: listing::Entity::find().filter(listing::Column::Status.eq("live")),
            by: listing::Column::VotesCount,
            kind: RankKind::Count,
            id: listing::Column::Id,
        }
        .page_of::<SummaryRow>(&self.db, &self.positions, page, SummaryRow::select())
        .await?;
        let summaries = rows.into_iter().map(SummaryRow::into_summary).collect::<Result<_, _>>()?;
        Ok(Paged::new(summaries, page, total))
    }

    async fn by_contributions(&self, page: PageRequest) -> Result<Paged<(ListingSummary, i64)>, RepoError> {
        let query = billboard_total::Entity::find()
            .filter(crate::listing_is_live(billboard_total::Entity, billboard_total::Column::ListingId))
            .order_by_desc(billboard_total::Column::ContributedCents)
            .order_by_asc(billboard_total::Column::FirstContributedAt)
            .order_by_asc(billboard_total::Column::ListingId);
        let rows = crate::page_of(&self.db, query, page).await?;
        let total = self.kept_count(ON_BILLBOARD).await?;
        let ranked = rows.into_iter().map(|row| (row.listing_id, row.contributed_cents)).collect();
        Ok(Paged::new(self.with_summaries(ranked).await?, page, total))
    }

    async fn by_domain_rating(&self, page: PageRequest) -> Result<Paged<(ListingSummary, i32, Option<i32>)>, RepoError> {
        use listing_metric::Column as M;
        let ranked = self.metrics_board::<i32, Option<i32>>(M::DomainRating, M::DomainRatingPrevious, page).await?;
        let total = self.kept_count(RATED).await?;
        let items = self.with_summaries(ranked).await?.into_iter().map(|(summary, (value, previous))| (summary, value, previous)).collect();
        Ok(Paged::new(items, page, total))
    }

    async fn by_revenue(&self, page: PageRequest) -> Result<Paged<(ListingSummary, i64, bool)>, RepoError> {
        use listing_metric::Column as M;
        let ranked = self.metrics_board::<i64, bool>(M::MonthlyRevenueCents, M::RevenueVerified, page).await?;
        let total = self.kept_count(EARNING).await?;
        let items = self.with_summaries(ranked).await?.into_iter().map(|(summary, (value, verified))| (summary, value, verified)).collect();
        Ok(Paged::new(items, page, total))
    }
}

impl SeaStore {
    /// One page of a board over `listing_metrics`: live listings with a `value`, highest first
    /// (then by id), each with its value and the column the board shows `beside` it, read
    /// inside the board's index alone (migration 27), so the rows before the page are skipped
    /// there.
    async fn metrics_board<V, B>(
        &self,
        value: listing_metric::Column,
        beside: listing_metric::Column,
        page: PageRequest,
    ) -> Result<Vec<(i64, (V, B))>, RepoError>
    where
        (i64, V, B): sea_orm::TryGetableMany,
    {
        use listing_metric::Column as M;
        let rows: Vec<(i64, V, B)> = listing_metric::Entity::find()
            .select_only()
            .columns([M::ListingId, value, beside])
            .filter(M::Live.eq(true))
            .filter(value.is_not_null())
            .order_by_desc(value)
            .order_by_asc(M::ListingId)
            .offset(page.offset())
            .limit(u64::from(page.per_page()))
            .into_tuple()
            .all(&self.db)
            .await
            .map_err(repo_err)?;
        Ok(rows.into_iter().map(|(id, value, beside)| (id, (value, beside))).collect())
    }
}

#[async_trait]
impl AwardRepository for SeaStore {
    async fn list(&self, listing: Option<ListingId>, page: PageRequest) -> Result<Paged<Award>, RepoError> {
        let mut query = award::Entity::find();
        if let Some(listing) = listing {
            query = query.filter(award::Column::ListingId.eq(listing.get()));
        }
        let (rows, total) =
            crate::fetch_page(&self.db, query.order_by_desc(award::Column::Week).order_by_asc(award::Column::Rank), page).await?;
        let ids: Vec<i64> = rows.iter().map(|row| row.listing_id).collect();
        let summaries = self.summaries_by_id(&ids).await?;
        let items = rows
            .into_iter()
            .filter_map(|row| {
                Some(Award {
                    week: Week::containing(row.week),
                    rank: u32::try_from(row.rank).ok()?,
                    votes: u64::try_from(row.votes).unwrap_or(0),
                    listing: summaries.get(&row.listing_id)?.clone(),
                })
            })
            .collect();
        Ok(Paged::new(items, page, total))
    }

    async fn fixed_weeks(&self, from: Week, to: Week) -> Result<HashSet<Week>, RepoError> {
        let weeks = award_week::Entity::find()
            .select_only()
            .column(award_week::Column::Week)
            .filter(award_week::Column::Week.gte(from.monday()))
            .filter(award_week::Column::Week.lte(to.monday()))
            .into_tuple::<time::Date>()
            .all(&self.db)
            .await
            .map_err(repo_err)?;
        Ok(weeks.into_iter().map(Week::containing).collect())
    }

    async fn fix_week(&self, week: Week, winners: &[Winner], at: OffsetDateTime) -> Result<bool, RepoError> {
        let txn = self.db.begin().await.map_err(repo_err)?;
        let claimed = award_week::ActiveModel {
            week: Set(week.monday()),
            fixed_at: Set(at.to_offset(time::UtcOffset::UTC)),
            winners: Set(winners.len() as i32),
        }
        .insert(&txn)
        .await;
        match claimed.map_err(repo_err) {
            Ok(_) => {}
            // Another process fixed this week first: nothing to do.
            Err(RepoError::Duplicate(_)) => {
                txn.rollback().await.map_err(repo_err)?;
                return Ok(false);
            }
            Err(other) => return Err(other),
        }
        for winner in winners {
            award::ActiveModel {
                week: Set(week.monday()),
                rank: Set(winner.rank as i32),
                listing_id: Set(winner.listing.get()),
                votes: Set(winner.votes as i64),
                ..Default::default()
            }
            .insert(&txn)
            .await
            .map_err(repo_err)?;
        }
        txn.commit().await.map_err(repo_err)?;
        Ok(true)
    }

    async fn listing_id(&self, slug: &Slug) -> Result<Option<ListingId>, RepoError> {
        let id = listing::Entity::find()
            .select_only()
            .column(listing::Column::Id)
            .filter(listing::Column::Slug.eq(slug.as_str()))
            .into_tuple::<i64>()
            .one(&self.db)
            .await
            .map_err(repo_err)?;
        Ok(id.map(ListingId::new))
    }
}
