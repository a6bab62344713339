//! Kept listing documents (migration 25): everything a listing's profile shows but its counters
//! (its row's profile columns and what it reads from other tables), built for many listings in
//! one batch of queries and stored as one JSON document per listing, with the revision it was
//! built at. The rules of a profile (which reviews count at `now`, which
//! paid sections show, a story only once published) are applied when the document is read, so
//! a document holds facts and stays true until one of its tables changes, which moves the
//! listing's revision on (triggers) and makes it due again.

use crate::entity::{
    category, founder, listing, listing_category, listing_document, listing_document_due, listing_founder, listing_metric,
    listing_milestone, listing_owner, listing_story, listing_update, review, user, vote,
};
use crate::repo_err;
use kernel::{Faq, ListingId, RepoError, Slug, Week};
use listings::{
    CommunityRating, CompanyRef, DomainRating, FounderCard, GalleryImage, GenuineReviews, LATEST_UPDATES, Link, ListingCategory,
    ListingProfile, ListingSummary, ListingUpdate, MOMENTUM_WEEKS, Milestone, ReviewFacts, ReviewerFacts, Unlocked, VoteMomentum,
};
use sea_orm::sea_query::{Expr, ExprTrait, OnConflict, Query};
use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, JoinType, QueryFilter, QueryOrder, QuerySelect};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};
use time::{Date, OffsetDateTime};

/// Everything a listing's profile shows but its counters (votes, views, followers), which are
/// read beside it from the listing's row: they change too often to rebuild a document for.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct ListingDocument {
    row: KeptRow,
    /// Each linked category with its id (the row names its primary by id).
    categories: Vec<(i64, ListingCategory)>,
    founders: Vec<FounderCard>,
    /// Newest first, at most `LATEST_UPDATES`.
    updates: Vec<ListingUpdate>,
    reviews: Vec<KeptReview>,
    /// Owners by claim (the submitter is on the row).
    claim_owners: Vec<i64>,
    domain_rating: Option<DomainRating>,
    momentum: VoteMomentum,
    story: Option<KeptStory>,
    milestones: Vec<Milestone>,
}

/// The profile's columns of the listing's own row (migration 25's trigger on `listings`
/// watches exactly these), the JSON ones read into their types once, when built.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct KeptRow {
    id: i64,
    slug: Slug,
    name: String,
    url: String,
    status: String,
    tagline: Option<String>,
    #[serde(default)]
    logo: Option<kernel::ImageRef>,
    #[serde(default)]
    gallery: Vec<GalleryImage>,
    primary_category_id: Option<i64>,
    launch_week: Option<Date>,
    launched_at: Option<OffsetDateTime>,
    owner_user_id: Option<i64>,
    short_description: Option<String>,
    headline: Option<String>,
    summary: Option<String>,
    description: Option<String>,
    stage: Option<String>,
    country: Option<String>,
    city: Option<String>,
    founded_year: Option<i32>,
    pricing_model: Option<String>,
    pricing_summary: Option<String>,
    demo_video_url: Option<String>,
    features: Vec<String>,
    usps: Vec<String>,
    keywords: Vec<String>,
    faqs: Vec<Faq>,
    socials: BTreeMap<String, String>,
    links: Vec<Link>,
    not_found_on_website: Vec<String>,
    unlocked: Unlocked,
}

