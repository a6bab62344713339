//! Table `votes`: one per person per listing.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "votes")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub listing_id: i64,
    pub user_id: i64,
    pub created_at: TimeDateTimeWithTimeZone,
    /// Whether it counts: `false` for a young account's vote or a discounted one.
    pub counted: bool,
    /// The client network it came from (IPv4 address, IPv6 /64); null for votes from before.
    pub client_network: Option<String>,
    pub discounted_at: Option<TimeDateTimeWithTimeZone>,
    /// The Monday of the launch week it was cast in (for votes per week).
    pub launch_week: TimeDate,
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
