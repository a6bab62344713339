//! `ClaimRepository` over SeaORM: the `claims` table. One pending claim per person, listing and
//! method is a partial unique index, so two concurrent `claim_listing` calls make one claim;
//! status changes are compare-and-set on the stored status. Every link an e-mail claim sends is
//! a `claim_emails` row, counted against the daily quotas in the transaction that writes it.

use crate::entity::{claim, claim_email, listing, user};
use crate::{SeaStore, emails_of, fetch_page, lower_contains, repo_err, utc};
use async_trait::async_trait;
use claims::{
    CheckOutcome, CheckRecord, Claim, ClaimMethod, ClaimRepository, ClaimStatus, LinkedClaim, MailQuota, NewClaim, QuotaSpent, Stored,
    TeamClaim,
};
use kernel::{ClaimId, Email, ListingId, PageRequest, Paged, RepoError, Slug, UserId, WebUrl};
use sea_orm::sea_query::{Expr, Query};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, Condition, ConnectionTrait, DatabaseTransaction, DbBackend, EntityTrait, PaginatorTrait, QueryFilter,
    QueryOrder, QuerySelect, Set, Statement, TransactionTrait,
};
use std::collections::HashMap;
use time::OffsetDateTime;

const PENDING: &str = "pending";

fn corrupt(what: &str, raw: &str) -> RepoError {
    RepoError::Backend(format!("claims.{what} holds {raw:?}").into())
}

fn status_of(raw: &str) -> Result<ClaimStatus, RepoError> {
    match raw {
        "pending" => Ok(ClaimStatus::Pending),
        "verified" => Ok(ClaimStatus::Verified),
        "expired" => Ok(ClaimStatus::Expired),
        other => Err(corrupt("status", other)),
    }
}

fn to_claim(row: claim::Model, listing: &listing::Model) -> Result<Claim, RepoError> {
    let last_check = match (row.last_checked_at, row.last_outcome.as_deref()) {
        (Some(at), Some(outcome)) => Some(CheckRecord {
            at,
            outcome: CheckOutcome::parse(outcome).ok_or_else(|| corrupt("last_outcome", outcome))?,
            looked_at: row.last_looked_at.unwrap_or_default(),
            found: row.last_found.unwrap_or_default(),
        }),
        _ => None,
    };
    Ok(Claim {
        id: ClaimId::new(row.id),
        listing: ListingId::new(listing.id),
        listing_slug: Slug::parse(&listing.slug).map_err(RepoError::backend)?,
        listing_name: listing.name.clone(),
        website: WebUrl::parse(&listing.url).map_err(|err| corrupt("listing url", &err))?,
        claimant: UserId::new(row.claimant_user_id),
        method: ClaimMethod::parse(&row.method).ok_or_else(|| corrupt("method", &row.method))?,
        status: status_of(&row.status)?,
        token: row.token,
        email: row.email.as_deref().map(Email::parse).transpose().map_err(|err| corrupt("email", &err.0))?,
        created_at: row.created_at,
        verified_at: row.verified_at,
        last_check,
        proof_missing_since: row.proof_missing_since,
    })
}

/// The claims of `rows` with their listings.
async fn with_listings(db: &impl ConnectionTrait, rows: Vec<claim::Model>) -> Result<Vec<Claim>, RepoError> {
    let listings: HashMap<i64, listing::Model> = listing::Entity::find()
        .filter(listing::Column::Id.is_in(rows.iter().map(|row| row.listing_id)))
        .all(db)
        .await
        .map_err(repo_err)?
        .into_iter()
        .map(|row| (row.id, row))
        .collect();
    rows.into_iter()
        .map(|row| {
            let listing = listings.get(&row.listing_id).ok_or_else(|| corrupt("listing_id", &row.listing_id.to_string()))?;
            to_claim(row, listing)
        })
        .collect()
}

async fn one(db: &impl ConnectionTrait, row: Option<claim::Model>) -> Result<Option<Claim>, RepoError> {
    Ok(match row {
        Some(row) => with_listings(db, vec![row]).await?.pop(),
        None => None,
    })
}