impl KeptRow {
    fn of(row: &listing::Model) -> Result<Self, RepoError> {
        let unlocked_names: Vec<String> = from_json(row.unlocked_sections.clone())?;
        Ok(Self {
            id: row.id,
            slug: Slug::parse(&row.slug).map_err(RepoError::backend)?,
            name: row.name.clone(),
            url: row.url.clone(),
            status: row.status.clone(),
            tagline: row.tagline.clone(),
            logo: crate::shared::rows::image_of(row.logo.as_deref()),
            gallery: crate::shared::rows::gallery_of(row.gallery.as_ref()),
            primary_category_id: row.primary_category_id,
            launch_week: row.launch_week,
            launched_at: row.launched_at,
            owner_user_id: row.owner_user_id,
            short_description: row.short_description.clone(),
            headline: row.headline.clone(),
            summary: row.summary.clone(),
            description: row.description.clone(),
            stage: row.stage.clone(),
            country: row.country.clone(),
            city: row.city.clone(),
            founded_year: row.founded_year,
            pricing_model: row.pricing_model.clone(),
            pricing_summary: row.pricing_summary.clone(),
            demo_video_url: row.demo_video_url.clone(),
            features: from_json(row.features.clone())?,
            usps: from_json(row.usps.clone())?,
            keywords: from_json(row.keywords.clone())?,
            faqs: from_json(row.faqs.clone())?,
            socials: from_json(row.socials.clone())?,
            links: from_json(row.links.clone())?,
            not_found_on_website: from_json(row.not_found_on_website.clone())?,
            unlocked: Unlocked {
                story: unlocked_names.iter().any(|s| s == "story"),
                milestones: unlocked_names.iter().any(|s| s == "milestones"),
                media: unlocked_names.iter().any(|s| s == "media"),
            },
        })
    }
}

/// What changes too often to keep in a document, read from the listing's row beside it.
#[derive(Debug, Clone, Copy, sea_orm::FromQueryResult)]
pub(crate) struct Counters {
    pub votes_count: i64,
    pub views_count: i64,
    pub follows_count: i64,
}

impl Counters {
    pub(crate) fn of(row: &listing::Model) -> Self {
        Self { votes_count: row.votes_count, views_count: row.views_count, follows_count: row.follows_count }
    }
}

/// A review's rating and the facts `GenuineReviews` decides on, but whether its author owns the
/// listing (the row's owner may change without touching the document).
#[derive(Debug, Clone, Serialize, Deserialize)]
struct KeptReview {
    rating: i16,
    user_id: i64,
    hidden: bool,
    /// `None` when the author's account is gone.
    author: Option<ReviewerFacts>,
}

/// A review read with its author (left joined: `None`s when the account is gone): listing, rating,
/// author, hidden, blocked, e-mail confirmed at, account made at.
type ReviewRow = (i64, i16, i64, bool, Option<bool>, Option<OffsetDateTime>, Option<OffsetDateTime>);

#[derive(Debug, Clone, Serialize, Deserialize)]
struct KeptStory {
    story: kernel::Story,
    published_at: Option<OffsetDateTime>,
}

