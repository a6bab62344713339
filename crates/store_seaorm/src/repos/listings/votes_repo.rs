//! `VoteRepository` over SeaORM: a vote and `listings.votes_count` change in one transaction;
//! the unique key on (listing, user) makes a double click or two tabs one vote.

use crate::entity::{listing, user, vote};
use crate::shared::votes::{add_to_count, open_listing};
use crate::{SeaStore, repo_err, utc};
use async_trait::async_trait;
use kernel::{RepoError, Slug, UserId};
use listings::{NewVote, VoteRecord, VoteRepository, VoteState};
use sea_orm::sea_query::Expr;
use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect, Set, TransactionTrait, TryInsertResult};
use std::collections::{HashMap, HashSet};
use time::{Duration, OffsetDateTime};

/// The most votes `suspicious` reads: a review list, not an export.
const SUSPICIOUS_SCAN: u64 = 50_000;

/// The voter's view after a change: their vote (if any) and the listing's counted votes.
async fn state(db: &impl ConnectionTrait, listing_id: i64, user: UserId) -> Result<VoteState, RepoError> {
    let mine = vote::Entity::find()
        .filter(vote::Column::ListingId.eq(listing_id))
        .filter(vote::Column::UserId.eq(user.get()))
        .one(db)
        .await
        .map_err(repo_err)?;
    let votes: Option<i64> = listing::Entity::find_by_id(listing_id)
        .select_only()
        .column(listing::Column::VotesCount)
        .into_tuple()
        .one(db)
        .await
        .map_err(repo_err)?;
    Ok(VoteState {
        voted: mine.is_some(),
        votes: votes.map_or(0, |votes| u64::try_from(votes).unwrap_or(0)),
        counted: mine.is_some_and(|vote| vote.counted),
    })
}

#[async_trait]
impl VoteRepository for SeaStore {
    async fn cast(&self, slug: &Slug, new: NewVote) -> Result<Option<VoteState>, RepoError> {
        // Read before the transaction, which then opens with a write: SQLite cannot turn a
        // reading transaction into a writing one while another writer waits.
        let Some(listing) = open_listing(&self.db, slug).await? else { return Ok(None) };
        let txn = self.db.begin().await.map_err(repo_err)?;
        let row = vote::ActiveModel {
            listing_id: Set(listing.id),
            user_id: Set(new.user.get()),
            created_at: Set(utc(new.at)),
            counted: Set(new.counted),
            client_network: Set(Some(new.network)),
            discounted_at: Set(None),
            launch_week: Set(new.week.monday()),
            ..Default::default()
        };
        let inserted = vote::Entity::insert(row)
            .on_conflict_do_nothing_on([vote::Column::ListingId, vote::Column::UserId])
            .exec(&txn)
            .await
            .map_err(repo_err)?;
        let adds_one = match inserted {
            TryInsertResult::Inserted(_) => new.counted,
            // Voted before, while the account was young: a vote now, from an account old enough,
            // makes that vote count (a discounted vote stays discounted).
            _ if new.counted => {
                vote::Entity::update_many()
                    .col_expr(vote::Column::Counted, Expr::value(true))
                    .filter(vote::Column::ListingId.eq(listing.id))
                    .filter(vote::Column::UserId.eq(new.user.get()))
                    .filter(vote::Column::Counted.eq(false))
                    .filter(vote::Column::DiscountedAt.is_null())
                    .exec(&txn)
                    .await
                    .map_err(repo_err)?
                    .rows_affected
                    == 1
            }
            _ => false,
        };
        if adds_one {
            add_to_count(&txn, listing.id, 1).await?;
        }
        let state = state(&txn, listing.id, new.user).await?;
        txn.commit().await.map_err(repo_err)?;
        Ok(Some(state))
    }