/// The claimant's standing claim on the listing by the method: a verified one, else a pending one.
async fn standing_of(db: &impl ConnectionTrait, new: &NewClaim) -> Result<Option<claim::Model>, RepoError> {
    claim::Entity::find()
        .filter(claim::Column::ListingId.eq(new.listing.get()))
        .filter(claim::Column::ClaimantUserId.eq(new.claimant.get()))
        .filter(claim::Column::Method.eq(new.method.as_str()))
        .filter(claim::Column::Status.is_in([PENDING, "verified"]))
        // "verified" sorts after "pending".
        .order_by_desc(claim::Column::Status)
        .one(db)
        .await
        .map_err(repo_err)
}

/// Takes the write lock at once (SQLite) or the claimant's user row (PostgreSQL), as co-founder
/// invitations lock the inviter's drafts, so the quota counts below cannot go stale for this
/// account before the transaction writes. On PostgreSQL, a mail to `recipient` also takes a
/// transaction lock keyed by the address, so two accounts mailing one address at once take
/// turns and its daily quota holds too (SQLite has one writer at a time anyway).
async fn lock_claimant(txn: &DatabaseTransaction, claimant: UserId, recipient: Option<&str>) -> Result<(), RepoError> {
    user::Entity::update_many()
        .col_expr(user::Column::Blocked, Expr::col(user::Column::Blocked))
        .filter(user::Column::Id.eq(claimant.get()))
        .exec(txn)
        .await
        .map_err(repo_err)?;
    if let Some(recipient) = recipient
        && txn.get_database_backend() == DbBackend::Postgres
    {
        let lock = Statement::from_sql_and_values(
            DbBackend::Postgres,
            "SELECT pg_advisory_xact_lock(hashtext(lower($1)))",
            [recipient.to_owned().into()],
        );
        txn.execute_raw(lock).await.map_err(repo_err)?;
    }
    Ok(())
}

/// Which daily quota a claim e-mail from `claimant` to `email` at `now` would go beyond, if any.
async fn quota_spent(
    txn: &DatabaseTransaction,
    claimant: UserId,
    email: &str,
    quota: MailQuota,
    now: OffsetDateTime,
) -> Result<Option<QuotaSpent>, RepoError> {
    let day_ago = utc(now - claims::MAIL_QUOTA_WINDOW);
    let by_account = claim_email::Entity::find()
        .filter(claim_email::Column::ClaimantUserId.eq(claimant.get()))
        .filter(claim_email::Column::CreatedAt.gt(day_ago));
    if let Some(oldest) = over_quota(txn, by_account, quota.per_account_per_day, now).await? {
        return Ok(Some(QuotaSpent::Account { oldest }));
    }
    let to_recipient =
        claim_email::Entity::find().filter(claim_email::Column::Email.eq(email)).filter(claim_email::Column::CreatedAt.gt(day_ago));
    Ok(over_quota(txn, to_recipient, quota.per_recipient_per_day, now).await?.map(|oldest| QuotaSpent::Recipient { oldest }))
}

/// When `sent` already number `quota` or more: the oldest of them (`now` for a quota of 0).
async fn over_quota(
    txn: &DatabaseTransaction,
    sent: sea_orm::Select<claim_email::Entity>,
    quota: u32,
    now: OffsetDateTime,
) -> Result<Option<OffsetDateTime>, RepoError> {
    if sent.clone().count(txn).await.map_err(repo_err)? < u64::from(quota) {
        return Ok(None);
    }
    let oldest = sent.order_by_asc(claim_email::Column::CreatedAt).one(txn).await.map_err(repo_err)?;
    Ok(Some(oldest.map_or(now, |row| row.created_at)))
}

/// Records a claim e-mail, so the quotas count it.
async fn record_email(txn: &DatabaseTransaction, claim: i64, claimant: UserId, email: &str, at: OffsetDateTime) -> Result<(), RepoError> {
    claim_email::ActiveModel {
        claim_id: Set(claim),
        claimant_user_id: Set(claimant.get()),
        email: Set(email.to_owned()),
        created_at: Set(utc(at)),
        ..Default::default()
    }
    .insert(txn)
    .await
    .map_err(repo_err)?;
    Ok(())
}