/// The documents of `rows`, by listing id: nine queries whatever the number of listings. They
/// are of one moment when the listings' revisions, read before the rows, have not moved by the
/// end (every write moves its listing's revision in its own transaction): `build_due` stores a
/// document only then, and the profile read checks the same way.
pub(crate) async fn build(db: &impl ConnectionTrait, rows: &[listing::Model]) -> Result<HashMap<i64, ListingDocument>, RepoError> {
    let ids: Vec<i64> = rows.iter().map(|row| row.id).collect();
    let mut documents = HashMap::with_capacity(rows.len());
    for row in rows {
        documents.insert(
            row.id,
            ListingDocument {
                row: KeptRow::of(row)?,
                categories: Vec::new(),
                founders: Vec::new(),
                updates: Vec::new(),
                reviews: Vec::new(),
                claim_owners: Vec::new(),
                domain_rating: None,
                momentum: VoteMomentum::default(),
                story: None,
                milestones: Vec::new(),
            },
        );
    }
    if ids.is_empty() {
        return Ok(documents);
    }
    // Categories (the primary first, then the others by name, sorted at the end) and founders,
    // each link read with what it links to.
    let categories: Vec<(listing_category::Model, Option<category::Model>)> = listing_category::Entity::find()
        .filter(listing_category::Column::ListingId.is_in(ids.clone()))
        .join(
            JoinType::LeftJoin,
            listing_category::Entity::belongs_to(category::Entity)
                .from(listing_category::Column::CategoryId)
                .to(category::Column::Id)
                .into(),
        )
        .select_also(category::Entity)
        .all(db)
        .await
        .map_err(repo_err)?;
    for (link, row) in categories {
        let (Some(doc), Some(row)) = (documents.get_mut(&link.listing_id), row) else { continue };
        let Ok(slug) = Slug::parse(&row.slug) else { continue };
        doc.categories.push((row.id, ListingCategory { slug, name: row.name, primary: link.is_primary }));
    }
    let founders: Vec<(listing_founder::Model, Option<founder::Model>)> = listing_founder::Entity::find()
        .filter(listing_founder::Column::ListingId.is_in(ids.clone()))
        .join(
            JoinType::LeftJoin,
            listing_founder::Entity::belongs_to(founder::Entity).from(listing_founder::Column::FounderId).to(founder::Column::Id).into(),
        )
        .select_also(founder::Entity)
        .order_by_asc(listing_founder::Column::ListingId)
        .order_by_asc(listing_founder::Column::Position)
        .all(db)
        .await
        .map_err(repo_err)?;
    for (link, row) in founders {
        let (Some(doc), Some(row)) = (documents.get_mut(&link.listing_id), row) else { continue };
        let Ok(slug) = Slug::parse(&row.slug) else { continue };
        let avatar = crate::shared::rows::image_of(row.avatar.as_deref());
        doc.founders.push(FounderCard { slug, name: row.name, title: row.title, avatar });
    }

    // Updates newest first; a listing keeps its newest `LATEST_UPDATES`.
    let updates = listing_update::Entity::find()
        .filter(listing_update::Column::ListingId.is_in(ids.clone()))
        .order_by_asc(listing_update::Column::ListingId)
        .order_by_desc(listing_update::Column::CreatedAt)
        .order_by_desc(listing_update::Column::Id)
        .all(db)
        .await
        .map_err(repo_err)?;
    for update in updates {
        let Some(doc) = documents.get_mut(&update.listing_id) else { continue };
        if doc.updates.len() < LATEST_UPDATES {
            doc.updates.push(ListingUpdate { title: update.title, body: update.body, posted_at: update.created_at });
        }
    }

    // Reviews with what decides whether they count.
    let reviews: Vec<ReviewRow> = review::Entity::find()
        .select_only()
        .column(review::Column::ListingId)
        .column(review::Column::Rating)
        .column(review::Column::UserId)
        .column(review::Column::Hidden)
        .column_as(Expr::col((user::Entity, user::Column::Blocked)), "blocked")
        .column_as(Expr::col((user::Entity, user::Column::EmailConfirmedAt)), "confirmed_at")
        .column_as(Expr::col((user::Entity, user::Column::CreatedAt)), "made_at")
        .join(JoinType::LeftJoin, review::Entity::belongs_to(user::Entity).from(review::Column::UserId).to(user::Column::Id).into())
        .filter(review::Column::ListingId.is_in(ids.clone()))
        .into_tuple()
        .all(db)
        .await
        .map_err(repo_err)?;
    for (listing_id, rating, user_id, hidden, blocked, confirmed_at, made_at) in reviews {
        let Some(doc) = documents.get_mut(&listing_id) else { continue };
        let author = match (blocked, made_at) {
            (Some(blocked), Some(created_at)) => Some(ReviewerFacts { email_confirmed: confirmed_at.is_some(), blocked, created_at }),
            _ => None,
        };
        doc.reviews.push(KeptReview { rating, user_id, hidden, author });
    }

    for owner in
        listing_owner::Entity::find().filter(listing_owner::Column::ListingId.is_in(ids.clone())).all(db).await.map_err(repo_err)?
    {
        if let Some(doc) = documents.get_mut(&owner.listing_id) {
            doc.claim_owners.push(owner.user_id);
        }
    }

    for metrics in
        listing_metric::Entity::find().filter(listing_metric::Column::ListingId.is_in(ids.clone())).all(db).await.map_err(repo_err)?
    {
        if let Some(doc) = documents.get_mut(&metrics.listing_id) {
            doc.domain_rating = metrics.domain_rating.map(|value| DomainRating {
                value,
                previous: metrics.domain_rating_previous,
                checked_at: metrics.domain_rating_checked_at,
            });
        }
    }

    // Counted votes per launch week, newest week first (`idx_votes_listing_momentum`).
    let weeks: Vec<(i64, Date, i64, OffsetDateTime, OffsetDateTime)> = vote::Entity::find()
        .select_only()
        .column(vote::Column::ListingId)
        .column(vote::Column::LaunchWeek)
        .column_as(Expr::col(vote::Column::Id).count(), "votes")
        .column_as(Expr::col(vote::Column::CreatedAt).min(), "first")
        .column_as(Expr::col(vote::Column::CreatedAt).max(), "last")
        .filter(vote::Column::ListingId.is_in(ids.clone()))
        .filter(vote::Column::Counted.eq(true))
        .group_by(vote::Column::ListingId)
        .group_by(vote::Column::LaunchWeek)
        .order_by_asc(vote::Column::ListingId)
        .order_by_desc(vote::Column::LaunchWeek)
        .into_tuple()
        .all(db)
        .await
        .map_err(repo_err)?;
    for (listing_id, monday, votes, first, last) in weeks {
        let Some(doc) = documents.get_mut(&listing_id) else { continue };
        let momentum = &mut doc.momentum;
        momentum.first_vote_at = Some(momentum.first_vote_at.map_or(first, |seen| Ord::min(seen, first)));
        momentum.last_vote_at = Some(momentum.last_vote_at.map_or(last, |seen| Ord::max(seen, last)));
        if momentum.by_week.len() < MOMENTUM_WEEKS {
            momentum.by_week.push((Week::containing(monday), u64::try_from(votes).unwrap_or(0)));
        }
    }

    for story in
        listing_story::Entity::find().filter(listing_story::Column::ListingId.is_in(ids.clone())).all(db).await.map_err(repo_err)?
    {
        if let Some(doc) = documents.get_mut(&story.listing_id) {
            let published_at = story.published_at;
            doc.story = Some(KeptStory { story: story.story(), published_at });
        }
    }

    let milestones = listing_milestone::Entity::find()
        .filter(listing_milestone::Column::ListingId.is_in(ids.clone()))
        .order_by_asc(listing_milestone::Column::ListingId)
        .order_by_desc(listing_milestone::Column::Date)
        .order_by_desc(listing_milestone::Column::Id)
        .all(db)
        .await
        .map_err(repo_err)?;
    for m in milestones {
        if let Some(doc) = documents.get_mut(&m.listing_id) {
            doc.milestones.push(Milestone { date: m.date, title: m.title, description: m.description, url: m.url });
        }
    }

    for doc in documents.values_mut() {
        doc.categories.sort_by(|(_, a), (_, b)| b.primary.cmp(&a.primary).then(a.name.cmp(&b.name)));
    }
    Ok(documents)
}

