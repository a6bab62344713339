//! `FounderRepository` over SeaORM.

use crate::entity::{founder, listing, listing_founder, listing_story};
use crate::lower_contains;
use crate::shared::positions::{Direction, RankKind, Ranked};
use crate::shared::rows::SummaryRow;
use crate::{SeaStore, repo_err};
use async_trait::async_trait;
use kernel::{CountryCode, PageRequest, Paged, RepoError, Slug};
use listings::{CompanyRef, FounderProfile, FounderRepository, FounderSummary, PublishedStory};
use sea_orm::sea_query::{Expr, ExprTrait, Query};
use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, JoinType, QueryFilter, QueryOrder, QuerySelect};
use std::collections::{BTreeMap, HashMap};
use time::OffsetDateTime;

/// A founder's company: its card, and what the founder's profile decides on beside it.
#[derive(Debug, sea_orm::FromQueryResult)]
struct CompanyRow {
    #[sea_orm(nested)]
    summary: SummaryRow,
    owner_user_id: Option<i64>,
    unlocked_sections: Option<serde_json::Value>,
    /// The founder's place among the company's founders (0: its primary founder).
    founder_position: i32,
}

/// `listings JOIN listing_founders ON listing_founders.listing_id = listings.id`.
fn founders_of_listing() -> sea_orm::RelationDef {
    listing::Entity::belongs_to(listing_founder::Entity).from(listing::Column::Id).to(listing_founder::Column::ListingId).into()
}

fn parse_country(raw: Option<&str>) -> Option<CountryCode> {
    raw.and_then(|code| CountryCode::parse(code).ok())
}

impl SeaStore {
    /// Live companies of these founders, in each founder's display order.
    async fn live_companies(&self, founder_ids: &[i64]) -> Result<HashMap<i64, Vec<CompanyRef>>, RepoError> {
        let statement = Query::select()
            .column((listing_founder::Entity, listing_founder::Column::FounderId))
            .column((listing::Entity, listing::Column::Slug))
            .column((listing::Entity, listing::Column::Name))
            .from(listing_founder::Entity)
            .inner_join(
                listing::Entity,
                Expr::col((listing::Entity, listing::Column::Id)).equals((listing_founder::Entity, listing_founder::Column::ListingId)),
            )
            .and_where(Expr::col((listing::Entity, listing::Column::Status)).eq("live"))
            .and_where(Expr::col((listing_founder::Entity, listing_founder::Column::FounderId)).is_in(founder_ids.iter().copied()))
            .order_by((listing_founder::Entity, listing_founder::Column::Position), sea_orm::Order::Asc)
            .order_by((listing::Entity, listing::Column::Id), sea_orm::Order::Asc)
            .to_owned();
        let rows = self.db.query_all(&statement).await.map_err(repo_err)?;
        let mut companies: HashMap<i64, Vec<CompanyRef>> = HashMap::new();
        for row in rows {
            let founder: i64 = row.try_get("", "founder_id").map_err(repo_err)?;
            let slug: String = row.try_get("", "slug").map_err(repo_err)?;
            let name: String = row.try_get("", "name").map_err(repo_err)?;
            companies.entry(founder).or_default().push(CompanyRef { slug: Slug::parse(&slug).map_err(RepoError::backend)?, name });
        }
        Ok(companies)
    }
}

#[async_trait]
impl FounderRepository for SeaStore {
    async fn list_behind_live(
        &self,
        name_words: &[String],
        country: Option<&CountryCode>,
        page: PageRequest,
        known_total: Option<u64>,
    ) -> Result<Paged<FounderSummary>, RepoError> {
        // `live_listings` is kept by triggers (migration 18); the partial index
        // `idx_founders_behind_live` (migration 26) holds just these founders by name, so a
        // page walks them (from the page's remembered position) and nothing else.
        // A literal, not a bound value: SQLite uses a partial index only when it can prove
        // the query's condition implies the index's.
        let mut query = founder::Entity::find().filter(Expr::cust("founders.live_listings > 0"));
        for word in name_words {
            query = query.filter(lower_contains(founder::Column::Name, word));
        }
        if let Some(country) = country {
            query = query.filter(founder::Column::Country.eq(country.as_str()));
        }
        let ranked = Ranked {
            base: query.clone(),
            by: founder::Column::Name,
            kind: RankKind::Text,
            direction: Direction::LowestFirst,
            id: founder::Column::Id,
            beside: None,
        };
        let rows = ranked.page_of::<founder::Model, _>(&self.db, &self.positions, page, founder::Entity::find()).await?;
        let total = match known_total {
            Some(total) => total,
            None => crate::shared::total_after(&self.db, query, page, rows.len()).await?,
        };
        let ids: Vec<i64> = rows.iter().map(|row| row.id).collect();
        let mut companies = self.live_companies(&ids).await?;
        let items = rows
            .into_iter()
            .map(|row| {
                Ok(FounderSummary {
                    slug: Slug::parse(&row.slug).map_err(RepoError::backend)?,
                    country: parse_country(row.country.as_deref()),
                    companies: companies.remove(&row.id).unwrap_or_default(),
                    name: row.name,
                    title: row.title,
                    avatar: crate::shared::rows::image_of(row.avatar.as_deref()),
                })
            })
            .collect::<Result<_, RepoError>>()?;
        Ok(Paged::new(items, page, total))
    }

