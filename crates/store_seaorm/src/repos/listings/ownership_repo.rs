//! `OwnershipRepository` over SeaORM: owners granted by verified claims, and ownerships ended.
//! Who owns a listing is read, and the Verified badge settled, by `shared::ownership`.

use crate::entity::{listing, listing_owner, user};
use crate::shared::ownership::owners_of;
use crate::{SeaStore, repo_err, utc};
use async_trait::async_trait;
use kernel::{ClaimId, Email, ListingId, RepoError, Slug, UserId};
use listings::{ClaimableListing, Granted, OwnershipRepository};
use sea_orm::sea_query::Expr;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, Set, TransactionTrait};
use time::OffsetDateTime;

#[async_trait]
impl OwnershipRepository for SeaStore {
    async fn by_slug(&self, slug: &Slug) -> Result<Option<ClaimableListing>, RepoError> {
        let row = listing::Entity::find().filter(listing::Column::Slug.eq(slug.as_str())).one(&self.db).await.map_err(repo_err)?;
        row.map(|row| {
            Ok(ClaimableListing {
                id: ListingId::new(row.id),
                slug: Slug::parse(&row.slug).map_err(RepoError::backend)?,
                status: crate::listing_status(&row.status)?,
                name: row.name,
                url: row.url,
            })
        })
        .transpose()
    }

    async fn add_verified_owner(&self, id: ListingId, user: UserId, claim: ClaimId, now: OffsetDateTime) -> Result<Granted, RepoError> {
        let txn = self.db.begin().await.map_err(repo_err)?;
        // The write comes first, so SQLite takes its write lock before anything is read (a read
        // that later upgrades to a write cannot wait for a busy lock: it fails at once).
        listing::Entity::update_many()
            .col_expr(listing::Column::VerifiedAt, Expr::value(utc(now)))
            .filter(listing::Column::Id.eq(id.get()))
            .filter(listing::Column::VerifiedAt.is_null())
            .exec(&txn)
            .await
            .map_err(repo_err)?;
        let row = listing::Entity::find_by_id(id.get())
            .one(&txn)
            .await
            .map_err(repo_err)?
            .ok_or_else(|| RepoError::Backend(format!("listing {id} is gone").into()))?;
        let before = owners_of(&txn, std::slice::from_ref(&row)).await?.remove(&row.id).unwrap_or_default();
        if before.contains(&user.get()) {
            txn.commit().await.map_err(repo_err)?;
            return Ok(Granted::AlreadyOwner);
        }
        listing_owner::Entity::insert(listing_owner::ActiveModel {
            listing_id: Set(id.get()),
            user_id: Set(user.get()),
            claim_id: Set(Some(claim.get())),
            created_at: Set(utc(now)),
        })
        .on_conflict_do_nothing_on([listing_owner::Column::ListingId, listing_owner::Column::UserId])
        .exec(&txn)
        .await
        .map_err(repo_err)?;
        let addresses = user::Entity::find().filter(user::Column::Id.is_in(before)).all(&txn).await.map_err(repo_err)?;
        txn.commit().await.map_err(repo_err)?;
        let earlier_owners = addresses.into_iter().filter_map(|owner| Email::parse(&owner.email).ok()).collect();
        Ok(Granted::NewOwner { earlier_owners })
    }
}