fn from_json<T: DeserializeOwned + Default>(value: Option<serde_json::Value>) -> Result<T, RepoError> {
    match value {
        None | Some(serde_json::Value::Null) => Ok(T::default()),
        Some(value) => serde_json::from_value(value).map_err(RepoError::backend),
    }
}

/// The profile of a listing from its document and its counters, as it reads at `now`: the
/// rating counts the reviews `genuine` holds for, and paid-only sections show only where unlocked.
pub(crate) fn profile(
    doc: ListingDocument,
    counters: Counters,
    now: OffsetDateTime,
    genuine: GenuineReviews,
    latest_updates: usize,
) -> Result<ListingProfile, RepoError> {
    let row = doc.row;
    let owners: Vec<i64> = row.owner_user_id.into_iter().chain(doc.claim_owners.iter().copied()).collect();
    let mut distribution = [0u64; 5];
    for review in &doc.reviews {
        let facts = ReviewFacts { hidden: review.hidden, by_an_owner: owners.contains(&review.user_id), author: review.author };
        if genuine.holds(&facts) && (1..=5).contains(&review.rating) {
            distribution[(review.rating - 1) as usize] += 1;
        }
    }
    let count: u64 = distribution.iter().sum();
    let sum: u64 = distribution.iter().enumerate().map(|(i, n)| (i as u64 + 1) * n).sum();
    let rating = CommunityRating { average: (count > 0).then(|| (sum as f64 / count as f64 * 100.0).round() / 100.0), count, distribution };
    let unlocked = row.unlocked;
    let story = doc
        .story
        .filter(|kept| unlocked.story && kept.published_at.is_some_and(|at| at <= now))
        .map(|kept| (kept.story, CompanyRef { slug: row.slug.clone(), name: row.name.clone() }));
    let primary_category =
        row.primary_category_id.and_then(|id| doc.categories.iter().find(|(category, _)| *category == id)).map(|(_, c)| c.slug.clone());
    Ok(ListingProfile {
        summary: ListingSummary {
            id: ListingId::new(row.id),
            slug: row.slug,
            name: row.name,
            url: row.url,
            tagline: row.tagline,
            logo: row.logo,
            votes: u64::try_from(counters.votes_count).unwrap_or(0),
            primary_category,
            launch_week: row.launch_week.map(Week::containing),
            status: crate::listing_status(&row.status)?,
        },
        short_description: row.short_description,
        headline: row.headline,
        long_summary: row.summary,
        description: row.description,
        stage: row.stage,
        country: row.country,
        city: row.city,
        founded_year: row.founded_year,
        pricing_model: row.pricing_model,
        pricing_summary: row.pricing_summary,
        demo_video_url: row.demo_video_url,
        launched_at: row.launched_at,
        views: u64::try_from(counters.views_count).unwrap_or(0),
        followers: u64::try_from(counters.follows_count).unwrap_or(0),
        features: row.features,
        usps: row.usps,
        keywords: row.keywords,
        faqs: row.faqs,
        socials: row.socials,
        links: row.links,
        categories: doc.categories.into_iter().map(|(_, category)| category).collect(),
        founders: doc.founders,
        latest_updates: doc.updates.into_iter().take(latest_updates).collect(),
        rating,
        momentum: doc.momentum,
        domain_rating: doc.domain_rating,
        not_found_on_website: row.not_found_on_website,
        unlocked,
        story,
        milestones: if unlocked.milestones { doc.milestones } else { Vec::new() },
        // Kept whatever is unlocked: its owner manages it; the public answer and page show it
        // only where the media section is unlocked.
        gallery: row.gallery,
    })
}

