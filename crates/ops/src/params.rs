//! Path and query parameters arrive as strings; this turns each into the JSON type its
//! schema declares, so REST and the site's pages feed the same typed input to an operation
//! as MCP does.

use kernel::FieldError;
use schemars::Schema;
use serde_json::{Map, Value};
use std::any::TypeId;
use std::collections::HashMap;
use std::sync::{LazyLock, RwLock};

/// The JSON types of a part's properties, read from its schema.
#[derive(Debug, Clone, Default)]
pub struct ParamTypes(Vec<(String, &'static str)>);

impl ParamTypes {
    pub fn of(schema: Option<&Schema>) -> Self {
        let Some(properties) = schema.and_then(|s| s.get("properties")).and_then(Value::as_object) else {
            return Self::default();
        };
        Self(properties.iter().map(|(name, property)| (name.clone(), json_type(property))).collect())
    }

    fn type_of(&self, name: &str) -> Option<&'static str> {
        self.0.iter().find(|(known, _)| known == name).map(|(_, kind)| *kind)
    }
}

fn json_type(property: &Value) -> &'static str {
    let types: Vec<&str> = match property.get("type") {
        Some(Value::String(one)) => vec![one.as_str()],
        Some(Value::Array(many)) => many.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    ["integer", "number", "boolean", "array"].into_iter().find(|kind| types.contains(kind)).unwrap_or("string")
}

/// Turns `name=value` pairs into a JSON object. A value that does not fit its type is passed
/// on as a string, so the operation's parser names the field in its error. A name given twice
/// is an error unless the parameter is an array.
pub fn to_json(pairs: Vec<(String, String)>, types: &ParamTypes, errors: &mut Vec<FieldError>) -> Map<String, Value> {
    let mut out = Map::new();
    for (name, raw) in pairs {
        let value = match types.type_of(&name) {
            Some("integer") => raw.parse::<i64>().map(Value::from).unwrap_or(Value::String(raw)),
            Some("number") => {
                raw.parse::<f64>().ok().and_then(serde_json::Number::from_f64).map(Value::Number).unwrap_or(Value::String(raw))
            }
            Some("boolean") => match raw.as_str() {
                "true" => Value::Bool(true),
                "false" => Value::Bool(false),
                _ => Value::String(raw),
            },
            _ => Value::String(raw),
        };
        match (out.get_mut(&name), types.type_of(&name)) {
            (None, Some("array")) => {
                out.insert(name, Value::Array(vec![value]));
            }
            (None, _) => {
                out.insert(name, value);
            }
            (Some(Value::Array(items)), Some("array")) => items.push(value),
            (Some(_), _) => {
                if !errors.iter().any(|e| e.field == name) {
                    errors.push(FieldError::new(name, "is given more than once"));
                }
            }
        }
    }
    out
}

/// The parameter types of an operation's path and query, read from its input schemas.
pub fn of_operation(op: &dyn crate::DynOperation) -> (ParamTypes, ParamTypes) {
    let mut inputs = schemars::generate::SchemaSettings::draft2020_12().into_generator();
    let mut outputs = schemars::generate::SchemaSettings::draft2020_12().for_serialize().into_generator();
    let schemas = op.schemas(&mut inputs, &mut outputs);
    (ParamTypes::of(schemas.path.as_ref()), ParamTypes::of(schemas.query.as_ref()))
}

/// `of_operation` for a typed operation, worked out once per operation type: a page asks on
/// every request, and a schema is not free to generate.
fn types_of<T: crate::Operation>(op: &T) -> &'static (ParamTypes, ParamTypes) {
    static KNOWN: LazyLock<RwLock<HashMap<TypeId, &'static (ParamTypes, ParamTypes)>>> = LazyLock::new(Default::default);
    if let Some(types) = KNOWN.read().ok().and_then(|known| known.get(&TypeId::of::<T>()).copied()) {
        return types;
    }
    // One entry per operation type, so the leak is bounded by the registry's size.
    let types: &'static (ParamTypes, ParamTypes) = Box::leak(Box::new(of_operation(op)));
    if let Ok(mut known) = KNOWN.write() {
        known.entry(TypeId::of::<T>()).or_insert(types);
    }
    types
}

/// The input of a typed operation from path and query strings, as REST reads them.
pub fn raw_input<T: crate::Operation>(
    op: &T,
    path: Vec<(String, String)>,
    query: Vec<(String, String)>,
) -> Result<crate::RawInput, crate::OpError> {
    let types = types_of(op);
    let mut errors = Vec::new();
    let path = to_json(path, &types.0, &mut errors);
    let query = to_json(query, &types.1, &mut errors);
    if errors.is_empty() { Ok(crate::RawInput { path, query, body: None }) } else { Err(crate::OpError::Validation(errors)) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn types() -> ParamTypes {
        let schema: Schema =
            json!({"properties": {"page": {"type": "integer"}, "flag": {"type": "boolean"}, "q": {"type": ["string", "null"]}}})
                .try_into()
                .unwrap();
        ParamTypes::of(Some(&schema))
    }

    #[test]
    fn values_take_their_schema_type() {
        let mut errors = Vec::new();
        let pairs = vec![("page".into(), "2".into()), ("flag".into(), "false".into()), ("q".into(), "12".into())];
        assert_eq!(Value::Object(to_json(pairs, &types(), &mut errors)), json!({"page": 2, "flag": false, "q": "12"}));
        assert!(errors.is_empty());
    }

    #[test]
    fn misfits_stay_strings_and_repeats_are_named() {
        let mut errors = Vec::new();
        let pairs = vec![("page".into(), "two".into()), ("flag".into(), "1".into()), ("q".into(), "a".into()), ("q".into(), "b".into())];
        let out = to_json(pairs, &types(), &mut errors);
        assert_eq!(out["page"], json!("two"));
        assert_eq!(out["flag"], json!("1"));
        assert_eq!(errors, vec![FieldError::new("q", "is given more than once")]);
    }
}
