//! The founder story: its nine sections, declared once, with the spec's two sets of bounds (a
//! draft's story and an owned listing's story differ only in the title's length).

use crate::FieldError;
use serde::{Deserialize, Serialize};

/// A founder story: a title and eight sections, every one optional.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Story {
    pub title: Option<String>,
    pub story: Option<String>,
    pub why_started: Option<String>,
    pub problem: Option<String>,
    pub journey: Option<String>,
    pub challenges: Option<String>,
    pub achievements: Option<String>,
    pub lessons: Option<String>,
    pub whats_next: Option<String>,
}

/// Which of the spec's story tables applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StoryBounds {
    /// Story (draft): every key at most 8000 characters.
    Draft,
    /// Story (owned listing): the title at most 200, the other eight at most 8000.
    OwnedListing,
}

impl StoryBounds {
    /// The longest title.
    pub fn title_max(self) -> usize {
        match self {
            Self::Draft => Story::SECTION_MAX_CHARS,
            Self::OwnedListing => 200,
        }
    }
}

impl Story {
    /// The longest section (all but the title).
    pub const SECTION_MAX_CHARS: usize = 8000;

    /// The nine keys, in the spec's order.
    pub const KEYS: [&'static str; 9] =
        ["title", "story", "why_started", "problem", "journey", "challenges", "achievements", "lessons", "whats_next"];

    /// Each key with its value, in the spec's order.
    pub fn entries(&self) -> [(&'static str, Option<&str>); 9] {
        let values = [
            &self.title,
            &self.story,
            &self.why_started,
            &self.problem,
            &self.journey,
            &self.challenges,
            &self.achievements,
            &self.lessons,
            &self.whats_next,
        ];
        let mut entries = [("", None); 9];
        for (i, (key, value)) in Self::KEYS.into_iter().zip(values).enumerate() {
            entries[i] = (key, value.as_deref());
        }
        entries
    }

    pub fn is_empty(&self) -> bool {
        *self == Self::default()
    }

    /// The longest value of `key` under `bounds`.
    pub fn max_chars(key: &str, bounds: StoryBounds) -> usize {
        if key == "title" { bounds.title_max() } else { Self::SECTION_MAX_CHARS }
    }

    /// The keys over their bound, each with its message.
    pub fn violations(&self, bounds: StoryBounds) -> Vec<(&'static str, String)> {
        self.entries()
            .into_iter()
            .filter_map(|(key, value)| {
                let max = Self::max_chars(key, bounds);
                let too_long = value.is_some_and(|text| text.chars().count() > max);
                too_long.then(|| (key, format!("must be at most {max} characters")))
            })
            .collect()
    }

    /// Checks every key against `bounds`; each error names its key under `at` (`story.title`).
    pub fn check(&self, at: &str, bounds: StoryBounds) -> Vec<FieldError> {
        self.violations(bounds).into_iter().map(|(key, message)| FieldError::new(format!("{at}.{key}"), message)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_title_bound_depends_on_the_table_and_the_sections_do_not() {
        let long_title = Story { title: Some("t".repeat(201)), ..Default::default() };
        assert!(long_title.check("story", StoryBounds::Draft).is_empty());
        assert_eq!(long_title.check("story", StoryBounds::OwnedListing)[0].field, "story.title");
        let long_section = Story { lessons: Some("l".repeat(8001)), ..Default::default() };
        for bounds in [StoryBounds::Draft, StoryBounds::OwnedListing] {
            assert_eq!(long_section.check("story", bounds), vec![FieldError::new("story.lessons", "must be at most 8000 characters")]);
        }
        let at_the_bounds = Story { title: Some("t".repeat(200)), whats_next: Some("w".repeat(8000)), ..Default::default() };
        assert!(at_the_bounds.check("story", StoryBounds::OwnedListing).is_empty());
    }

    #[test]
    fn entries_follow_the_keys() {
        let story = Story { problem: Some("p".into()), ..Default::default() };
        assert_eq!(story.entries()[3], ("problem", Some("p")));
        assert!(Story::default().is_empty() && !story.is_empty());
    }
}
