//! `ProfileRepository` over SeaORM: one listing's whole profile, and batched view counts.

use crate::entity::{
    category, founder, listing, listing_category, listing_follow, listing_founder, listing_media, listing_metric, listing_milestone,
    listing_story, listing_update, review, user,
};
use crate::shared::rows::to_summary;
use crate::{SeaStore, repo_err, utc};
use async_trait::async_trait;
use kernel::{Faq, ListingId, RepoError, Slug};
use listings::{
    CommunityRating, CompanyRef, DomainRating, FounderCard, GenuineReviews, Link, ListingCategory, ListingProfile, ListingUpdate, Media,
    Milestone, ProfileRepository, Unlocked,
};
use sea_orm::sea_query::{Expr, ExprTrait, Query};
use sea_orm::{ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter, QueryOrder, QuerySelect, TransactionTrait};
use serde::de::DeserializeOwned;
use std::collections::{BTreeMap, HashMap};
use time::OffsetDateTime;

fn from_json<T: DeserializeOwned + Default>(value: Option<serde_json::Value>) -> Result<T, RepoError> {
    match value {
        None | Some(serde_json::Value::Null) => Ok(T::default()),
        Some(value) => serde_json::from_value(value).map_err(RepoError::backend),
    }
}

#[async_trait]
impl ProfileRepository for SeaStore {
    async fn profile(
        &self,
        slug: &Slug,
        now: OffsetDateTime,
        genuine: GenuineReviews,
        latest_updates: usize,
    ) -> Result<Option<ListingProfile>, RepoError> {
        let db = &self.db;
        let Some(row) = listing::Entity::find().filter(listing::Column::Slug.eq(slug.as_str())).one(db).await.map_err(repo_err)? else {
            return Ok(None);
        };
        let id = row.id;

        // Categories: the primary first, then the others by name.
        let links = listing_category::Entity::find().filter(listing_category::Column::ListingId.eq(id)).all(db).await.map_err(repo_err)?;
        let category_rows = category::Entity::find()
            .filter(category::Column::Id.is_in(links.iter().map(|l| l.category_id)))
            .all(db)
            .await
            .map_err(repo_err)?;
        let mut categories: Vec<ListingCategory> = category_rows
            .iter()
            .filter_map(|c| {
                let primary = links.iter().any(|l| l.category_id == c.id && l.is_primary);
                Some(ListingCategory { slug: Slug::parse(&c.slug).ok()?, name: c.name.clone(), primary })
            })
            .collect();
        categories.sort_by(|a, b| b.primary.cmp(&a.primary).then(a.name.cmp(&b.name)));
        let slugs: HashMap<i64, Slug> = category_rows.iter().filter_map(|c| Some((c.id, Slug::parse(&c.slug).ok()?))).collect();

        let founder_links = listing_founder::Entity::find()
            .filter(listing_founder::Column::ListingId.eq(id))
            .order_by_asc(listing_founder::Column::Position)
            .all(db)
            .await
            .map_err(repo_err)?;
        let founder_rows = founder::Entity::find()
            .filter(founder::Column::Id.is_in(founder_links.iter().map(|l| l.founder_id)))
            .all(db)
            .await
            .map_err(repo_err)?;
        let founders = founder_links
            .iter()
            .filter_map(|link| {
                let f = founder_rows.iter().find(|f| f.id == link.founder_id)?;
                Some(FounderCard { slug: Slug::parse(&f.slug).ok()?, name: f.name.clone(), title: f.title.clone() })
            })
            .collect();

        let latest = listing_update::Entity::find()
            .filter(listing_update::Column::ListingId.eq(id))
            .order_by_desc(listing_update::Column::CreatedAt)
            .order_by_desc(listing_update::Column::Id)
            .limit(latest_updates as u64)
            .all(db)
            .await
            .map_err(repo_err)?
            .into_iter()
            .map(|u| ListingUpdate { title: u.title, body: u.body, posted_at: u.created_at })
            .collect();

        // The rating counts the reviews `GenuineReviews` holds for, each of its conditions in
        // the query: not hidden, by a confirmed and unblocked author whose account was made by
        // `reviewers_made_by` (old enough at the time of this read, so a young account's review
        // starts counting by itself), not by an owner.
        let mut counted = review::Entity::find()
            .select_only()
            .column(review::Column::Rating)
            .column_as(Expr::col(review::Column::Id).count(), "reviews")
            .filter(review::Column::ListingId.eq(id))
            .filter(review::Column::Hidden.eq(false))
            // Correlated, so each review probes its author by primary key (an `IN` list of
            // every confirmed user would be built per request).
            .filter(Expr::exists(
                Query::select()
                    .expr(Expr::val(1))
                    .from(user::Entity)
                    .and_where(Expr::col((user::Entity, user::Column::Id)).equals((review::Entity, review::Column::UserId)))
                    .and_where(Expr::col((user::Entity, user::Column::Blocked)).eq(false))
                    .and_where(Expr::col((user::Entity, user::Column::EmailConfirmedAt)).is_not_null())
                    .and_where(Expr::col((user::Entity, user::Column::CreatedAt)).lte(utc(genuine.reviewers_made_by)))
                    .to_owned(),
            ))
            .group_by(review::Column::Rating);
        let owners = crate::shared::ownership::owners_of(db, std::slice::from_ref(&row)).await?.remove(&row.id).unwrap_or_default();
        if !owners.is_empty() {
            counted = counted.filter(review::Column::UserId.is_not_in(owners));
        }
        let mut distribution = [0u64; 5];
        for (rating, count) in counted.into_tuple::<(i16, i64)>().all(db).await.map_err(repo_err)? {
            if (1..=5).contains(&rating) {
                distribution[(rating - 1) as usize] = u64::try_from(count).unwrap_or(0);
            }
        }
        let count: u64 = distribution.iter().sum();
        let sum: u64 = distribution.iter().enumerate().map(|(i, n)| (i as u64 + 1) * n).sum();
        let rating =
            CommunityRating { average: (count > 0).then(|| (sum as f64 / count as f64 * 100.0).round() / 100.0), count, distribution };

        let metrics = listing_metric::Entity::find_by_id(id).one(db).await.map_err(repo_err)?;
        let domain_rating = metrics.as_ref().and_then(|m| {
            Some(DomainRating { value: m.domain_rating?, previous: m.domain_rating_previous, checked_at: m.domain_rating_checked_at })
        });
        let momentum = crate::shared::votes::momentum(db, id).await?;
        let followers =
            listing_follow::Entity::find().filter(listing_follow::Column::ListingId.eq(id)).count(db).await.map_err(repo_err)?;

        let unlocked_names: Vec<String> = from_json(row.unlocked_sections.clone())?;
        let unlocked = Unlocked {
            story: unlocked_names.iter().any(|s| s == "story"),
            milestones: unlocked_names.iter().any(|s| s == "milestones"),
            media: unlocked_names.iter().any(|s| s == "media"),
        };
        let company = CompanyRef { slug: slug.clone(), name: row.name.clone() };
        let story = if unlocked.story {
            listing_story::Entity::find_by_id(id)
                .filter(listing_story::Column::PublishedAt.lte(now))
                .one(db)
                .await
                .map_err(repo_err)?
                .map(|row| (row.story(), company))
        } else {
            None
        };
        let milestones = if unlocked.milestones {
            listing_milestone::Entity::find()
                .filter(listing_milestone::Column::ListingId.eq(id))
                .order_by_desc(listing_milestone::Column::Date)
                .order_by_desc(listing_milestone::Column::Id)
                .all(db)
                .await
                .map_err(repo_err)?
                .into_iter()
                .map(|m| Milestone { date: m.date, title: m.title, description: m.description, url: m.url })
                .collect()
        } else {
            Vec::new()
        };
        let media = if unlocked.media {
            listing_media::Entity::find()
                .filter(listing_media::Column::ListingId.eq(id))
                .order_by_asc(listing_media::Column::Position)
                .order_by_asc(listing_media::Column::Id)
                .all(db)
                .await
                .map_err(repo_err)?
                .into_iter()
                .map(|m| Media { kind: m.kind, url: m.url, caption: m.caption })
                .collect()
        } else {
            Vec::new()
        };

        let features: Vec<String> = from_json(row.features.clone())?;
        let usps: Vec<String> = from_json(row.usps.clone())?;
        let keywords: Vec<String> = from_json(row.keywords.clone())?;
        let faqs: Vec<Faq> = from_json(row.faqs.clone())?;
        let socials: BTreeMap<String, String> = from_json(row.socials.clone())?;
        let links: Vec<Link> = from_json(row.links.clone())?;
        let not_found_on_website: Vec<String> = from_json(row.not_found_on_website.clone())?;
        Ok(Some(ListingProfile {
            short_description: row.short_description.clone(),
            headline: row.headline.clone(),
            long_summary: row.summary.clone(),
            description: row.description.clone(),
            stage: row.stage.clone(),
            country: row.country.clone(),
            city: row.city.clone(),
            founded_year: row.founded_year,
            pricing_model: row.pricing_model.clone(),
            pricing_summary: row.pricing_summary.clone(),
            demo_video_url: row.demo_video_url.clone(),
            launched_at: row.launched_at,
            views: u64::try_from(row.views_count).unwrap_or(0),
            summary: to_summary(row, &slugs)?,
            features,
            usps,
            keywords,
            faqs,
            socials,
            links,
            categories,
            founders,
            latest_updates: latest,
            rating,
            momentum,
            domain_rating,
            not_found_on_website,
            followers,
            unlocked,
            story,
            milestones,
            media,
        }))
    }

    async fn add_views(&self, views: &[(ListingId, u64)]) -> Result<(), RepoError> {
        let txn = self.db.begin().await.map_err(repo_err)?;
        for (listing_id, count) in views {
            listing::Entity::update_many()
                .col_expr(
                    listing::Column::ViewsCount,
                    Expr::col(listing::Column::ViewsCount).add(i64::try_from(*count).unwrap_or(i64::MAX)),
                )
                .filter(listing::Column::Id.eq(listing_id.get()))
                .exec(&txn)
                .await
                .map_err(repo_err)?;
        }
        txn.commit().await.map_err(repo_err)
    }
}
