//! `get_launch_week`.

use crate::registry::{Input, Operation, OperationSpec};
use crate::wire::SchemaOf;
use crate::wire::rfc3339;
use crate::{Caller, Context, InputPart, ListingServices, NoInput, OpError};
use async_trait::async_trait;
use garde::Validate;
use kernel::Week;
use listings::{ListingSummary, WeekLaunch, WeekPhase, WeekRef};
use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::borrow::Cow;
use std::sync::Arc;

/// `this`, `next`, `last`, or a date `YYYY-MM-DD`.
#[derive(Debug, Clone, Copy)]
pub struct WeekParam(pub WeekRef);

impl<'de> Deserialize<'de> for WeekParam {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let raw = String::deserialize(deserializer)?;
        WeekRef::parse(&raw).map(Self).ok_or_else(|| serde::de::Error::custom("must be this, next, last or a date YYYY-MM-DD"))
    }
}

impl JsonSchema for WeekParam {
    fn schema_name() -> Cow<'static, str> {
        "WeekParam".into()
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "anyOf": [{"type": "string", "enum": ["this", "next", "last"]}, {"type": "string", "format": "date"}],
            "description": "this, next, last, or a date YYYY-MM-DD (snapped to its Monday)",
        })
    }
}

pub struct GetLaunchWeek;

/// Path of `get_launch_week`.
#[derive(Debug, Deserialize, JsonSchema, Validate)]
#[serde(deny_unknown_fields)]
pub struct WeekPath {
    /// this, next, last, or a date YYYY-MM-DD (snapped to its Monday).
    #[garde(skip)]
    pub week: WeekParam,
}

impl InputPart for WeekPath {}

/// Where a week stands relative to now.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    Past,
    Current,
    Upcoming,
}

/// One launch of the week.
// Written borrowed from the week's kept ranking (`WeekLaunches`).
#[derive(Debug, Serialize, JsonSchema)]
pub struct WeekLaunchView<'a> {
    /// 1 for the most voted; null in an upcoming week.
    pub rank: Option<u32>,
    /// Community votes received from Monday to Sunday of this week; null in an upcoming week.
    pub votes_in_week: Option<u64>,
    #[schemars(with = "SchemaOf<ListingSummary>")]
    pub listing: &'a ListingSummary,
}

/// A week's launches, shared with the calendar's kept ranking rather than copied: a week at a
/// million listings holds about 1,900 launches, and copying them cost more than writing them.
#[derive(Debug, Clone)]
pub struct WeekLaunches(Arc<Vec<WeekLaunch>>);

impl std::ops::Deref for WeekLaunches {
    type Target = [WeekLaunch];

    fn deref(&self) -> &[WeekLaunch] {
        &self.0
    }
}

impl Serialize for WeekLaunches {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(|launch| WeekLaunchView {
            rank: launch.rank,
            votes_in_week: launch.votes_in_week,
            listing: &launch.listing,
        }))
    }
}

/// A launch week.
#[derive(Debug, Serialize, JsonSchema)]
pub struct LaunchWeekView {
    /// The week's Monday.
    #[schemars(with = "SchemaOf<Week>")]
    pub week: Week,
    pub phase: Phase,
    /// Monday 00:00 in the launch time zone (RFC 3339, UTC).
    pub starts_at: String,
    /// The next Monday 00:00 in the launch time zone (RFC 3339, UTC).
    pub ends_at: String,
    pub launch_timezone: String,
    /// Past and current weeks: live launches ranked by votes received this week. Upcoming
    /// weeks: scheduled launches, then those waiting for their badge.
    #[schemars(with = "Vec<WeekLaunchView<'static>>")]
    pub items: WeekLaunches,
    #[schemars(with = "Option<SchemaOf<Week>>")]
    pub previous_week: Option<Week>,
    #[schemars(with = "Option<SchemaOf<Week>>")]
    pub next_week: Option<Week>,
}

#[async_trait]
impl Operation for GetLaunchWeek {
    type Path = WeekPath;
    type Query = NoInput;
    type Body = NoInput;
    type Output = LaunchWeekView;
    type Area = ListingServices;

    const SPEC: OperationSpec = OperationSpec {
        id: "get_launch_week",
        path: "/launches/weeks/{week}",
        summary: "A launch week",
        description: "The launches of a week (Monday to Sunday in the launch time zone). `week` is this, next, last, or a \
                      date snapped to its Monday. Past and current weeks rank their live launches by the community votes \
                      received that week (equal votes: the earlier launch first); upcoming weeks list what is scheduled. \
                      A malformed week is 400; a week before the first launch or beyond the bookable weeks is 404.",
        tag: "launches",
        not_found: true,
        ..OperationSpec::READ
    };

    async fn run(
        &self,
        listings: Context<'_, Self::Area>,
        _: &Caller,
        input: Input<WeekPath, NoInput, NoInput>,
    ) -> Result<LaunchWeekView, OpError> {
        let week = listings.calendar.week(input.path.week.0).await?;
        Ok(LaunchWeekView {
            week: week.week,
            phase: match week.phase {
                WeekPhase::Past => Phase::Past,
                WeekPhase::Current => Phase::Current,
                WeekPhase::Upcoming => Phase::Upcoming,
            },
            starts_at: rfc3339(week.starts_at),
            ends_at: rfc3339(week.ends_at),
            launch_timezone: listings.site.launch_timezone.clone(),
            items: WeekLaunches(week.launches),
            previous_week: week.previous,
            next_week: week.next,
        })
    }
}
