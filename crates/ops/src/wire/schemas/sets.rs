//! The closed sets of names of the domains (statuses, states, reasons, scopes): each listed with
//! what a caller is told of it. The names on the wire come from serde, never from a second copy;
//! a variant added to a domain type and missing here fails to compile, and a set without
//! descriptions is read from the domain's own list of every variant.

use super::SchemaOf;
use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::Serialize;
use std::borrow::Cow;

/// The name serde writes for one variant.
fn wire_name(variant: &impl Serialize) -> String {
    match serde_json::to_value(variant) {
        Ok(serde_json::Value::String(name)) => name,
        other => unreachable!("a closed set serialises as a string, not {other:?}"),
    }
}

/// A closed set: `[A, B]` lists its names; `[A => "what A means", ...]` describes each;
/// `every ALL` takes the names from the domain's own list of every variant.
macro_rules! closed_set {
    ($ty:ident, $doc:literal, every $all:expr) => {
        impl JsonSchema for SchemaOf<$ty> {
            fn schema_name() -> Cow<'static, str> {
                stringify!($ty).into()
            }

            fn json_schema(_: &mut SchemaGenerator) -> Schema {
                let names: Vec<String> = $all.iter().map(wire_name).collect();
                json_schema!({"type": "string", "enum": names, "description": $doc})
            }
        }
    };
    ($ty:ident, $doc:literal, [$($variant:ident),+ $(,)?]) => {
        const _: fn($ty) = |value| match value { $($ty::$variant => ()),+ };

        impl JsonSchema for SchemaOf<$ty> {
            fn schema_name() -> Cow<'static, str> {
                stringify!($ty).into()
            }

            fn json_schema(_: &mut SchemaGenerator) -> Schema {
                json_schema!({"type": "string", "enum": [$(wire_name(&$ty::$variant)),+], "description": $doc})
            }
        }
    };
    ($ty:ident, $doc:literal, [$($variant:ident => $meaning:literal),+ $(,)?]) => {
        const _: fn($ty) = |value| match value { $($ty::$variant => ()),+ };

        impl JsonSchema for SchemaOf<$ty> {
            fn schema_name() -> Cow<'static, str> {
                stringify!($ty).into()
            }

            fn json_schema(_: &mut SchemaGenerator) -> Schema {
                json_schema!({
                    "oneOf": [$({"type": "string", "const": wire_name(&$ty::$variant), "description": $meaning}),+],
                    "description": $doc
                })
            }
        }
    };
}

use accounts::Scope;
use drafts::{Basis, DraftStatus, FailureReason, FieldName, FieldState, PictureRole};
use listings::ListingStatus;
use orders::{OrderStatus, VatNumberCheck, VatTreatment, WeekRule};

closed_set!(
    ListingStatus,
    "Where a listing is in its life. The free plan moves `draft` -> `awaiting_badge` ->\n`scheduled` -> `live`; a paid launch moves `draft` -> `scheduled` or `live`.",
    [Draft, AwaitingBadge, Scheduled, Live, Archived]
);

closed_set!(
    Scope,
    "A permission an operation may need. Scopes are independent: none implies another.",
    every Scope::ALL
);

closed_set!(DraftStatus, "Where a draft stands.", [
    Crawling => "Reading the website.",
    Drafting => "Writing the profile from what was read.",
    Ready => "Ready to edit and submit.",
    Failed => "The site could not be read; `failure_reason` says why.",
    Submitted => "Submitted as a listing; edits still flow to it.",
]);

closed_set!(FailureReason, "Why a site could not be read.", [
    RobotsDisallowed => "robots.txt does not let our bot read the homepage.",
    Unreachable => "The site did not answer, or answered with an error.",
    NotHtml => "The homepage is not an HTML page.",
    BlockedAddress => "The address (or one it redirects to) is private or reserved.",
    TooLarge => "The homepage is larger than we read.",
    Internal => "Reading or drafting failed on our side, several times.",
]);

closed_set!(FieldName, "The 18 editable profile fields of a draft.", every FieldName::ALL);

closed_set!(PictureRole, "What a draft's picture is to the listing.", [
    Logo => "The listing's logo (the first kept one).",
    Screenshot => "A picture of the product, for the listing's gallery.",
]);

closed_set!(FieldState, "The state of a value.", [
    Ai => "Drafted from the website, with evidence.",
    NotFound => "The website does not state it; left blank on purpose.",
    Edited => "The caller changed a drafted value.",
    Manual => "The caller filled a value the website did not state.",
    Override => "Locked by the caller against AI redrafts.",
    Deleted => "Removed by the caller.",
]);

closed_set!(
    Basis,
    "What kind of evidence a quote is. Founders, pricing and the founding year accept only some\nkinds (`crate::meaning`); the grounding check refuses a claim the page does not bear out.",
    [
        StructuredData => "A value of the page's schema.org JSON-LD (`Organization.founder`, `Offer`, `foundingDate`, ...).",
        LabelledSection => "Text under a heading, or on a page, named for what the value is (a pricing page, a team\nsection, a features list).",
        NamesProduct => "A sentence that names the product.",
        Metadata => "The page's title, meta tags, OpenGraph or a link, image or frame address.",
        PageText => "Other visible text of the page.",
    ]
);

closed_set!(OrderStatus, "Where an order is (`decisions.md`, Statuses: Order).", [
    Pending => "Created by checkout, waiting for payment (24 hours).",
    Paid => "Paid; its lines are being fulfilled.",
    Fulfilled => "Every line fulfilled.",
    Expired => "Not paid within 24 hours.",
    Canceled => "Canceled before payment.",
    Refunded => "The payment was given back.",
    NeedsReview => "A payment arrived that does not match the order (amount or currency): the site team looks at it.",
]);

closed_set!(WeekRule, "Whether and from which window a product lets the buyer choose a launch week.", [
    None => "The product has nothing to do with a week.",
    Optional => "A week may be chosen among the paid weeks; without one the product takes effect at once.",
    Required => "A week must be chosen among the paid weeks.",
    RequiredBeforeFreeQueue => "A week must be chosen before the free queue begins (skip the queue).",
]);

closed_set!(VatNumberCheck, "Which check a VAT number passed or failed.", [
    None => "No VAT number was given.",
    Checksum => "Format and check digits, offline.",
    Vies => "Confirmed (or refused) by the EU's VIES service.",
    ViesUnavailable => "The offline check passed and VIES could not answer: the number is taken as valid for now.",
]);

closed_set!(VatTreatment, "Why an order is charged the VAT it is.", [
    CountryNeeded => "No billing country yet: no VAT shown; the checkout page asks for the country before payment.",
    Domestic => "The buyer is in the seller's country: that country's rate.",
    EuConsumer => "An EU buyer without a valid VAT number: the buyer country's rate.",
    ReverseCharge => "An EU business with a valid VAT number in another member state: 0 %, the buyer accounts for it.",
    OutsideScope => "Outside the EU: 0 %, outside the scope of EU VAT.",
]);
