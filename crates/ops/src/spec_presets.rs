//! Spec presets an area's operations share (scope, tag, idempotency, 404), so each spec
//! literal is written once and an operation file imports it from here, never from another
//! operation file.

use crate::{HttpMethod, OperationSpec, RateClass};
use accounts::Scope;

/// What every read of the owner's own listings shares.
pub(crate) const OWNER_READ: OperationSpec = OperationSpec { scope: Some(Scope::AccountRead), tag: "owner", ..OperationSpec::READ };

/// What every change to an owned listing shares: the write scope, `Idempotency-Key`, and 404
/// for a listing that is not the caller's. Each operation names its method where it is not POST.
pub(crate) const OWNER_WRITE: OperationSpec = OperationSpec {
    method: HttpMethod::Post,
    scope: Some(Scope::ListingsWrite),
    idempotent: true,
    tag: "owner",
    not_found: true,
    rate: RateClass::Write,
    ..OperationSpec::READ
};
