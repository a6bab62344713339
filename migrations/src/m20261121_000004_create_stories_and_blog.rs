//! Founder stories of listings (published with the listing) and blog posts.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Listings {
    Table,
    Id,
}

#[derive(DeriveIden)]
enum ListingStories {
    Table,
    ListingId,
    Title,
    Story,
    WhyStarted,
    Problem,
    Journey,
    Challenges,
    Achievements,
    Lessons,
    WhatsNext,
    PublishedAt,
    UpdatedAt,
}

#[derive(DeriveIden)]
enum BlogPosts {
    Table,
    Id,
    Slug,
    Title,
    Summary,
    BodyMarkdown,
    Faqs,
    AuthorName,
    Tags,
    PublishedAt,
    UpdatedAt,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(ListingStories::Table)
                    .col(big_integer(ListingStories::ListingId).primary_key())
                    .col(string_len_null(ListingStories::Title, 200))
                    .col(text_null(ListingStories::Story))
                    .col(text_null(ListingStories::WhyStarted))
                    .col(text_null(ListingStories::Problem))
                    .col(text_null(ListingStories::Journey))
                    .col(text_null(ListingStories::Challenges))
                    .col(text_null(ListingStories::Achievements))
                    .col(text_null(ListingStories::Lessons))
                    .col(text_null(ListingStories::WhatsNext))
                    .col(timestamp_with_time_zone_null(ListingStories::PublishedAt))
                    .col(timestamp_with_time_zone(ListingStories::UpdatedAt))
                    .foreign_key(
                        ForeignKey::create()
                            .from(ListingStories::Table, ListingStories::ListingId)
                            .to(Listings::Table, Listings::Id)
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(BlogPosts::Table)
                    .col(big_pk_auto(BlogPosts::Id))
                    .col(string_len_uniq(BlogPosts::Slug, 220))
                    .col(string_len(BlogPosts::Title, 200))
                    .col(string_len(BlogPosts::Summary, 500))
                    .col(text(BlogPosts::BodyMarkdown))
                    .col(json(BlogPosts::Faqs))
                    .col(string_len(BlogPosts::AuthorName, 160))
                    .col(json(BlogPosts::Tags))
                    .col(timestamp_with_time_zone_null(BlogPosts::PublishedAt))
                    .col(timestamp_with_time_zone(BlogPosts::UpdatedAt))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(Index::create().name("idx_blog_posts_published").table(BlogPosts::Table).col(BlogPosts::PublishedAt).to_owned())
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.drop_table(Table::drop().table(BlogPosts::Table).to_owned()).await?;
        manager.drop_table(Table::drop().table(ListingStories::Table).to_owned()).await
    }
}