fn check_columns(update: sea_orm::UpdateMany<claim::Entity>, check: &CheckRecord) -> sea_orm::UpdateMany<claim::Entity> {
    update
        .col_expr(claim::Column::LastCheckedAt, Expr::value(utc(check.at)))
        .col_expr(claim::Column::LastOutcome, Expr::value(check.outcome.as_str()))
        .col_expr(claim::Column::LastLookedAt, Expr::value(check.looked_at.clone()))
        .col_expr(claim::Column::LastFound, Expr::value(check.found.clone()))
}

#[async_trait]
impl ClaimRepository for SeaStore {
    async fn create(&self, new: NewClaim, quota: MailQuota) -> Result<Stored, RepoError> {
        let txn = self.db.begin().await.map_err(repo_err)?;
        lock_claimant(&txn, new.claimant, new.email.as_ref().map(Email::as_str)).await?;
        if let Some(existing) = standing_of(&txn, &new).await? {
            if existing.status != PENDING || existing.created_at + claims::CLAIM_LIFETIME > new.created_at {
                let existing = one(&txn, Some(existing)).await?.ok_or_else(|| corrupt("id", "vanished"))?;
                txn.commit().await.map_err(repo_err)?;
                return Ok(Stored::Existing(existing));
            }
            // Past its lifetime but not yet marked by the periodic job: it makes way.
            claim::Entity::update_many()
                .col_expr(claim::Column::Status, Expr::value("expired"))
                .filter(claim::Column::Id.eq(existing.id))
                .filter(claim::Column::Status.eq(PENDING))
                .exec(&txn)
                .await
                .map_err(repo_err)?;
        }
        // The link this claim e-mails counts against the quotas before anything is written.
        let mailed = new.email.as_ref().filter(|_| new.link_hash.is_some());
        if let Some(email) = mailed
            && let Some(spent) = quota_spent(&txn, new.claimant, email.as_str(), quota, new.created_at).await?
        {
            txn.rollback().await.map_err(repo_err)?;
            return Ok(Stored::OverQuota(spent));
        }
        let inserted = claim::Entity::insert(claim::ActiveModel {
            listing_id: Set(new.listing.get()),
            claimant_user_id: Set(new.claimant.get()),
            method: Set(new.method.as_str().to_owned()),
            status: Set(PENDING.to_owned()),
            token: Set(new.token.clone()),
            email: Set(new.email.as_ref().map(|email| email.as_str().to_owned())),
            // Set once the mailer has the link: a send that failed is retried by the next claim.
            link_sent_at: Set(None),
            link_hash: Set(new.link_hash.clone()),
            created_at: Set(utc(new.created_at)),
            ..Default::default()
        })
        .exec(&txn)
        .await;
        match inserted.map_err(repo_err) {
            Ok(done) => {
                if let Some(email) = mailed {
                    record_email(&txn, done.last_insert_id, new.claimant, email.as_str(), new.created_at).await?;
                }
                let row = claim::Entity::find_by_id(done.last_insert_id).one(&txn).await.map_err(repo_err)?;
                let created = one(&txn, row).await?.ok_or_else(|| corrupt("id", "vanished"))?;
                txn.commit().await.map_err(repo_err)?;
                Ok(Stored::New(created))
            }
            // A concurrent call made it first: that one is the claim. (PostgreSQL takes no more
            // statements in a transaction that failed: it is rolled back and the claim read anew.)
            Err(RepoError::Duplicate(_)) => {
                txn.rollback().await.map_err(repo_err)?;
                let existing = standing_of(&self.db, &new).await?;
                Ok(Stored::Existing(one(&self.db, existing).await?.ok_or_else(|| corrupt("id", "vanished"))?))
            }
            Err(err) => Err(err),
        }
    }

