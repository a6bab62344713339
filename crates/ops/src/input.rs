//! Operation inputs: each operation has typed path, query and body parts. Transports hand them
//! over as JSON (`RawInput`); parsing and validation happen here, once for every transport.

use garde::Validate;
use kernel::FieldError;
use schemars::JsonSchema;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

/// One part of an operation's input (path, query or body).
pub trait InputPart: DeserializeOwned + JsonSchema + Validate<Context = ()> + Send + 'static {
    /// `false` for `NoInput`: the part does not exist for this operation.
    const PRESENT: bool = true;
}

/// The part an operation does not have.
#[derive(Debug, Default, Deserialize, JsonSchema, Validate)]
#[serde(deny_unknown_fields)]
pub struct NoInput {}

impl InputPart for NoInput {
    const PRESENT: bool = false;
}

/// Input as a transport received it, already in JSON form. REST turns path and query strings
/// into typed JSON values using the part's schema; MCP splits its `arguments` by property name.
#[derive(Debug, Default, Clone)]
pub struct RawInput {
    pub path: Map<String, Value>,
    pub query: Map<String, Value>,
    /// `None` when no body was sent.
    pub body: Option<Value>,
}

/// Names every string in `value` holding a character XML 1.0 forbids (U+FFFE, a control
/// character but tab and line breaks): such text would break the feeds and sitemaps it may
/// reach, and no person means it.
fn forbidden_characters(value: &Value, at: &str, errors: &mut Vec<FieldError>) {
    match value {
        Value::String(text) if !text.chars().all(kernel::markup::xml_allows) => {
            let field = if at.is_empty() { "body".to_owned() } else { at.to_owned() };
            errors.push(FieldError::new(field, "holds a character that is not allowed in text (a control character, U+FFFE or U+FFFF)"));
        }
        Value::Array(items) => {
            for (index, item) in items.iter().enumerate() {
                forbidden_characters(item, &format!("{at}[{index}]"), errors);
            }
        }
        Value::Object(fields) => {
            for (name, field) in fields {
                forbidden_characters(field, &if at.is_empty() { name.clone() } else { format!("{at}.{name}") }, errors);
            }
        }
        _ => {}
    }
}

/// Deserializes one part, naming the field that failed (`fields.tagline`, `items[0].product`).
pub(crate) fn parse_part<T: InputPart>(value: Value, errors: &mut Vec<FieldError>) -> Option<T> {
    let before = errors.len();
    forbidden_characters(&value, "", errors);
    let refused = errors.len() > before;
    parse_checked_part(value, errors).filter(|_| !refused)
}

fn parse_checked_part<T: InputPart>(value: Value, errors: &mut Vec<FieldError>) -> Option<T> {
    match serde_path_to_error::deserialize::<_, T>(value) {
        Ok(parsed) => check_part(&parsed, errors).then_some(parsed),
        Err(error) => {
            errors.push(describe_serde_error(&error));
            None
        }
    }
}

/// Checks a part's rules (`garde`), naming each field that breaks one; `true` when it holds.
pub(crate) fn check_part<T: InputPart>(part: &T, errors: &mut Vec<FieldError>) -> bool {
    let Err(report) = part.validate() else { return true };
    for (path, error) in report.iter() {
        let field = path.to_string();
        errors.push(FieldError::new(if field.is_empty() { "body".to_owned() } else { field }, error.message().to_owned()));
    }
    false
}

/// A request body given as JSON, parsed and checked as every transport's is.
pub fn parse_body<T: InputPart>(body: Value) -> Result<T, crate::OpError> {
    let mut errors = Vec::new();
    parse_part(body, &mut errors).ok_or(crate::OpError::Validation(errors))
}

fn describe_serde_error(error: &serde_path_to_error::Error<serde_json::Error>) -> FieldError {
    let path = error.path().to_string();
    let path = if path == "." { String::new() } else { path };
    let message = error.inner().to_string();
    // serde says "unknown field `x`, expected ..." (at the field's own path) or "missing field
    // `x`" (at the parent's path); name the field itself so callers see which key to fix.
    for (marker, text) in [("unknown field `", "is not a known field"), ("missing field `", "is required")] {
        if let Some(rest) = message.strip_prefix(marker) {
            let name = rest.split('`').next().unwrap_or_default();
            let field = if path.is_empty() {
                name.to_owned()
            } else if path == name || path.ends_with(&format!(".{name}")) {
                path
            } else {
                format!("{path}.{name}")
            };
            return FieldError::new(field, text);
        }
    }
    let message = message.split(" at line ").next().unwrap_or(&message).to_owned();
    FieldError::new(if path.is_empty() { "body".to_owned() } else { path }, message)
}

/// Reads an integer the way JSON Schema counts one: `3` and `3.0` alike (a client's JSON
/// library may write whole numbers as floats).
pub(crate) fn whole_number<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<i64, D::Error> {
    let number = serde_json::Number::deserialize(deserializer)?;
    number
        .as_i64()
        .or_else(|| number.as_f64().filter(|float| float.fract() == 0.0 && float.abs() < 9.0e15).map(|float| float as i64))
        .ok_or_else(|| serde::de::Error::custom("must be an integer"))
}

/// `whole_number` for an optional key: absent or `null` is none.
pub(crate) fn optional_whole_number<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Option<i64>, D::Error> {
    match Option::<serde_json::Number>::deserialize(deserializer)? {
        None => Ok(None),
        Some(number) => whole_number(number).map(Some).map_err(serde::de::Error::custom),
    }
}

