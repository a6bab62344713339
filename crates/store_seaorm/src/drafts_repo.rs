//! `DraftRepository`, `DraftCategories` and `ListingSink` over SeaORM.

use crate::entity::{
    category, draft, draft_invite, founder, job, listing, listing_category, listing_founder, listing_milestone, listing_story,
};
use crate::{SeaStore, repo_err};
use async_trait::async_trait;
use drafts::{CategoryRef, Draft, DraftCategories, DraftId, DraftRepository, InviteOutcome, ListingDraft, ListingSink, SiteSnapshot};
use kernel::{ListingId, NewJob, PageRequest, Paged, RepoError, UserId};
use sea_orm::sea_query::{Expr, ExprTrait};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, PaginatorTrait, QueryFilter, QueryOrder, QuerySelect, Set,
    TransactionTrait,
};
use time::OffsetDateTime;

fn to_draft(row: draft::Model) -> Result<(Draft, u64), RepoError> {
    let draft: Draft = serde_json::from_value(row.document).map_err(RepoError::backend)?;
    Ok((draft, u64::try_from(row.version).unwrap_or(0)))
}

pub(crate) fn job_row(job: &NewJob, now: OffsetDateTime) -> job::ActiveModel {
    job::ActiveModel {
        kind: Set(job.kind.clone()),
        payload: Set(job.payload.clone()),
        unique_key: Set(job.unique_key.clone()),
        state: Set("queued".into()),
        run_at: Set(job.run_at.to_offset(time::UtcOffset::UTC)),
        attempts: Set(0),
        max_attempts: Set(i32::try_from(job.max_attempts).unwrap_or(3)),
        locked_until: Set(None),
        locked_by: Set(None),
        last_error: Set(None),
        created_at: Set(now.to_offset(time::UtcOffset::UTC)),
        finished_at: Set(None),
        ..Default::default()
    }
}

fn document(draft: &Draft) -> Result<serde_json::Value, RepoError> {
    serde_json::to_value(draft).map_err(RepoError::backend)
}

#[async_trait]
impl DraftRepository for SeaStore {
    async fn insert(&self, draft: &Draft, job: &NewJob) -> Result<(), RepoError> {
        let txn = self.db.begin().await.map_err(repo_err)?;
        draft::ActiveModel {
            id: Set(draft.id.to_string()),
            owner_user_id: Set(draft.owner.get()),
            status: Set(draft.status.as_str().into()),
            document: Set(document(draft)?),
            snapshot: Set(None),
            version: Set(0),
            created_at: Set(draft.created_at.to_offset(time::UtcOffset::UTC)),
            updated_at: Set(draft.updated_at.to_offset(time::UtcOffset::UTC)),
        }
        .insert(&txn)
        .await
        .map_err(repo_err)?;
        job_row(job, draft.created_at).insert(&txn).await.map_err(repo_err)?;
        txn.commit().await.map_err(repo_err)
    }

    async fn get(&self, id: DraftId) -> Result<Option<(Draft, u64)>, RepoError> {
        let row = draft::Entity::find_by_id(id.to_string()).one(&self.db).await.map_err(repo_err)?;
        row.map(to_draft).transpose()
    }

    async fn list(&self, owner: UserId, page: PageRequest) -> Result<Paged<Draft>, RepoError> {
        let query = draft::Entity::find().filter(draft::Column::OwnerUserId.eq(owner.get()));
        let total = query.clone().count(&self.db).await.map_err(repo_err)?;
        let rows = query
            .order_by_desc(draft::Column::CreatedAt)
            .order_by_desc(draft::Column::Id)
            .offset(page.offset())
            .limit(u64::from(page.per_page()))
            .all(&self.db)
            .await
            .map_err(repo_err)?;
        let items = rows.into_iter().map(|row| to_draft(row).map(|(draft, _)| draft)).collect::<Result<Vec<_>, _>>()?;
        Ok(Paged::new(items, page, total))
    }

    async fn save(&self, draft: &Draft, version: u64, job: Option<&NewJob>) -> Result<bool, RepoError> {
        let txn = self.db.begin().await.map_err(repo_err)?;
        let version = i64::try_from(version).map_err(RepoError::backend)?;
        let updated = draft::Entity::update_many()
            .col_expr(draft::Column::Status, Expr::value(draft.status.as_str()))
            .col_expr(draft::Column::Document, Expr::value(document(draft)?))
            .col_expr(draft::Column::Version, Expr::col(draft::Column::Version).add(1))
            .col_expr(draft::Column::UpdatedAt, Expr::value(draft.updated_at.to_offset(time::UtcOffset::UTC)))
            .filter(draft::Column::Id.eq(draft.id.to_string()))
            .filter(draft::Column::Version.eq(version))
            .exec(&txn)
            .await
            .map_err(repo_err)?;
        if updated.rows_affected != 1 {
            txn.rollback().await.map_err(repo_err)?;
            return Ok(false);
        }
        if let Some(job) = job {
            job_row(job, draft.updated_at).insert(&txn).await.map_err(repo_err)?;
        }
        txn.commit().await.map_err(repo_err)?;
        Ok(true)
    }

