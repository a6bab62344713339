//! The directory: categories (two levels), listings, their categories and founders, and votes.

use crate::m20261121_000001_create_accounts::Users;
use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Categories {
    Table,
    Id,
    Slug,
    Name,
    Description,
    ParentId,
    Position,
    Faqs,
}

#[derive(DeriveIden)]
enum Listings {
    Table,
    Id,
    Slug,
    Name,
    Url,
    Domain,
    Tagline,
    ShortDescription,
    Description,
    LogoUrl,
    Status,
    Plan,
    PrimaryCategoryId,
    Country,
    City,
    Stage,
    PricingModel,
    FoundedYear,
    LaunchWeek,
    LaunchedAt,
    VotesCount,
    OwnerUserId,
    CreatedAt,
    UpdatedAt,
}

#[derive(DeriveIden)]
enum ListingCategories {
    Table,
    ListingId,
    CategoryId,
    IsPrimary,
}

#[derive(DeriveIden)]
enum Founders {
    Table,
    Id,
    Slug,
    Name,
    Title,
    Bio,
    Country,
    AvatarUrl,
    Socials,
    CreatedAt,
}

#[derive(DeriveIden)]
enum ListingFounders {
    Table,
    ListingId,
    FounderId,
    Position,
}

#[derive(DeriveIden)]
enum Votes {
    Table,
    Id,
    ListingId,
    UserId,
    CreatedAt,
}

