//! `Idempotency-Key` for the operations marked (I), once for every transport (`decisions.md`):
//! remembered 24 hours per principal, operation and key with a fingerprint of the request; a
//! finished request is replayed, a different request with the same key is a 400, and a request
//! still running is a 409. Failed requests are forgotten, so the key can be retried. An answer
//! that carries a secret is stored without it and replayed with a new one (the operation's
//! `answer_to_store` and `replay`).

use crate::Edge;
use bytes::Bytes;
use kernel::{FieldError, IdempotencyScope, Reservation, StoredResponse};
use ops::{App, Caller, DynOperation, OpError, RawInput};
use serde_json::{Map, Value};
use std::sync::Arc;
use time::Duration;

/// A reservation whose request has not finished after this long is taken to have died.
pub const ABANDONED_AFTER: Duration = Duration::minutes(5);

/// The answer of an operation run through `execute`.
#[derive(Debug, Clone, PartialEq)]
pub struct Executed {
    pub status: u16,
    pub body: Answer,
    /// Replayed from an earlier request with the same key.
    pub replayed: bool,
}

/// An operation's JSON answer: as the operation wrote it, kept (from the answer cache, with its
/// gzip twin), or replayed from an earlier request with the same key.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    Text(Bytes),
    Json(crate::KeptBody),
    Value(Value),
}

impl Answer {
    /// The answer as a JSON value (a serialized one is read back).
    pub fn into_value(self) -> Result<Value, OpError> {
        match self {
            Self::Text(text) => serde_json::from_slice(&text).map_err(OpError::internal),
            Self::Json(body) => serde_json::from_slice(&body.plain).map_err(OpError::internal),
            Self::Value(value) => Ok(value),
        }
    }
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
pub(crate) fn canonical(value: &Value) -> String {
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
    kernel::secrets::sha256_hex(&text)
}

impl Edge {
    /// Runs an operation, honouring `Idempotency-Key` where the operation accepts one. Keys sent to
    /// other operations are ignored.
    ///
    /// A public read may be answered from the answer cache (`crate::answers`); any other operation
    /// empties it once it has succeeded, so its caller reads back what it wrote. The operation
    /// comes shared: an expired answer is rebuilt by a task that may outlive the request.
    pub async fn execute(
        &self,
        op: &Arc<dyn DynOperation>,
        app: &App,
        caller: &Caller,
        raw: RawInput,
        key: Option<&str>,
    ) -> Result<Executed, OpError> {
        let spec = op.spec();
        if spec.read_only() {
            // A body on a read is refused by its parsing; such a request is never answered from the cache.
            if spec.scope.is_none() && raw.body.is_none() && self.answers.is_on() {
                let body = crate::answers::answer_public_read(&self.answers, op, app, caller, raw).await?;
                return Ok(Executed { status: spec.success_status, body: Answer::Json(body), replayed: false });
            }
            return op.call(app, caller, raw).await.map(|body| Executed {
                status: spec.success_status,
                body: Answer::Text(body.into()),
                replayed: false,
            });
        }
        let executed = self.execute_write(&**op, app, caller, raw, key).await;
        // Only a write that happened changes what reads answer; a refused one must not empty the
        // cache, or anyone could keep it empty with bad requests.
        if executed.is_ok() {
            self.answers.forget_all();
        }
        executed
    }

