//! Table `listing_stories`: the founder story of a listing, public once published.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "listing_stories")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub listing_id: i64,
    pub title: Option<String>,
    pub story: Option<String>,
    pub why_started: Option<String>,
    pub problem: Option<String>,
    pub journey: Option<String>,
    pub challenges: Option<String>,
    pub achievements: Option<String>,
    pub lessons: Option<String>,
    pub whats_next: Option<String>,
    pub published_at: Option<TimeDateTimeWithTimeZone>,
    pub updated_at: TimeDateTimeWithTimeZone,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}

impl Model {
    /// The story this row holds.
    pub fn story(self) -> kernel::Story {
        kernel::Story {
            title: self.title,
            story: self.story,
            why_started: self.why_started,
            problem: self.problem,
            journey: self.journey,
            challenges: self.challenges,
            achievements: self.achievements,
            lessons: self.lessons,
            whats_next: self.whats_next,
        }
    }
}

/// The row of a listing's story: the one place its sections become columns.
pub fn row(
    listing_id: i64,
    story: &kernel::Story,
    published_at: Option<TimeDateTimeWithTimeZone>,
    now: TimeDateTimeWithTimeZone,
) -> ActiveModel {
    use sea_orm::Set;
    let story = story.clone();
    ActiveModel {
        listing_id: Set(listing_id),
        title: Set(story.title),
        story: Set(story.story),
        why_started: Set(story.why_started),
        problem: Set(story.problem),
        journey: Set(story.journey),
        challenges: Set(story.challenges),
        achievements: Set(story.achievements),
        lessons: Set(story.lessons),
        whats_next: Set(story.whats_next),
        published_at: Set(published_at.map(|at| at.to_offset(time::UtcOffset::UTC))),
        updated_at: Set(now.to_offset(time::UtcOffset::UTC)),
    }
}
