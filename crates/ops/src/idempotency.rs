//! `Idempotency-Key` for the operations marked (I), once for every transport (`decisions.md`):
//! remembered 24 hours per principal, operation and key with a fingerprint of the request; a
//! finished request is replayed, a different request with the same key is a 400, and a request
//! still running is a 409. Failed requests are forgotten, so the key can be retried.

use crate::{App, Caller, DynOperation, OpError, RawInput};
use kernel::{FieldError, IdempotencyScope, Reservation, StoredResponse};
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};
use time::Duration;

/// How long a key is remembered.
pub const REMEMBERED_FOR: Duration = Duration::hours(24);
/// A reservation whose request has not finished after this long is taken to have died.
pub const ABANDONED_AFTER: Duration = Duration::minutes(5);

/// The answer of an operation run through `execute`.
#[derive(Debug, Clone, PartialEq)]
pub struct Executed {
    pub status: u16,
    pub body: Value,
    /// Replayed from an earlier request with the same key.
    pub replayed: bool,
}

/// Checks an `Idempotency-Key` value: 1 to 255 visible ASCII characters.
pub fn check_key(key: &str) -> Result<(), OpError> {
    if (1..=255).contains(&key.len()) && key.bytes().all(|b| b.is_ascii_graphic()) {
        Ok(())
    } else {
        Err(OpError::Validation(vec![FieldError::new("Idempotency-Key", "must be 1 to 255 visible ASCII characters")]))
    }
}

/// JSON with object keys sorted at every level, so equal requests have equal fingerprints.
fn canonical(value: &Value) -> String {
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            let parts: Vec<String> =
                keys.iter().map(|key| format!("{}:{}", Value::String((*key).clone()), canonical(&map[*key]))).collect();
            format!("{{{}}}", parts.join(","))
        }
        Value::Array(items) => format!("[{}]", items.iter().map(canonical).collect::<Vec<_>>().join(",")),
        other => other.to_string(),
    }
}

/// The fingerprint: the operation (its method and path template), the path values, the query
/// and the canonical body.
pub fn fingerprint(op: &dyn DynOperation, raw: &RawInput) -> String {
    let spec = op.spec();
    let text = format!(
        "{} {}\n{}\n{}\n{}",
        spec.method.as_str(),
        spec.path,
        canonical(&Value::Object(raw.path.clone())),
        canonical(&Value::Object(raw.query.clone())),
        canonical(raw.body.as_ref().unwrap_or(&Value::Object(Map::new())))
    );
    Sha256::digest(text.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
}

/// Runs an operation, honouring `Idempotency-Key` where the operation accepts one. Keys sent to
/// other operations are ignored.
pub async fn execute(op: &dyn DynOperation, app: &App, caller: &Caller, raw: RawInput, key: Option<&str>) -> Result<Executed, OpError> {
    let spec = op.spec();
    let status = spec.success_status;
    let (Some(key), true, Some(principal)) = (key, spec.idempotent, caller.principal.as_ref()) else {
        return op.call(app, caller, raw).await.map(|body| Executed { status, body, replayed: false });
    };
    check_key(key)?;
    let scope = IdempotencyScope { principal: format!("user:{}", principal.user.id), operation: spec.id.to_owned(), key: key.to_owned() };
    let fingerprint = fingerprint(op, &raw);
    let now = app.clock.now();
    let mismatch =
        || OpError::IdempotencyMismatch("this Idempotency-Key was used with a different request; use a new key for a new request".into());
    match app.idempotency.reserve(&scope, &fingerprint, now, now - REMEMBERED_FOR, now - ABANDONED_AFTER).await? {
        Reservation::Finished { fingerprint: stored, response } => {
            if stored != fingerprint {
                return Err(mismatch());
            }
            Ok(Executed { status: response.status, body: response.body, replayed: true })
        }
        Reservation::InFlight { fingerprint: stored } => {
            if stored != fingerprint {
                return Err(mismatch());
            }
            Err(OpError::IdempotencyInUse)
        }
        Reservation::Reserved => match op.call(app, caller, raw).await {
            Ok(body) => {
                app.idempotency.finish(&scope, &StoredResponse { status, body: body.clone() }).await?;
                Ok(Executed { status, body, replayed: false })
            }
            Err(error) => {
                if let Err(release) = app.idempotency.release(&scope).await {
                    tracing::warn!(error = %release, "could not release an idempotency key");
                }
                Err(error)
            }
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_json_sorts_keys() {
        let a: Value = serde_json::from_str(r#"{"b": 1, "a": {"d": [1, {"f": 2, "e": 3}], "c": null}}"#).unwrap();
        let b: Value = serde_json::from_str(r#"{"a": {"c": null, "d": [1, {"e": 3, "f": 2}]}, "b": 1}"#).unwrap();
        assert_eq!(canonical(&a), canonical(&b));
        assert_eq!(canonical(&a), r#"{"a":{"c":null,"d":[1,{"e":3,"f":2}]},"b":1}"#);
    }

    #[test]
    fn keys_are_visible_ascii_up_to_255() {
        assert!(check_key("abc-123_XYZ").is_ok());
        assert!(check_key(&"k".repeat(255)).is_ok());
        for bad in ["", "has space", "tab\t", "é", &"k".repeat(256)] {
            assert!(check_key(bad).is_err(), "{bad:?}");
        }
    }
}
