//! `RankingRepository` and `AwardRepository` over SeaORM.

use crate::entity::{award, award_week, billboard_total, directory_count, listing, listing_metric};
use crate::shared::positions::{PAGE_BESIDE, PAGE_VALUE, RankKind, Ranked, count_of, counted_page_by};
use crate::shared::rows::SummaryRow;
use crate::{SeaStore, repo_err};
use async_trait::async_trait;
use kernel::{ListingId, PageRequest, Paged, RepoError, Slug, Week};
use listings::{Award, AwardRepository, ListingSummary, RankingRepository, Winner};
use sea_orm::sea_query::Expr;
use sea_orm::{
    ActiveModelTrait, ColumnTrait, EntityTrait, FromQueryResult, JoinType, QueryFilter, QueryOrder, QuerySelect, Set, TransactionTrait,
};
use std::collections::{HashMap, HashSet};
use time::OffsetDateTime;

/// The kept totals of the boards (`directory_counts`, kept by migration 22's triggers): live
/// listings with a Domain Rating, with a monthly revenue, with a billboard contribution.
const RATED: &str = "rated";
const EARNING: &str = "earning";
const ON_BILLBOARD: &str = "on_billboard";
/// The name of a board's kept total read beside its page's rows.
const BOARD_TOTAL: &str = "board_total";

/// An award with its listing's card.
#[derive(Debug, sea_orm::FromQueryResult)]
struct AwardRow {
    #[sea_orm(nested)]
    summary: SummaryRow,
    week: time::Date,
    rank: i32,
    award_votes: i64,
}

/// `listings JOIN awards ON awards.listing_id = listings.id`.
fn awards_of_listing() -> sea_orm::RelationDef {
    listing::Entity::belongs_to(award::Entity).from(listing::Column::Id).to(award::Column::ListingId).into()
}

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
        let live = listing::Entity::find().filter(listing::Column::Status.eq("live"));
        let ranked = Ranked::highest_first(live, listing::Column::VotesCount, RankKind::Count, listing::Column::Id);
        Ok(Paged::new(ranked.cards(&self.db, &self.positions, page).await?, page, total))
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
        let (ranked, total) =
            self.metrics_board::<i32, Option<i32>>(M::DomainRating, RankKind::Int32, M::DomainRatingPrevious, RATED, page).await?;
        Ok(Paged::new(ranked, page, total))
    }

    async fn by_revenue(&self, page: PageRequest) -> Result<Paged<(ListingSummary, i64, bool)>, RepoError> {
        use listing_metric::Column as M;
        let (ranked, total) =
            self.metrics_board::<i64, bool>(M::MonthlyRevenueCents, RankKind::Count, M::RevenueVerified, EARNING, page).await?;
        Ok(Paged::new(ranked, page, total))
    }
}

impl SeaStore {
    /// One page of a board over `listing_metrics`: live listings with a `value`, highest first
    /// (then by id), each with its card, its value and the column the board shows `beside` it,
    /// and the board's kept total (`counted`, a name in `directory_counts`), in one statement:
    /// the page walks the board's index (migration 27) from its remembered position (or past
    /// the pages before it), its listings are joined to it, and the total is read once beside.
    async fn metrics_board<V, B>(
        &self,
        value: listing_metric::Column,
        kind: RankKind,
        beside: listing_metric::Column,
        counted: &'static str,
        page: PageRequest,
    ) -> Result<(Vec<(ListingSummary, V, B)>, u64), RepoError>
    where
        V: sea_orm::TryGetable,
        B: sea_orm::TryGetable,
    {
        use listing_metric::Column as M;
        let rated = listing_metric::Entity::find().filter(M::Live.eq(true)).filter(value.is_not_null());
        let ranked = Ranked { beside: Some(beside), ..Ranked::highest_first(rated, value, kind, M::ListingId) };
        // The name is one of this file's constants, written into the SQL: a page's rows carry no
        // values of their own (`positions::joined`).
        debug_assert!(counted.bytes().all(|b| b.is_ascii_lowercase() || b == b'_'));
        let total = Expr::cust(format!("(SELECT value FROM directory_counts WHERE name = '{counted}')"));
        let rows = ranked.read(&self.db, &self.positions, page, SummaryRow::select().expr_as(total, BOARD_TOTAL)).await?;
        let mut total = None;
        let items = rows
            .iter()
            .map(|row| {
                total = row.try_get::<Option<i64>>("", BOARD_TOTAL).map_err(repo_err)?.or(total);
                let summary = SummaryRow::from_query_result(row, "").map_err(repo_err)?.into_summary()?;
                let value = row.try_get::<V>("", PAGE_VALUE).map_err(repo_err)?;
                let beside = row.try_get::<B>("", PAGE_BESIDE).map_err(repo_err)?;
                Ok((summary, value, beside))
            })
            .collect::<Result<_, RepoError>>()?;
        // A page past the end has no row to carry the total.
        let total = match total {
            Some(total) => u64::try_from(total).unwrap_or(0),
            None => self.kept_count(counted).await?,
        };
        Ok((items, total))
    }
}

#[async_trait]
impl AwardRepository for SeaStore {
    async fn list(&self, listing: Option<ListingId>, page: PageRequest) -> Result<Paged<Award>, RepoError> {
        // The page's awards with their listings' cards and the count of all the awards listed,
        // in one statement.
        let mut query = SummaryRow::select()
            .join(JoinType::InnerJoin, awards_of_listing())
            .column_as(award::Column::Week, "week")
            .column_as(award::Column::Rank, "rank")
            .column_as(Expr::col((award::Entity, award::Column::Votes)), "award_votes");
        // Counted on the awards alone: every award has its listing (a foreign key that deletes
        // with it), and reading each listing's row to count them cost more than the page.
        let mut awards = award::Entity::find();
        if let Some(listing) = listing {
            query = query.filter(award::Column::ListingId.eq(listing.get()));
            awards = awards.filter(award::Column::ListingId.eq(listing.get()));
        }
        let query = query.order_by_desc(award::Column::Week).order_by_asc(award::Column::Rank).order_by_asc(award::Column::Id);
        let (rows, total) = counted_page_by(&self.db, query, count_of(awards), page).await?;
        let mut items = Vec::with_capacity(rows.len());
        for row in &rows {
            let row = AwardRow::from_query_result(row, "").map_err(repo_err)?;
            let Ok(rank) = u32::try_from(row.rank) else { continue };
            items.push(Award {
                week: Week::containing(row.week),
                rank,
                votes: u64::try_from(row.award_votes).unwrap_or(0),
                listing: row.summary.into_summary()?,
            });
        }
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
