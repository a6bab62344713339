//! What more than one repository needs, in one place so no repository imports another: query
//! helpers (live listings, pages, case-insensitive matching, UTC times, errors) here, and by
//! topic in the submodules.

pub(crate) mod documents;
pub(crate) mod follows;
pub(crate) mod launches;
pub(crate) mod ownership;
pub(crate) mod positions;
pub(crate) mod queries;
pub(crate) mod rows;
pub(crate) mod votes;

use sea_orm::DatabaseConnection;

/// `EXISTS (a live listing with id = table.column)`: correlated, so each row probes one
/// listing by key (an `IN (live ids)` list would be built from the whole directory per query).
pub(crate) fn listing_is_live(
    table: impl sea_orm::sea_query::IntoIden,
    column: impl sea_orm::sea_query::IntoIden,
) -> sea_orm::sea_query::SimpleExpr {
    use crate::entity::listing;
    use sea_orm::sea_query::{Expr, ExprTrait, Query};
    Expr::exists(
        Query::select()
            .expr(Expr::val(1))
            .from(listing::Entity)
            .and_where(Expr::col((listing::Entity, listing::Column::Id)).equals((table.into_iden(), column.into_iden())))
            .and_where(Expr::col((listing::Entity, listing::Column::Status)).eq("live"))
            .to_owned(),
    )
}

/// One page of `query` (already ordered), for reads whose total is known without counting
/// (the directory's counts): an index walk of the page, never a count of the directory.
pub(crate) async fn page_of<E: sea_orm::EntityTrait>(
    db: &DatabaseConnection,
    query: sea_orm::Select<E>,
    page: kernel::PageRequest,
) -> Result<Vec<E::Model>, kernel::RepoError>
where
    E::Model: Send + Sync,
{
    use sea_orm::QuerySelect;
    query.offset(page.offset()).limit(u64::from(page.per_page())).all(db).await.map_err(repo_err)
}

/// Runs one page of `query` (already ordered) and counts the whole query: for the small tables
/// (awards, blog, upcoming launches) and filtered reads without a maintained count. A page that
/// is not full and not empty is the last one, so it tells the total without a count.
pub(crate) async fn fetch_page<E: sea_orm::EntityTrait>(
    db: &DatabaseConnection,
    query: sea_orm::Select<E>,
    page: kernel::PageRequest,
) -> Result<(Vec<E::Model>, u64), kernel::RepoError>
where
    E::Model: Send + Sync,
{
    let rows = {
        use sea_orm::QuerySelect;
        query.clone().offset(page.offset()).limit(u64::from(page.per_page())).all(db).await.map_err(repo_err)?
    };
    let total = total_after(db, query, page, rows.len()).await?;
    Ok((rows, total))
}

/// How many rows `query` finds, told by the page just read (`read` rows) when it is the last
/// one, counted otherwise.
pub(crate) async fn total_after<E: sea_orm::EntityTrait>(
    db: &DatabaseConnection,
    query: sea_orm::Select<E>,
    page: kernel::PageRequest,
    read: usize,
) -> Result<u64, kernel::RepoError>
where
    E::Model: Send + Sync,
{
    use sea_orm::PaginatorTrait;
    let last_page = read > 0 || page.offset() == 0;
    if last_page && read < page.per_page() as usize { Ok(page.offset() + read as u64) } else { query.count(db).await.map_err(repo_err) }
}

/// `LOWER(column) LIKE '%word%'`: the word lower-cased and its own wildcards escaped. The one
/// case-insensitive substring match of every search (blog, founders, the admin lists, claims).
pub(crate) fn lower_contains(column: impl sea_orm::sea_query::IntoColumnRef, word: &str) -> sea_orm::sea_query::SimpleExpr {
    use sea_orm::sea_query::{Expr, ExprTrait, Func, LikeExpr};
    let escaped: String =
        word.to_lowercase().chars().flat_map(|c| if matches!(c, '%' | '_' | '\\') { vec!['\\', c] } else { vec![c] }).collect();
    Expr::expr(Func::lower(Expr::col(column))).like(LikeExpr::new(format!("%{escaped}%")).escape('\\'))
}

/// The e-mail addresses of the users among `ids`, by id.
pub(crate) async fn emails_of(
    db: &impl sea_orm::ConnectionTrait,
    ids: impl IntoIterator<Item = i64>,
) -> Result<std::collections::HashMap<i64, String>, kernel::RepoError> {
    use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
    let users = crate::entity::user::Entity::find().filter(crate::entity::user::Column::Id.is_in(ids)).all(db).await.map_err(repo_err)?;
    Ok(users.into_iter().map(|user| (user.id, user.email)).collect())
}

/// Maps a driver error into the port's error; a unique-key violation becomes `Duplicate`.
/// An instant as stored: in UTC, because SQLite compares timestamps as text.
pub(crate) fn utc(at: time::OffsetDateTime) -> time::OffsetDateTime {
    at.to_offset(time::UtcOffset::UTC)
}

/// A listing's status as stored; anything else is a corrupt row.
pub(crate) fn listing_status(raw: &str) -> Result<listings::ListingStatus, kernel::RepoError> {
    listings::ListingStatus::parse(raw).ok_or_else(|| kernel::RepoError::Backend(format!("listings.status holds {raw:?}").into()))
}

pub(crate) fn repo_err(err: sea_orm::DbErr) -> kernel::RepoError {
    match err.sql_err() {
        Some(sea_orm::SqlErr::UniqueConstraintViolation(detail)) => kernel::RepoError::Duplicate(detail),
        _ => kernel::RepoError::backend(err),
    }
}

/// A read-only transaction whose statements all see one moment: PostgreSQL's `REPEATABLE READ`
/// (its default, `READ COMMITTED`, gives each statement its own); an SQLite read transaction
/// already does (its snapshot is taken at the first read).
pub(crate) async fn snapshot(db: &DatabaseConnection) -> Result<sea_orm::DatabaseTransaction, kernel::RepoError> {
    use sea_orm::{AccessMode, DatabaseBackend, IsolationLevel, TransactionTrait};
    let begun = match db.get_database_backend() {
        DatabaseBackend::Postgres => db.begin_with_config(Some(IsolationLevel::RepeatableRead), Some(AccessMode::ReadOnly)).await,
        _ => db.begin().await,
    };
    begun.map_err(repo_err)
}