    async fn execute_write(
        &self,
        op: &dyn DynOperation,
        app: &App,
        caller: &Caller,
        raw: RawInput,
        key: Option<&str>,
    ) -> Result<Executed, OpError> {
        let spec = op.spec();
        let status = spec.success_status;
        let (Some(key), true, Some(principal)) = (key, spec.idempotent, caller.principal.as_ref()) else {
            return op.call(app, caller, raw).await.map(|body| Executed { status, body: Answer::Text(body.into()), replayed: false });
        };
        check_key(key)?;
        let scope =
            IdempotencyScope { principal: format!("user:{}", principal.user.id), operation: spec.id.to_owned(), key: key.to_owned() };
        let fingerprint = fingerprint(op, &raw);
        let now = app.clock.now();
        let mismatch = || {
            OpError::IdempotencyMismatch("this Idempotency-Key was used with a different request; use a new key for a new request".into())
        };
        match self.idempotency.reserve(&scope, &fingerprint, now, now - kernel::IDEMPOTENCY_KEPT_FOR, now - ABANDONED_AFTER).await? {
            Reservation::Finished { fingerprint: stored, response } => {
                if stored != fingerprint {
                    return Err(mismatch());
                }
                let body = op.replay(app, caller, response.body).await?;
                Ok(Executed { status: response.status, body: Answer::Value(body), replayed: true })
            }
            Reservation::InFlight { fingerprint: stored } => {
                if stored != fingerprint {
                    return Err(mismatch());
                }
                Err(OpError::IdempotencyInUse)
            }
            Reservation::Reserved => match op.call(app, caller, raw).await {
                Ok(body) => {
                    // The operation happened: its answer goes to the caller whatever the store says.
                    match serde_json::from_slice::<Value>(&body) {
                        Ok(value) => {
                            store_answer(self.idempotency.as_ref(), &scope, &StoredResponse { status, body: op.answer_to_store(&value) })
                                .await;
                        }
                        // Not stored: the key stays in flight until it is taken for abandoned.
                        Err(error) => tracing::error!(error = %error, operation = %scope.operation, "an answer was not JSON"),
                    }
                    Ok(Executed { status, body: Answer::Text(body.into()), replayed: false })
                }
                Err(error) => {
                    if let Err(release) = self.idempotency.release(&scope).await {
                        tracing::warn!(error = %release, "could not release an idempotency key");
                    }
                    Err(error)
                }
            },
        }
    }
}

/// Pauses before each further try of storing an answer.
const STORE_RETRIES: [std::time::Duration; 3] =
    [std::time::Duration::from_millis(50), std::time::Duration::from_millis(250), std::time::Duration::from_secs(1)];

/// Stores a finished request's answer, trying again after a failure: an answer not stored
/// leaves the key in flight (409 to every retry) until it is taken for abandoned. Returns whether
/// it was stored.
async fn store_answer(store: &dyn kernel::IdempotencyStore, scope: &IdempotencyScope, response: &StoredResponse) -> bool {
    let mut error = match store.finish(scope, response).await {
        Ok(()) => return true,
        Err(error) => error,
    };
    for pause in STORE_RETRIES {
        tracing::warn!(error = %error, "could not store an idempotent answer; trying again");
        tokio::time::sleep(pause).await;
        match store.finish(scope, response).await {
            Ok(()) => return true,
            Err(again) => error = again,
        }
    }
    tracing::error!(error = %error, operation = %scope.operation, "could not store an idempotent answer; the key stays in flight until it is taken for abandoned");
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use kernel::{IdempotencyStore, RepoError};
    use std::sync::Mutex;

    /// Fails `finish` a number of times, then stores.
    struct Flaky {
        failures_left: Mutex<u32>,
        stored: Mutex<Option<StoredResponse>>,
    }

    #[async_trait::async_trait]
    impl IdempotencyStore for Flaky {
        async fn reserve(
            &self,
            _: &IdempotencyScope,
            _: &str,
            _: time::OffsetDateTime,
            _: time::OffsetDateTime,
            _: time::OffsetDateTime,
        ) -> Result<Reservation, RepoError> {
            Ok(Reservation::Reserved)
        }
        async fn finish(&self, _: &IdempotencyScope, response: &StoredResponse) -> Result<(), RepoError> {
            let mut left = self.failures_left.lock().unwrap();
            if *left > 0 {
                *left -= 1;
                return Err(RepoError::backend(std::io::Error::other("database is locked")));
            }
            *self.stored.lock().unwrap() = Some(response.clone());
            Ok(())
        }
        async fn release(&self, _: &IdempotencyScope) -> Result<(), RepoError> {
            Ok(())
        }
    }

    #[tokio::test]
    async fn a_failed_store_of_the_answer_is_tried_again() {
        let scope = IdempotencyScope { principal: "user:1".into(), operation: "submit_listing".into(), key: "k".into() };
        let answer = StoredResponse { status: 201, body: serde_json::json!({"id": 1}) };
        let flaky = Flaky { failures_left: Mutex::new(2), stored: Mutex::new(None) };
        assert!(store_answer(&flaky, &scope, &answer).await);
        assert_eq!(flaky.stored.lock().unwrap().as_ref(), Some(&answer));
        let broken = Flaky { failures_left: Mutex::new(10), stored: Mutex::new(None) };
        assert!(!store_answer(&broken, &scope, &answer).await, "gives up after its tries");
        assert_eq!(*broken.failures_left.lock().unwrap(), 6, "four tries in all");
    }

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