/// A stored document (`body`, built at `built_revision`), when it was built at its listing's
/// current `revision` and still reads.
pub(crate) fn current(listing_id: i64, revision: i64, built_revision: Option<i64>, body: Option<&str>) -> Option<ListingDocument> {
    let body = body.filter(|_| built_revision == Some(revision))?;
    match serde_json::from_str(body) {
        Ok(document) => Some(document),
        Err(err) => {
            // Written by another version of this code: read the parts; it is built again once
            // one of them changes.
            tracing::debug!(listing = listing_id, error = %err, "a kept listing document does not read; reading its parts");
            None
        }
    }
}

/// How many due listings one round of `build_due` takes.
pub(crate) const DUE_BATCH: u64 = 200;

/// Builds the documents of up to `DUE_BATCH` due listings: reads their revisions, then them,
/// then stores each document only if its listing's revision is still the one it was read at (the row lock of that revision orders this against a writer's trigger), and takes
/// it off the due list in the same case. A listing whose revision moved on stays due for the next
/// round; one deleted meanwhile loses its document and its place. Returns how many were due.
pub(crate) async fn build_due(db: &sea_orm::DatabaseConnection) -> Result<usize, RepoError> {
    let due: Vec<i64> = listing_document_due::Entity::find()
        .select_only()
        .column(listing_document_due::Column::ListingId)
        .order_by_asc(listing_document_due::Column::ListingId)
        .limit(DUE_BATCH)
        .into_tuple()
        .all(db)
        .await
        .map_err(repo_err)?;
    if due.is_empty() {
        return Ok(0);
    }
    // The revisions first: a write committed after this moves its listing's revision on, and
    // the document read across it is then not stored (below).
    let revisions = revisions_of(db, &due).await?;
    let rows = listing::Entity::find().filter(listing::Column::Id.is_in(due.clone())).all(db).await.map_err(repo_err)?;
    let documents = build(db, &rows).await?;

    // Two statements, no transaction: a task stopped between them (or between rounds) leaves
    // nothing open; a document stored but still listed as due is only built once more.
    let mut store = Query::insert()
        .into_table(listing_document::Entity)
        .columns([
            listing_document::Column::ListingId,
            listing_document::Column::Revision,
            listing_document::Column::BuiltRevision,
            listing_document::Column::Body,
        ])
        .on_conflict(
            OnConflict::column(listing_document::Column::ListingId)
                .update_columns([listing_document::Column::BuiltRevision, listing_document::Column::Body])
                .action_and_where(
                    Expr::col((listing_document::Entity, listing_document::Column::Revision))
                        .eq(Expr::col((sea_orm::sea_query::Alias::new("excluded"), listing_document::Column::Revision))),
                )
                .to_owned(),
        )
        .to_owned();
    let mut stored = 0;
    for row in &rows {
        let Some(document) = documents.get(&row.id) else { continue };
        let revision = revisions.get(&row.id).copied().unwrap_or(0);
        let body = serde_json::to_string(document).map_err(RepoError::backend)?;
        store.values_panic([row.id.into(), revision.into(), revision.into(), body.into()]);
        stored += 1;
    }
    if stored > 0 {
        db.execute(&store).await.map_err(repo_err)?;
    }
    // Off the due list: the listings whose document is now current.
    listing_document_due::Entity::delete_many()
        .filter(
            listing_document_due::Column::ListingId.in_subquery(
                Query::select()
                    .column(listing_document::Column::ListingId)
                    .from(listing_document::Entity)
                    .and_where(listing_document::Column::ListingId.is_in(due.iter().copied()))
                    .and_where(Expr::col(listing_document::Column::BuiltRevision).equals(listing_document::Column::Revision))
                    .to_owned(),
            ),
        )
        .exec(db)
        .await
        .map_err(repo_err)?;
    // Listings deleted since they were due: nothing to build, nothing to keep.
    let gone: Vec<i64> = due.iter().copied().filter(|id| !rows.iter().any(|row| row.id == *id)).collect();
    if !gone.is_empty() {
        listing_document::Entity::delete_many()
            .filter(listing_document::Column::ListingId.is_in(gone.clone()))
            .exec(db)
            .await
            .map_err(repo_err)?;
        listing_document_due::Entity::delete_many()
            .filter(listing_document_due::Column::ListingId.is_in(gone))
            .exec(db)
            .await
            .map_err(repo_err)?;
    }
    Ok(due.len())
}

/// The current revision of each of `listings` (0 for one no write has touched yet).
pub(crate) async fn revisions_of(db: &impl ConnectionTrait, listings: &[i64]) -> Result<HashMap<i64, i64>, RepoError> {
    let kept: Vec<(i64, i64)> = listing_document::Entity::find()
        .select_only()
        .column(listing_document::Column::ListingId)
        .column(listing_document::Column::Revision)
        .filter(listing_document::Column::ListingId.is_in(listings.iter().copied()))
        .into_tuple()
        .all(db)
        .await
        .map_err(repo_err)?;
    Ok(kept.into_iter().collect())
}