    async fn profile(&self, slug: &Slug, now: OffsetDateTime) -> Result<Option<FounderProfile>, RepoError> {
        let Some(row) = founder::Entity::find().filter(founder::Column::Slug.eq(slug.as_str())).one(&self.db).await.map_err(repo_err)?
        else {
            return Ok(None);
        };
        // The founder's live companies as cards, with what the profile decides on beside each
        // (its owner, its paid sections, the founder's place on it), in one statement.
        let companies: Vec<CompanyRow> = SummaryRow::select()
            .columns([listing::Column::OwnerUserId, listing::Column::UnlockedSections])
            .column_as(Expr::col((listing_founder::Entity, listing_founder::Column::Position)), "founder_position")
            .join(JoinType::InnerJoin, founders_of_listing())
            .filter(listing_founder::Column::FounderId.eq(row.id))
            .filter(listing::Column::Status.eq("live"))
            .order_by_desc(listing::Column::VotesCount)
            .order_by_asc(listing::Column::Id)
            .into_model::<CompanyRow>()
            .all(&self.db)
            .await
            .map_err(repo_err)?;
        if companies.is_empty() {
            return Ok(None);
        }
        let names: HashMap<i64, CompanyRef> = companies
            .iter()
            .filter_map(|c| Slug::parse(&c.summary.slug).ok().map(|slug| (c.summary.id, CompanyRef { slug, name: c.summary.name.clone() })))
            .collect();
        // The story is a paid-only section: public only where the listing has it unlocked.
        let story_unlocked: Vec<i64> = companies
            .iter()
            .filter(|c| {
                c.unlocked_sections
                    .as_ref()
                    .and_then(|v| v.as_array())
                    .is_some_and(|sections| sections.iter().any(|s| s.as_str() == Some("story")))
            })
            .map(|c| c.summary.id)
            .collect();
        let stories = if story_unlocked.is_empty() {
            Vec::new()
        } else {
            listing_story::Entity::find()
                .filter(listing_story::Column::ListingId.is_in(story_unlocked))
                .filter(listing_story::Column::PublishedAt.lte(now))
                .order_by_desc(listing_story::Column::PublishedAt)
                .all(&self.db)
                .await
                .map_err(repo_err)?
                .into_iter()
                .filter_map(|story| {
                    Some(PublishedStory {
                        listing: names.get(&story.listing_id)?.clone(),
                        published_at: story.published_at?,
                        story: story.story(),
                    })
                })
                .collect()
        };
        let socials: BTreeMap<String, String> = serde_json::from_value(row.socials).map_err(RepoError::backend)?;
        // The interview is the account's that owns the earliest live listing this founder is
        // the primary founder of.
        let answering = companies.iter().filter(|c| c.founder_position == 0).min_by_key(|c| c.summary.id).and_then(|c| c.owner_user_id);
        let interview = match answering {
            Some(user) => crate::shared::queries::answers_of(&self.db, user).await?,
            None => Vec::new(),
        };
        Ok(Some(FounderProfile {
            slug: Slug::parse(&row.slug).map_err(RepoError::backend)?,
            name: row.name,
            title: row.title,
            bio: row.bio,
            country: parse_country(row.country.as_deref()),
            avatar: crate::shared::rows::image_of(row.avatar.as_deref()),
            socials,
            companies: companies.into_iter().map(|c| c.summary.into_summary()).collect::<Result<_, _>>()?,
            stories,
            interview,
        }))
    }
}