    async fn save_snapshot(&self, id: DraftId, snapshot: &SiteSnapshot) -> Result<(), RepoError> {
        let value = serde_json::to_value(snapshot).map_err(RepoError::backend)?;
        draft::Entity::update_many()
            .col_expr(draft::Column::Snapshot, Expr::value(value))
            .filter(draft::Column::Id.eq(id.to_string()))
            .exec(&self.db)
            .await
            .map_err(repo_err)?;
        Ok(())
    }

    async fn snapshot(&self, id: DraftId) -> Result<Option<SiteSnapshot>, RepoError> {
        let row = draft::Entity::find_by_id(id.to_string()).one(&self.db).await.map_err(repo_err)?;
        match row.and_then(|row| row.snapshot) {
            Some(value) => serde_json::from_value(value).map(Some).map_err(RepoError::backend),
            None => Ok(None),
        }
    }

    async fn add_invite(
        &self,
        id: DraftId,
        email: &str,
        token_hash: &str,
        limit: u32,
        now: OffsetDateTime,
    ) -> Result<InviteOutcome, RepoError> {
        let txn = self.db.begin().await.map_err(repo_err)?;
        // Takes the write lock first (SQLite), so the count below cannot go stale.
        draft::Entity::update_many()
            .col_expr(draft::Column::Version, Expr::col(draft::Column::Version))
            .filter(draft::Column::Id.eq(id.to_string()))
            .exec(&txn)
            .await
            .map_err(repo_err)?;
        let invites = draft_invite::Entity::find().filter(draft_invite::Column::DraftId.eq(id.to_string()));
        let sent = invites.clone().count(&txn).await.map_err(repo_err)?;
        let taken = invites.filter(draft_invite::Column::Email.eq(email)).count(&txn).await.map_err(repo_err)?;
        if taken > 0 {
            return Ok(InviteOutcome::Duplicate);
        }
        if sent >= u64::from(limit) {
            return Ok(InviteOutcome::LimitReached);
        }
        let inserted = draft_invite::ActiveModel {
            draft_id: Set(id.to_string()),
            email: Set(email.to_owned()),
            token_hash: Set(token_hash.to_owned()),
            created_at: Set(now.to_offset(time::UtcOffset::UTC)),
            ..Default::default()
        }
        .insert(&txn)
        .await
        .map_err(repo_err);
        match inserted {
            Ok(_) => {
                txn.commit().await.map_err(repo_err)?;
                Ok(InviteOutcome::Added { sent: u32::try_from(sent + 1).unwrap_or(u32::MAX) })
            }
            // A concurrent request invited the same address first.
            Err(RepoError::Duplicate(_)) => Ok(InviteOutcome::Duplicate),
            Err(err) => Err(err),
        }
    }
}

#[async_trait]
impl DraftCategories for SeaStore {
    async fn all(&self) -> Result<Vec<CategoryRef>, RepoError> {
        let rows = category::Entity::find().order_by_asc(category::Column::Position).all(&self.db).await.map_err(repo_err)?;
        Ok(rows.into_iter().map(|row| CategoryRef { slug: row.slug, name: row.name }).collect())
    }
}

fn json_list(items: &[String]) -> Option<serde_json::Value> {
    (!items.is_empty()).then(|| serde_json::json!(items))
}

/// A slug for a new listing or founder: the name in lower case, words joined by `-`.
fn slugify(name: &str) -> String {
    let mut slug = String::new();
    for c in name.to_lowercase().chars() {
        if c.is_ascii_alphanumeric() {
            slug.push(c);
        } else if !slug.ends_with('-') && !slug.is_empty() {
            slug.push('-');
        }
    }
    let slug: String = slug.trim_matches('-').chars().take(200).collect();
    if slug.is_empty() { "listing".into() } else { slug }
}