    async fn get(&self, id: ClaimId) -> Result<Option<Claim>, RepoError> {
        let row = claim::Entity::find_by_id(id.get()).one(&self.db).await.map_err(repo_err)?;
        one(&self.db, row).await
    }

    async fn of_claimant(&self, claimant: UserId, page: PageRequest) -> Result<Paged<Claim>, RepoError> {
        let query = claim::Entity::find()
            .filter(claim::Column::ClaimantUserId.eq(claimant.get()))
            .order_by_desc(claim::Column::CreatedAt)
            .order_by_desc(claim::Column::Id);
        let (rows, total) = fetch_page(&self.db, query, page).await?;
        Ok(Paged::new(with_listings(&self.db, rows).await?, page, total))
    }

    async fn by_link(&self, link_hash: &str) -> Result<Option<LinkedClaim>, RepoError> {
        let Some(row) = claim::Entity::find().filter(claim::Column::LinkHash.eq(link_hash)).one(&self.db).await.map_err(repo_err)? else {
            return Ok(None);
        };
        let sent_at = row.link_sent_at.unwrap_or(row.created_at);
        let claimant = user::Entity::find_by_id(row.claimant_user_id).one(&self.db).await.map_err(repo_err)?;
        let Some(claim) = one(&self.db, Some(row)).await? else { return Ok(None) };
        Ok(Some(LinkedClaim { claim, sent_at, claimant_name: claimant.map(|user| user.display_name).unwrap_or_default() }))
    }

    async fn link_sent_at(&self, id: ClaimId) -> Result<Option<OffsetDateTime>, RepoError> {
        Ok(claim::Entity::find_by_id(id.get()).one(&self.db).await.map_err(repo_err)?.and_then(|row| row.link_sent_at))
    }

    async fn set_link(
        &self,
        id: ClaimId,
        claimant: UserId,
        email: &Email,
        link_hash: &str,
        quota: MailQuota,
        at: OffsetDateTime,
    ) -> Result<Option<QuotaSpent>, RepoError> {
        let txn = self.db.begin().await.map_err(repo_err)?;
        lock_claimant(&txn, claimant, Some(email.as_str())).await?;
        if let Some(spent) = quota_spent(&txn, claimant, email.as_str(), quota, at).await? {
            txn.rollback().await.map_err(repo_err)?;
            return Ok(Some(spent));
        }
        claim::Entity::update_many()
            .col_expr(claim::Column::Email, Expr::value(email.as_str()))
            .col_expr(claim::Column::LinkHash, Expr::value(link_hash))
            .col_expr(claim::Column::LinkSentAt, Expr::value(Option::<OffsetDateTime>::None))
            .filter(claim::Column::Id.eq(id.get()))
            .filter(claim::Column::ClaimantUserId.eq(claimant.get()))
            .filter(claim::Column::Status.eq(PENDING))
            .exec(&txn)
            .await
            .map_err(repo_err)?;
        // Counted whether or not the claim was still pending: the e-mail goes out either way.
        record_email(&txn, id.get(), claimant, email.as_str(), at).await?;
        txn.commit().await.map_err(repo_err)?;
        Ok(None)
    }

    async fn link_sent(&self, id: ClaimId, at: OffsetDateTime) -> Result<(), RepoError> {
        claim::Entity::update_many()
            .col_expr(claim::Column::LinkSentAt, Expr::value(utc(at)))
            .filter(claim::Column::Id.eq(id.get()))
            .exec(&self.db)
            .await
            .map_err(repo_err)?;
        Ok(())
    }

    async fn record_check(&self, id: ClaimId, check: &CheckRecord) -> Result<(), RepoError> {
        check_columns(claim::Entity::update_many(), check)
            .filter(claim::Column::Id.eq(id.get()))
            .filter(claim::Column::Status.eq(PENDING))
            .exec(&self.db)
            .await
            .map_err(repo_err)?;
        Ok(())
    }