/// Reads an optional object strictly: serde's derived structs also take a JSON array (the
/// fields in order), which the schema does not allow and a caller never means.
pub(crate) fn object_or_null<'de, D: serde::Deserializer<'de>, T: DeserializeOwned>(deserializer: D) -> Result<Option<T>, D::Error> {
    match Value::deserialize(deserializer)? {
        Value::Null => Ok(None),
        object @ Value::Object(_) => serde_json::from_value(object).map(Some).map_err(serde::de::Error::custom),
        _ => Err(serde::de::Error::custom("must be an object or null")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::Pagination;
    use serde_json::json;

    fn errors_of<T: InputPart>(value: Value) -> Vec<FieldError> {
        let mut errors = Vec::new();
        assert!(parse_part::<T>(value, &mut errors).is_none());
        errors
    }

    #[test]
    fn a_typed_part_is_held_to_the_rules_of_a_parsed_one() {
        let mut errors = Vec::new();
        assert!(check_part(&Pagination::first(20), &mut errors));
        assert!(errors.is_empty());
        assert!(!check_part(&Pagination { page: 0, per_page: 101 }, &mut errors));
        let fields: Vec<&str> = errors.iter().map(|error| error.field.as_str()).collect();
        assert_eq!(fields, ["page", "per_page"]);
        let parsed: Result<Pagination, _> = parse_body(json!({"per_page": 0}));
        assert!(matches!(parsed, Err(crate::OpError::Validation(errors)) if errors[0].field == "per_page"));
    }

    #[test]
    fn pagination_defaults_and_bounds() {
        let mut errors = Vec::new();
        let page = parse_part::<Pagination>(json!({}), &mut errors).unwrap();
        assert_eq!((page.page, page.per_page), (1, 20));
        assert_eq!(errors_of::<Pagination>(json!({"page": 0}))[0].field, "page");
        assert_eq!(errors_of::<Pagination>(json!({"page": 1001}))[0].field, "page");
        assert_eq!(errors_of::<Pagination>(json!({"per_page": 101}))[0].field, "per_page");
        assert_eq!(errors_of::<Pagination>(json!({"per_page": -1}))[0].field, "per_page");
        assert_eq!(errors_of::<Pagination>(json!({"per_page": "x"}))[0].field, "per_page");
    }

    #[test]
    fn unknown_fields_are_named() {
        let errors = errors_of::<Pagination>(json!({"pgae": 2}));
        assert_eq!(errors, vec![FieldError::new("pgae", "is not a known field")]);
    }

    #[derive(Debug, Deserialize, JsonSchema, Validate)]
    #[serde(deny_unknown_fields)]
    struct Outer {
        #[garde(dive)]
        inner: Inner,
        #[garde(length(chars, max = 3))]
        name: String,
    }

    #[derive(Debug, Deserialize, JsonSchema, Validate)]
    #[serde(deny_unknown_fields)]
    struct Inner {
        #[garde(range(min = 1))]
        count: u32,
    }

    impl InputPart for Outer {}

    #[test]
    fn nested_fields_are_named_by_their_path() {
        assert_eq!(errors_of::<Outer>(json!({"inner": {"count": 1, "extra": 1}, "name": "a"}))[0].field, "inner.extra");
        assert_eq!(errors_of::<Outer>(json!({"inner": {}, "name": "a"}))[0].field, "inner.count");
        assert_eq!(errors_of::<Outer>(json!({"inner": {"count": 1}})), vec![FieldError::new("name", "is required")]);
        assert_eq!(errors_of::<Outer>(json!({"inner": {"count": "x"}, "name": "a"}))[0].field, "inner.count");
        let errors = errors_of::<Outer>(json!({"inner": {"count": 0}, "name": "abcd"}));
        let fields: Vec<&str> = errors.iter().map(|e| e.field.as_str()).collect();
        assert_eq!(fields, vec!["inner.count", "name"], "garde reports every bad field at once");
    }

    #[test]
    fn text_with_characters_xml_forbids_is_refused_naming_its_field() {
        let errors = errors_of::<Outer>(json!({"inner": {"count": 0}, "name": "a\u{FFFE}"}));
        let fields: Vec<&str> = errors.iter().map(|e| e.field.as_str()).collect();
        assert_eq!(fields, vec!["name", "inner.count"], "with the other bad fields");
        let errors = errors_of::<Outer>(json!({"inner": {"count": 1}, "name": "a\u{1}"}));
        assert_eq!(errors.iter().map(|e| e.field.as_str()).collect::<Vec<_>>(), vec!["name"]);
        let mut errors = Vec::new();
        assert!(parse_part::<Outer>(json!({"inner": {"count": 1}, "name": "a\tb"}), &mut errors).is_some(), "{errors:?}");
    }

    #[test]
    fn integers_written_as_floats_are_read_and_objects_never_come_from_arrays() {
        #[derive(Debug, serde::Deserialize, PartialEq)]
        struct Inner {
            a: Option<i64>,
        }
        #[derive(Debug, serde::Deserialize)]
        struct Outer {
            #[serde(deserialize_with = "whole_number")]
            n: i64,
            #[serde(default, deserialize_with = "object_or_null")]
            inner: Option<Inner>,
        }
        let read = |json: Value| serde_json::from_value::<Outer>(json);
        assert_eq!(read(serde_json::json!({"n": 3.0})).unwrap().n, 3);
        assert_eq!(read(serde_json::json!({"n": 7, "inner": {"a": 1}})).unwrap().inner, Some(Inner { a: Some(1) }));
        assert!(read(serde_json::json!({"n": 3.5})).is_err());
        assert!(read(serde_json::json!({"n": 1, "inner": [1]})).is_err(), "an array is not an object");
        assert_eq!(read(serde_json::json!({"n": 1, "inner": null})).unwrap().inner, None);
    }
}
