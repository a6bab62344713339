//! `owned_by`: the one reading of who owns a listing (its submitter in `listings.owner_user_id`,
//! or an owner by a verified claim in `listing_owners`), used by every owner read and write; and
//! `settle_verified`, which applies the Verified badge's rule (`listings::has_verified_owner`)
//! where an ownership ends.

use crate::entity::{claim, listing, listing_owner};
use crate::repo_err;
use kernel::{RepoError, UserId};
use listings::has_verified_owner;
use sea_orm::sea_query::{Expr, Query};
use sea_orm::{ColumnTrait, Condition, ConnectionTrait, EntityTrait, QueryFilter};
use std::collections::HashMap;
use time::OffsetDateTime;

/// Listings `user` owns, as a condition on `listings`.
pub(crate) fn owned_by(user: UserId) -> Condition {
    Condition::any().add(listing::Column::OwnerUserId.eq(user.get())).add(
        listing::Column::Id.in_subquery(
            Query::select()
                .column(listing_owner::Column::ListingId)
                .from(listing_owner::Entity)
                .and_where(listing_owner::Column::UserId.eq(user.get()))
                .to_owned(),
        ),
    )
}

/// Every owner of each of `listings` (submitter and owners by claim), by listing id.
pub(crate) async fn owners_of(db: &impl ConnectionTrait, listings: &[listing::Model]) -> Result<HashMap<i64, Vec<i64>>, RepoError> {
    let pairs: Vec<(i64, Option<i64>)> = listings.iter().map(|row| (row.id, row.owner_user_id)).collect();
    owners_by_id(db, &pairs).await
}

/// The same, for `(listing id, submitting owner)` pairs read without the rest of their rows.
pub(crate) async fn owners_by_id(db: &impl ConnectionTrait, listings: &[(i64, Option<i64>)]) -> Result<HashMap<i64, Vec<i64>>, RepoError> {
    let mut owners: HashMap<i64, Vec<i64>> = HashMap::new();
    for (id, submitter) in listings {
        owners.entry(*id).or_default().extend(*submitter);
    }
    let by_claim = listing_owner::Entity::find()
        .filter(listing_owner::Column::ListingId.is_in(listings.iter().map(|(id, _)| *id)))
        .all(db)
        .await
        .map_err(repo_err)?;
    for row in by_claim {
        owners.entry(row.listing_id).or_default().push(row.user_id);
    }
    Ok(owners)
}

/// Settles the Verified mark of `listings` by `listings::has_verified_owner`: a listing keeps it
/// while one of its owners has a verified claim on it, and loses it otherwise. Run inside the
/// transaction that ended an ownership, after it did, so the badge never outlives its last
/// verified owner. Returns how many listings lost the mark.
pub(crate) async fn settle_verified(db: &impl ConnectionTrait, touched: &[i64]) -> Result<u64, RepoError> {
    if touched.is_empty() {
        return Ok(0);
    }
    let marked = listing::Entity::find()
        .filter(listing::Column::Id.is_in(touched.iter().copied()))
        .filter(listing::Column::VerifiedAt.is_not_null())
        .all(db)
        .await
        .map_err(repo_err)?;
    if marked.is_empty() {
        return Ok(0);
    }
    let owners = owners_of(db, &marked).await?;
    let verified = claim::Entity::find()
        .filter(claim::Column::ListingId.is_in(marked.iter().map(|row| row.id)))
        .filter(claim::Column::Status.eq("verified"))
        .all(db)
        .await
        .map_err(repo_err)?;
    let lost: Vec<i64> = marked
        .iter()
        .filter(|row| {
            let its_owners: Vec<UserId> = owners.get(&row.id).into_iter().flatten().map(|id| UserId::new(*id)).collect();
            let claimants: Vec<UserId> =
                verified.iter().filter(|claim| claim.listing_id == row.id).map(|claim| UserId::new(claim.claimant_user_id)).collect();
            !has_verified_owner(&its_owners, &claimants)
        })
        .map(|row| row.id)
        .collect();
    if lost.is_empty() {
        return Ok(0);
    }
    Ok(listing::Entity::update_many()
        .col_expr(listing::Column::VerifiedAt, Expr::value(Option::<OffsetDateTime>::None))
        .filter(listing::Column::Id.is_in(lost))
        .exec(db)
        .await
        .map_err(repo_err)?
        .rows_affected)
}
