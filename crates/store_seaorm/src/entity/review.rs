//! Table `reviews`.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "reviews")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub listing_id: i64,
    pub user_id: i64,
    pub rating: i16,
    pub body: Option<String>,
    /// Hidden by moderation: not genuine, not counted.
    pub hidden: bool,
    pub created_at: TimeDateTimeWithTimeZone,
    /// When its author last edited it.
    pub updated_at: Option<TimeDateTimeWithTimeZone>,
    /// The client network it was first written from (IPv4 address, IPv6 /64); null for reviews
    /// from before (migration 24).
    pub client_network: Option<String>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {
    #[sea_orm(belongs_to = "super::listing::Entity", from = "Column::ListingId", to = "super::listing::Column::Id")]
    Listing,
}

impl Related<super::listing::Entity> for Entity {
    fn to() -> RelationDef {
        Relation::Listing.def()
    }
}

impl ActiveModelBehavior for ActiveModel {}
