//! The demo directory's pictures: which listings still lack a logo, and writing the logo and
//! gallery the server drew and kept for one (the media store is the server's, so the drawing
//! and keeping happen there; this only writes the references).

use crate::entity::listing;
use kernel::ImageRef;
use listings::GalleryImage;
use sea_orm::sea_query::Expr;
use sea_orm::{ColumnTrait, DatabaseConnection, DbErr, EntityTrait, QueryFilter, QueryOrder, QuerySelect};

/// A listing without a logo: its id, its name, and whether its gallery shows (media unlocked).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WithoutPictures {
    pub id: i64,
    pub name: String,
    pub gallery_shows: bool,
}

/// Up to `limit` listings without a logo, oldest first.
pub async fn without_pictures(db: &DatabaseConnection, limit: u64) -> Result<Vec<WithoutPictures>, DbErr> {
    let rows: Vec<(i64, String, Option<serde_json::Value>)> = listing::Entity::find()
        .select_only()
        .columns([listing::Column::Id, listing::Column::Name, listing::Column::UnlockedSections])
        .filter(listing::Column::Logo.is_null())
        .order_by_asc(listing::Column::Id)
        .limit(limit)
        .into_tuple()
        .all(db)
        .await?;
    Ok(rows
        .into_iter()
        .map(|(id, name, unlocked)| {
            let gallery_shows =
                unlocked.and_then(|value| value.as_array().cloned()).is_some_and(|sections| sections.iter().any(|s| s == "media"));
            WithoutPictures { id, name, gallery_shows }
        })
        .collect())
}

/// Sets a listing's logo and gallery (the seed's own writing: no version history).
pub async fn set_pictures(db: &DatabaseConnection, id: i64, logo: &ImageRef, gallery: &[GalleryImage]) -> Result<(), DbErr> {
    listing::Entity::update_many()
        .col_expr(listing::Column::Logo, Expr::value(logo.to_string()))
        .col_expr(listing::Column::Gallery, Expr::value(serde_json::json!(gallery)))
        .filter(listing::Column::Id.eq(id))
        .exec(db)
        .await?;
    Ok(())
}

/// Gives every generated listing (`bulk-...`) one of `logos`, by its id, in one statement.
pub async fn set_bulk_logos(db: &DatabaseConnection, logos: &[ImageRef]) -> Result<u64, DbErr> {
    use sea_orm::ConnectionTrait;
    if logos.is_empty() {
        return Ok(0);
    }
    // An `ImageRef`'s text is hex digits, a format's name, digits, `.`, `:` and `x`: nothing to
    // escape in a literal.
    let branches: String = logos.iter().enumerate().map(|(at, logo)| format!(" WHEN {at} THEN '{logo}'")).collect();
    let sql = format!("UPDATE listings SET logo = CASE id % {}{branches} END WHERE slug LIKE 'bulk-%'", logos.len());
    Ok(db.execute_unprepared(&sql).await?.rows_affected())
}

/// The ids of the demo's founders without a picture, lowest first.
pub async fn founders_without_avatar(db: &DatabaseConnection, limit: u64) -> Result<Vec<i64>, DbErr> {
    crate::entity::founder::Entity::find()
        .select_only()
        .column(crate::entity::founder::Column::Id)
        .filter(crate::entity::founder::Column::Avatar.is_null())
        // The bulk seed's founders stay without: the demo's few dozen are drawn, not thousands.
        .filter(crate::entity::founder::Column::Slug.not_like("bulk-%"))
        .order_by_asc(crate::entity::founder::Column::Id)
        .limit(limit)
        .into_tuple()
        .all(db)
        .await
}

/// Sets a founder's picture (the seed's own writing).
pub async fn set_founder_avatar(db: &DatabaseConnection, id: i64, avatar: &ImageRef) -> Result<(), DbErr> {
    crate::entity::founder::Entity::update_many()
        .col_expr(crate::entity::founder::Column::Avatar, Expr::value(avatar.to_string()))
        .filter(crate::entity::founder::Column::Id.eq(id))
        .exec(db)
        .await?;
    Ok(())
}