    async fn withdraw(&self, slug: &Slug, user: UserId) -> Result<Option<VoteState>, RepoError> {
        let Some(listing) = open_listing(&self.db, slug).await? else { return Ok(None) };
        let txn = self.db.begin().await.map_err(repo_err)?;
        let mine =
            || vote::Entity::delete_many().filter(vote::Column::ListingId.eq(listing.id)).filter(vote::Column::UserId.eq(user.get()));
        // A counted vote is deleted by a statement that only matches counted votes, so the count
        // drops exactly when a counted vote went (a discount at the same moment cannot make it
        // drop twice); an uncounted one is then deleted without touching the count.
        let counted = mine().filter(vote::Column::Counted.eq(true)).exec(&txn).await.map_err(repo_err)?.rows_affected;
        if counted == 1 {
            add_to_count(&txn, listing.id, -1).await?;
        } else {
            mine().exec(&txn).await.map_err(repo_err)?;
        }
        let state = state(&txn, listing.id, user).await?;
        txn.commit().await.map_err(repo_err)?;
        Ok(Some(state))
    }

    async fn voted_among(&self, user: UserId, slugs: &[Slug]) -> Result<HashSet<Slug>, RepoError> {
        let rows: Vec<String> = vote::Entity::find()
            .select_only()
            .column(listing::Column::Slug)
            .inner_join(listing::Entity)
            .filter(vote::Column::UserId.eq(user.get()))
            .filter(listing::Column::Slug.is_in(slugs.iter().map(Slug::as_str)))
            .into_tuple()
            .all(&self.db)
            .await
            .map_err(repo_err)?;
        rows.iter().map(|raw| Slug::parse(raw).map_err(RepoError::backend)).collect()
    }

    async fn suspicious(&self, since: OffsetDateTime, burst: u32, window: Duration) -> Result<Vec<VoteRecord>, RepoError> {
        let rows: Vec<(vote::Model, Option<listing::Model>)> = vote::Entity::find()
            .find_also_related(listing::Entity)
            .filter(vote::Column::CreatedAt.gte(utc(since)))
            .order_by_desc(vote::Column::CreatedAt)
            .limit(SUSPICIOUS_SCAN)
            .all(&self.db)
            .await
            .map_err(repo_err)?;
        let user_ids: HashSet<i64> = rows.iter().map(|(vote, _)| vote.user_id).collect();
        let user_ids: Vec<i64> = user_ids.into_iter().collect();
        let mut created: HashMap<i64, OffsetDateTime> = HashMap::new();
        // In chunks: SQLite binds at most 32,766 values in one statement.
        for chunk in user_ids.chunks(1000) {
            let users = user::Entity::find().filter(user::Column::Id.is_in(chunk.iter().copied())).all(&self.db).await.map_err(repo_err)?;
            created.extend(users.into_iter().map(|user| (user.id, user.created_at)));
        }
        let mut records = Vec::new();
        for (vote, listing) in rows {
            let Some(listing) = listing else { continue };
            records.push(VoteRecord {
                id: vote.id,
                listing: Slug::parse(&listing.slug).map_err(RepoError::backend)?,
                user: UserId::new(vote.user_id),
                account_created_at: created.get(&vote.user_id).copied().unwrap_or(vote.created_at),
                at: vote.created_at,
                network: vote.client_network,
                counted: vote.counted,
                discounted_at: vote.discounted_at,
            });
        }
        Ok(listings::votes::flag_suspicious(records, burst, window))
    }

    async fn discount(&self, vote_id: i64, at: OffsetDateTime) -> Result<bool, RepoError> {
        let Some(row) = vote::Entity::find_by_id(vote_id).one(&self.db).await.map_err(repo_err)? else { return Ok(false) };
        let txn = self.db.begin().await.map_err(repo_err)?;
        let changed = vote::Entity::update_many()
            .col_expr(vote::Column::Counted, Expr::value(false))
            .col_expr(vote::Column::DiscountedAt, Expr::value(utc(at)))
            .filter(vote::Column::Id.eq(vote_id))
            .filter(vote::Column::Counted.eq(true))
            .exec(&txn)
            .await
            .map_err(repo_err)?
            .rows_affected;
        if changed == 1 {
            add_to_count(&txn, row.listing_id, -1).await?;
        }
        txn.commit().await.map_err(repo_err)?;
        Ok(changed == 1)
    }
}
