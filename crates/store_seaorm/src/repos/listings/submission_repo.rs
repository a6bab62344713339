//! `SubmittedListingRepository` over SeaORM: writes a submitted draft's listing, checked by the
//! listings domain, with its categories, founders, story and milestones in one transaction.

use crate::entity::{category, founder, listing, listing_category, listing_founder, listing_milestone, listing_story};
use crate::shared::rows::{copy_of, write_copy};
use crate::{SeaStore, repo_err};
use async_trait::async_trait;
use kernel::{ListingId, RepoError, Slug, UserId};
use listings::{CheckedSubmission, SubmittedListingRepository};
use sea_orm::sea_query::Expr;
use sea_orm::{ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, PaginatorTrait, QueryFilter, Set, TransactionTrait};
use time::OffsetDateTime;

fn json_list(items: &[String]) -> Option<serde_json::Value> {
    (!items.is_empty()).then(|| serde_json::json!(items))
}

/// Which table's slugs a new slug must not collide with.
#[derive(Clone, Copy)]
enum SlugOf {
    Listing,
    Founder,
}

/// The first free slug: `base`, `base-2`, `base-3`, ...
async fn free_slug<C: ConnectionTrait>(db: &C, base: &Slug, of: SlugOf) -> Result<String, RepoError> {
    for n in 1..1000 {
        let candidate = base.numbered(n);
        let taken = match of {
            SlugOf::Founder => {
                founder::Entity::find().filter(founder::Column::Slug.eq(candidate.as_str())).count(db).await.map_err(repo_err)?
            }
            SlugOf::Listing => {
                listing::Entity::find().filter(listing::Column::Slug.eq(candidate.as_str())).count(db).await.map_err(repo_err)?
            }
        };
        if taken == 0 {
            return Ok(candidate.as_str().to_owned());
        }
    }
    Err(RepoError::Duplicate(format!("no free slug for {}", base.as_str())))
}

