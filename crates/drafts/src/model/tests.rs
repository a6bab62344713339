//! Tests of `model`.

use super::*;

fn proposed(text: &str) -> Proposed<FieldValue> {
    Proposed { value: FieldValue::Text(text.into()), evidence: vec![Evidence::new("https://a.example/", text, Basis::PageText)] }
}

#[test]
fn caller_edits_mark_the_field_as_theirs() {
    let mut field = DraftField::not_found();
    field.take_ai(Some(proposed("Acme")));
    assert_eq!(field.state, FieldState::Ai);
    field.set_by_caller(Some(FieldValue::Text("Acme Inc".into())));
    assert_eq!(field.state, FieldState::Edited);
    assert!(field.evidence.is_empty());
    field.restore();
    assert_eq!(field.state, FieldState::Ai);
    assert_eq!(field.value, Some(FieldValue::Text("Acme".into())));
    field.set_by_caller(None);
    assert_eq!(field.state, FieldState::Deleted);
    assert_eq!(field.value, None);

    let mut blank = DraftField::not_found();
    blank.set_by_caller(Some(FieldValue::Text("Berlin".into())));
    assert_eq!(blank.state, FieldState::Manual);
    blank.restore();
    assert_eq!(blank.state, FieldState::NotFound);
    blank.locked = true;
    assert_eq!(blank.shown_state(), FieldState::Override);
}

#[test]
fn completeness_counts_what_is_filled() {
    let mut draft = Draft::new(UserId::new(1), kernel::WebUrl::parse("https://a.example/").unwrap(), OffsetDateTime::UNIX_EPOCH);
    assert_eq!(draft.completeness().percent, 0);
    assert_eq!(draft.completeness().missing.len(), 21);
    draft.field_mut(FieldName::Name).take_ai(Some(proposed("Acme")));
    let completeness = draft.completeness();
    assert_eq!(completeness.percent, 4);
    assert!(!completeness.missing.contains(&"name"));
    assert_eq!(draft.not_found_on_website().len(), 17);
}
