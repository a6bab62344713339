//! The JSON Schemas of the kernel's and the domains' types, kept here so that every wire shape
//! lives in `ops::wire` and no domain or kernel crate depends on a schema library. A wire type
//! names the shape of a field of such a type with `#[schemars(with = "SchemaOf<Slug>")]`; serde
//! still serialises the value itself, so the bytes on the wire do not change.

mod models;
mod sets;

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use std::borrow::Cow;
use std::marker::PhantomData;

/// The schema of `T`, where `T` belongs to a crate that describes no wire shapes. Never built:
/// it only stands in for `T` in a `#[schemars(with = ...)]` attribute.
pub struct SchemaOf<T: ?Sized>(PhantomData<T>);

/// A value of the kernel, written as one JSON string or number and inlined where it is used.
macro_rules! value_shape {
    ($($ty:ty => $name:literal $schema:tt;)+) => {$(
        impl JsonSchema for SchemaOf<$ty> {
            fn schema_name() -> Cow<'static, str> {
                $name.into()
            }

            fn inline_schema() -> bool {
                true
            }

            fn json_schema(_: &mut SchemaGenerator) -> Schema {
                json_schema!($schema)
            }
        }
    )+};
}

value_shape! {
    kernel::UserId => "Id" {"type": "integer", "minimum": 1, "format": "int64"};
    kernel::ListingId => "Id" {"type": "integer", "minimum": 1, "format": "int64"};
    kernel::CategoryId => "Id" {"type": "integer", "minimum": 1, "format": "int64"};
    kernel::FounderId => "Id" {"type": "integer", "minimum": 1, "format": "int64"};
    kernel::ClaimId => "Id" {"type": "integer", "minimum": 1, "format": "int64"};
    kernel::Slug => "Slug" {"type": "string", "pattern": "^[a-z0-9][a-z0-9-]{0,219}$", "maxLength": 220};
    kernel::CountryCode => "CountryCode" {"type": "string", "pattern": "^[A-Za-z]{2}$", "minLength": 2, "maxLength": 2};
    kernel::Email => "Email" {"type": "string", "pattern": kernel::Email::PATTERN, "maxLength": 254};
    kernel::WebUrl => "WebUrl" {"type": "string", "format": "uri", "maxLength": 2048};
    kernel::ImageRef => "ImageRef" {"type": "string", "pattern": kernel::ImageRef::PATTERN, "maxLength": 120};
    kernel::Week => "Week" {"type": "string", "format": "date", "description": "The Monday that names a launch week (YYYY-MM-DD)."};
}

#[cfg(test)]
mod tests;