#[async_trait]
impl SubmittedListingRepository for SeaStore {
    async fn save_submitted(
        &self,
        owner: UserId,
        existing: Option<ListingId>,
        submitted: &CheckedSubmission,
        now: OffsetDateTime,
    ) -> Result<ListingId, RepoError> {
        let now = now.to_offset(time::UtcOffset::UTC);
        let txn = self.db.begin().await.map_err(repo_err)?;
        // On SQLite a transaction that reads first and writes later cannot wait for another
        // writer (it fails busy at once); a write as its first statement takes the lock, waiting.
        listing::Entity::update_many()
            .col_expr(listing::Column::UpdatedAt, Expr::col(listing::Column::UpdatedAt))
            .filter(listing::Column::Id.eq(existing.map_or(0, ListingId::get)))
            .exec(&txn)
            .await
            .map_err(repo_err)?;
        let categories = category::Entity::find()
            .filter(category::Column::Slug.is_in(submitted.categories.clone()))
            .all(&txn)
            .await
            .map_err(repo_err)?;
        let category_ids: Vec<i64> =
            submitted.categories.iter().filter_map(|slug| categories.iter().find(|c| &c.slug == slug).map(|c| c.id)).collect();
        let mut copy = submitted.copy.clone();
        let mut row = match existing {
            Some(id) => match listing::Entity::find_by_id(id.get()).one(&txn).await.map_err(repo_err)? {
                Some(row) => {
                    // A draft has no headline or summary: the listing keeps its own.
                    let kept = copy_of(&row);
                    (copy.headline, copy.summary) = (kept.headline, kept.summary);
                    row.into()
                }
                None => return Err(RepoError::Backend(format!("listing {id} of a submitted draft is gone").into())),
            },
            None => listing::ActiveModel {
                slug: Set(free_slug(&txn, &submitted.slug, SlugOf::Listing).await?),
                status: Set("draft".into()),
                plan: Set(None),
                votes_count: Set(0),
                views_count: Set(0),
                owner_user_id: Set(Some(owner.get())),
                created_at: Set(now),
                launch_week: Set(None),
                launched_at: Set(None),
                links: Set(None),
                unlocked_sections: Set(None),
                ..Default::default()
            },
        };
        row.name = Set(submitted.name.clone());
        row.url = Set(submitted.url.to_string());
        row.domain = Set(submitted.url.site_domain().to_owned());
        row.logo_url = Set(submitted.logo_url.clone());
        row.primary_category_id = Set(category_ids.first().copied());
        row.stage = Set(submitted.stage.clone());
        row.tags = Set(json_list(&submitted.tags));
        row.not_found_on_website = Set(json_list(&submitted.not_found_on_website));
        write_copy(&mut row, &copy);
        // Search freshness depends on every write moving `updated_at`.
        row.updated_at = Set(now);
        let saved = row.save(&txn).await.map_err(repo_err)?;
        let listing_id = match saved.id {
            sea_orm::ActiveValue::Set(id) | sea_orm::ActiveValue::Unchanged(id) => id,
            sea_orm::ActiveValue::NotSet => return Err(RepoError::Backend("the saved listing has no id".into())),
        };

        listing_category::Entity::delete_many()
            .filter(listing_category::Column::ListingId.eq(listing_id))
            .exec(&txn)
            .await
            .map_err(repo_err)?;
        for (i, category_id) in category_ids.iter().enumerate() {
            listing_category::ActiveModel { listing_id: Set(listing_id), category_id: Set(*category_id), is_primary: Set(i == 0) }
                .insert(&txn)
                .await
                .map_err(repo_err)?;
        }

        // Founders of the draft replace the listing's founders.
        let old: Vec<i64> = listing_founder::Entity::find()
            .filter(listing_founder::Column::ListingId.eq(listing_id))
            .all(&txn)
            .await
            .map_err(repo_err)?
            .into_iter()
            .map(|link| link.founder_id)
            .collect();
        listing_founder::Entity::delete_many()
            .filter(listing_founder::Column::ListingId.eq(listing_id))
            .exec(&txn)
            .await
            .map_err(repo_err)?;
        for (position, (person, slug)) in submitted.founders.iter().enumerate() {
            let existing = founder::Entity::find()
                .filter(founder::Column::Id.is_in(old.clone()))
                .filter(founder::Column::Name.eq(&person.name))
                .one(&txn)
                .await
                .map_err(repo_err)?;
            let socials = if position == 0 { serde_json::json!(submitted.founder_socials) } else { serde_json::json!({}) };
            let founder_id = match existing {
                Some(found) => {
                    let id = found.id;
                    let mut found: founder::ActiveModel = found.into();
                    found.title = Set(person.title.clone());
                    found.bio = Set(person.bio.clone());
                    found.socials = Set(socials);
                    found.update(&txn).await.map_err(repo_err)?;
                    id
                }
                None => {
                    founder::ActiveModel {
                        slug: Set(free_slug(&txn, slug, SlugOf::Founder).await?),
                        name: Set(person.name.clone()),
                        title: Set(person.title.clone()),
                        bio: Set(person.bio.clone()),
                        country: Set(None),
                        avatar: Set(None),
                        socials: Set(socials),
                        created_at: Set(now),
                        ..Default::default()
                    }
                    .insert(&txn)
                    .await
                    .map_err(repo_err)?
                    .id
                }
            };
            listing_founder::ActiveModel {
                listing_id: Set(listing_id),
                founder_id: Set(founder_id),
                position: Set(i32::try_from(position).unwrap_or(0)),
            }
            .insert(&txn)
            .await
            .map_err(repo_err)?;
        }

        // The story is kept unpublished until the listing is published.
        listing_story::Entity::delete_many().filter(listing_story::Column::ListingId.eq(listing_id)).exec(&txn).await.map_err(repo_err)?;
        if !submitted.story.is_empty() {
            listing_story::row(listing_id, &submitted.story, None, now).insert(&txn).await.map_err(repo_err)?;
        }
        listing_milestone::Entity::delete_many()
            .filter(listing_milestone::Column::ListingId.eq(listing_id))
            .exec(&txn)
            .await
            .map_err(repo_err)?;
        for milestone in &submitted.milestones {
            listing_milestone::ActiveModel {
                listing_id: Set(listing_id),
                date: Set(milestone.date),
                title: Set(milestone.title.clone()),
                description: Set(milestone.description.clone()),
                url: Set(milestone.url.clone()),
                created_at: Set(now),
                ..Default::default()
            }
            .insert(&txn)
            .await
            .map_err(repo_err)?;
        }
        txn.commit().await.map_err(repo_err)?;
        Ok(ListingId::new(listing_id))
    }
}