/// The first free slug: `name`, `name-2`, `name-3`, ...
async fn free_slug<C: ConnectionTrait>(db: &C, base: &str, founders: bool) -> Result<String, RepoError> {
    for n in 1..1000 {
        let candidate = if n == 1 { base.to_owned() } else { format!("{base}-{n}") };
        let taken = if founders {
            founder::Entity::find().filter(founder::Column::Slug.eq(&candidate)).count(db).await.map_err(repo_err)?
        } else {
            listing::Entity::find().filter(listing::Column::Slug.eq(&candidate)).count(db).await.map_err(repo_err)?
        };
        if taken == 0 {
            return Ok(candidate);
        }
    }
    Err(RepoError::Duplicate(format!("no free slug for {base}")))
}

#[async_trait]
impl ListingSink for SeaStore {
    async fn save(
        &self,
        owner: UserId,
        existing: Option<ListingId>,
        draft: &ListingDraft,
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
        let categories =
            category::Entity::find().filter(category::Column::Slug.is_in(draft.categories.clone())).all(&txn).await.map_err(repo_err)?;
        let category_ids: Vec<i64> =
            draft.categories.iter().filter_map(|slug| categories.iter().find(|c| &c.slug == slug).map(|c| c.id)).collect();
        let mut row = match existing {
            Some(id) => match listing::Entity::find_by_id(id.get()).one(&txn).await.map_err(repo_err)? {
                Some(row) => row.into(),
                None => return Err(RepoError::Backend(format!("listing {id} of a submitted draft is gone").into())),
            },
            None => listing::ActiveModel {
                slug: Set(free_slug(&txn, &slugify(&draft.name), false).await?),
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
        row.name = Set(draft.name.clone());
        row.url = Set(draft.url.clone());
        row.domain = Set(draft.domain.clone());
        row.tagline = Set(draft.tagline.clone());
        row.short_description = Set(draft.short_description.clone());
        row.description = Set(draft.description.clone());
        row.logo_url = Set(draft.logo_url.clone());
        row.primary_category_id = Set(category_ids.first().copied());
        row.country = Set(draft.country.clone());
        row.city = Set(draft.city.clone());
        row.stage = Set(draft.stage.clone());
        row.pricing_model = Set(draft.pricing_model.clone());
        row.pricing_summary = Set(draft.pricing_summary.clone());
        row.founded_year = Set(draft.founded_year);
        row.features = Set(json_list(&draft.features));
        row.usps = Set(json_list(&draft.usps));
        row.keywords = Set(json_list(&draft.keywords));
        row.tags = Set(json_list(&draft.tags));
        row.faqs = Set((!draft.faqs.is_empty()).then(|| serde_json::json!(draft.faqs)));
        row.socials = Set((!draft.socials.is_empty()).then(|| serde_json::json!(draft.socials)));
        row.not_found_on_website = Set(json_list(&draft.not_found_on_website));
        row.demo_video_url = Set(draft.demo_video_url.clone());
        row.contact_email = Set(draft.contact_email.clone());
        row.seo_title = Set(draft.seo.title.clone());
        row.seo_description = Set(draft.seo.meta.clone());
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
        for (position, person) in draft.founders.iter().enumerate() {
            let existing = founder::Entity::find()
                .filter(founder::Column::Id.is_in(old.clone()))
                .filter(founder::Column::Name.eq(&person.name))
                .one(&txn)
                .await
                .map_err(repo_err)?;
            let socials = if position == 0 { serde_json::json!(draft.founder_socials) } else { serde_json::json!({}) };
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
                        slug: Set(free_slug(&txn, &slugify(&person.name), true).await?),
                        name: Set(person.name.clone()),
                        title: Set(person.title.clone()),
                        bio: Set(person.bio.clone()),
                        country: Set(None),
                        avatar_url: Set(None),
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
        if !draft.story.is_empty() {
            let story = &draft.story;
            listing_story::ActiveModel {
                listing_id: Set(listing_id),
                title: Set(story.title.clone()),
                story: Set(story.story.clone()),
                why_started: Set(story.why_started.clone()),
                problem: Set(story.problem.clone()),
                journey: Set(story.journey.clone()),
                challenges: Set(story.challenges.clone()),
                achievements: Set(story.achievements.clone()),
                lessons: Set(story.lessons.clone()),
                whats_next: Set(story.whats_next.clone()),
                published_at: Set(None),
                updated_at: Set(now),
            }
            .insert(&txn)
            .await
            .map_err(repo_err)?;
        }
        listing_milestone::Entity::delete_many()
            .filter(listing_milestone::Column::ListingId.eq(listing_id))
            .exec(&txn)
            .await
            .map_err(repo_err)?;
        for milestone in &draft.milestones {
            let format = time::macros::format_description!("[year]-[month]-[day]");
            let date = time::Date::parse(&milestone.date, format).map_err(RepoError::backend)?;
            listing_milestone::ActiveModel {
                listing_id: Set(listing_id),
                date: Set(date),
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