fn cascade(from: (impl IntoIden, impl IntoIden), to: (impl IntoIden, impl IntoIden)) -> ForeignKeyCreateStatement {
    ForeignKey::create().from(from.0, from.1).to(to.0, to.1).on_delete(ForeignKeyAction::Cascade).to_owned()
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(Categories::Table)
                    .col(big_pk_auto(Categories::Id))
                    .col(string_len_uniq(Categories::Slug, 220))
                    .col(string_len(Categories::Name, 120))
                    .col(text(Categories::Description))
                    .col(big_integer_null(Categories::ParentId))
                    .col(integer(Categories::Position).default(0))
                    .col(json(Categories::Faqs))
                    .foreign_key(
                        ForeignKey::create()
                            .from(Categories::Table, Categories::ParentId)
                            .to(Categories::Table, Categories::Id)
                            .on_delete(ForeignKeyAction::Restrict),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(Listings::Table)
                    .col(big_pk_auto(Listings::Id))
                    .col(string_len_uniq(Listings::Slug, 220))
                    .col(string_len(Listings::Name, 500))
                    .col(string_len(Listings::Url, 2048))
                    .col(string_len(Listings::Domain, 253))
                    .col(string_len_null(Listings::Tagline, 500))
                    .col(string_len_null(Listings::ShortDescription, 500))
                    .col(text_null(Listings::Description))
                    .col(string_len_null(Listings::LogoUrl, 500))
                    .col(string_len(Listings::Status, 20))
                    .col(string_len_null(Listings::Plan, 20))
                    .col(big_integer_null(Listings::PrimaryCategoryId))
                    .col(string_len_null(Listings::Country, 2))
                    .col(string_len_null(Listings::City, 120))
                    .col(string_len_null(Listings::Stage, 40))
                    .col(string_len_null(Listings::PricingModel, 40))
                    .col(integer_null(Listings::FoundedYear))
                    .col(date_null(Listings::LaunchWeek))
                    .col(timestamp_with_time_zone_null(Listings::LaunchedAt))
                    .col(big_integer(Listings::VotesCount).default(0))
                    .col(big_integer_null(Listings::OwnerUserId))
                    .col(timestamp_with_time_zone(Listings::CreatedAt))
                    .col(timestamp_with_time_zone(Listings::UpdatedAt))
                    .foreign_key(
                        ForeignKey::create()
                            .from(Listings::Table, Listings::PrimaryCategoryId)
                            .to(Categories::Table, Categories::Id)
                            .on_delete(ForeignKeyAction::SetNull),
                    )
                    .foreign_key(
                        ForeignKey::create()
                            .from(Listings::Table, Listings::OwnerUserId)
                            .to(Users::Table, Users::Id)
                            .on_delete(ForeignKeyAction::SetNull),
                    )
                    .to_owned(),
            )
            .await?;
        for (name, cols) in [
            ("idx_listings_status_votes", vec![Listings::Status, Listings::VotesCount]),
            ("idx_listings_launch_week", vec![Listings::LaunchWeek]),
            ("idx_listings_domain", vec![Listings::Domain]),
            ("idx_listings_owner", vec![Listings::OwnerUserId]),
        ] {
            let mut index = Index::create().name(name).table(Listings::Table).to_owned();
            for col in cols {
                index.col(col);
            }
            manager.create_index(index).await?;
        }
        manager
            .create_table(
                Table::create()
                    .table(ListingCategories::Table)
                    .col(big_integer(ListingCategories::ListingId))
                    .col(big_integer(ListingCategories::CategoryId))
                    .col(boolean(ListingCategories::IsPrimary).default(false))
                    .primary_key(Index::create().col(ListingCategories::ListingId).col(ListingCategories::CategoryId))
                    .foreign_key(&mut cascade((ListingCategories::Table, ListingCategories::ListingId), (Listings::Table, Listings::Id)))
                    .foreign_key(&mut cascade(
                        (ListingCategories::Table, ListingCategories::CategoryId),
                        (Categories::Table, Categories::Id),
                    ))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_listing_categories_category")
                    .table(ListingCategories::Table)
                    .col(ListingCategories::CategoryId)
                    .col(ListingCategories::ListingId)
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(Founders::Table)
                    .col(big_pk_auto(Founders::Id))
                    .col(string_len_uniq(Founders::Slug, 220))
                    .col(string_len(Founders::Name, 160))
                    .col(string_len_null(Founders::Title, 160))
                    .col(text_null(Founders::Bio))
                    .col(string_len_null(Founders::Country, 2))
                    .col(string_len_null(Founders::AvatarUrl, 500))
                    .col(json(Founders::Socials))
                    .col(timestamp_with_time_zone(Founders::CreatedAt))
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(ListingFounders::Table)
                    .col(big_integer(ListingFounders::ListingId))
                    .col(big_integer(ListingFounders::FounderId))
                    .col(integer(ListingFounders::Position).default(0))
                    .primary_key(Index::create().col(ListingFounders::ListingId).col(ListingFounders::FounderId))
                    .foreign_key(&mut cascade((ListingFounders::Table, ListingFounders::ListingId), (Listings::Table, Listings::Id)))
                    .foreign_key(&mut cascade((ListingFounders::Table, ListingFounders::FounderId), (Founders::Table, Founders::Id)))
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(Votes::Table)
                    .col(big_pk_auto(Votes::Id))
                    .col(big_integer(Votes::ListingId))
                    .col(big_integer(Votes::UserId))
                    .col(timestamp_with_time_zone(Votes::CreatedAt))
                    .foreign_key(&mut cascade((Votes::Table, Votes::ListingId), (Listings::Table, Listings::Id)))
                    .foreign_key(&mut cascade((Votes::Table, Votes::UserId), (Users::Table, Users::Id)))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("uq_votes_listing_user")
                    .table(Votes::Table)
                    .col(Votes::ListingId)
                    .col(Votes::UserId)
                    .unique()
                    .to_owned(),
            )
            .await?;
        manager.create_index(Index::create().name("idx_votes_created").table(Votes::Table).col(Votes::CreatedAt).to_owned()).await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for table in [
            Votes::Table.into_iden(),
            ListingFounders::Table.into_iden(),
            Founders::Table.into_iden(),
            ListingCategories::Table.into_iden(),
            Listings::Table.into_iden(),
            Categories::Table.into_iden(),
        ] {
            manager.drop_table(Table::drop().table(table).to_owned()).await?;
        }
        Ok(())
    }
}