    async fn mark_verified(&self, id: ClaimId, check: &CheckRecord) -> Result<bool, RepoError> {
        let changed = check_columns(claim::Entity::update_many(), check)
            .col_expr(claim::Column::Status, Expr::value("verified"))
            .col_expr(claim::Column::VerifiedAt, Expr::value(utc(check.at)))
            .filter(claim::Column::Id.eq(id.get()))
            .filter(claim::Column::Status.eq(PENDING))
            .filter(claim::Column::CreatedAt.gt(utc(check.at - claims::CLAIM_LIFETIME)))
            .exec(&self.db)
            .await
            .map_err(repo_err)?;
        Ok(changed.rows_affected == 1)
    }

    async fn expire_pending(&self, created_before: OffsetDateTime) -> Result<u64, RepoError> {
        let changed = claim::Entity::update_many()
            .col_expr(claim::Column::Status, Expr::value("expired"))
            .filter(claim::Column::Status.eq(PENDING))
            .filter(claim::Column::CreatedAt.lte(utc(created_before)))
            .exec(&self.db)
            .await
            .map_err(repo_err)?;
        Ok(changed.rows_affected)
    }

    async fn due_for_recheck(&self, checked_before: OffsetDateTime, limit: u64) -> Result<Vec<Claim>, RepoError> {
        let rows = claim::Entity::find()
            .filter(claim::Column::Status.eq("verified"))
            .filter(claim::Column::Method.ne(ClaimMethod::Email.as_str()))
            .filter(claim::Column::LastCheckedAt.lt(utc(checked_before)))
            .order_by_asc(claim::Column::LastCheckedAt)
            .limit(limit)
            .all(&self.db)
            .await
            .map_err(repo_err)?;
        with_listings(&self.db, rows).await
    }

    async fn record_recheck(&self, id: ClaimId, check: &CheckRecord, proof_missing_since: Option<OffsetDateTime>) -> Result<(), RepoError> {
        check_columns(claim::Entity::update_many(), check)
            .col_expr(claim::Column::ProofMissingSince, Expr::value(proof_missing_since.map(utc)))
            .filter(claim::Column::Id.eq(id.get()))
            .filter(claim::Column::Status.eq("verified"))
            .exec(&self.db)
            .await
            .map_err(repo_err)?;
        Ok(())
    }

    async fn for_team(&self, search: Option<&str>, page: PageRequest) -> Result<Paged<TeamClaim>, RepoError> {
        let mut query = claim::Entity::find().order_by_desc(claim::Column::CreatedAt).order_by_desc(claim::Column::Id);
        if let Some(search) = search.map(str::trim).filter(|search| !search.is_empty()) {
            let word = search.to_lowercase();
            let listings = Query::select()
                .column(listing::Column::Id)
                .from(listing::Entity)
                .cond_where(
                    Condition::any().add(lower_contains(listing::Column::Slug, &word)).add(lower_contains(listing::Column::Name, &word)),
                )
                .to_owned();
            let claimants = Query::select()
                .column(user::Column::Id)
                .from(user::Entity)
                .and_where(lower_contains(user::Column::Email, &word))
                .to_owned();
            query = query.filter(
                Condition::any()
                    .add(claim::Column::ListingId.in_subquery(listings))
                    .add(claim::Column::ClaimantUserId.in_subquery(claimants))
                    .add(lower_contains(claim::Column::Email, &word)),
            );
        }
        let (rows, total) = fetch_page(&self.db, query, page).await?;
        let claimants = emails_of(&self.db, rows.iter().map(|row| row.claimant_user_id)).await?;
        let claims = with_listings(&self.db, rows).await?;
        let items = claims
            .into_iter()
            .map(|claim| TeamClaim { claimant_email: claimants.get(&claim.claimant.get()).cloned().unwrap_or_default(), claim })
            .collect();
        Ok(Paged::new(items, page, total))
    }

    async fn site_team(&self) -> Result<Vec<Email>, RepoError> {
        let rows = user::Entity::find()
            .filter(user::Column::IsAdmin.eq(true))
            .filter(user::Column::Blocked.eq(false))
            .all(&self.db)
            .await
            .map_err(repo_err)?;
        Ok(rows.into_iter().filter_map(|row| Email::parse(&row.email).ok()).collect())
    }
}
