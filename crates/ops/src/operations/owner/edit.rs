//! `update_my_listing`: edits of an owned listing's fields, socials, FAQs, logo and gallery, each
//! kept in the version history.

use crate::registry::{Input, Operation, OperationSpec};
use crate::spec_presets::OWNER_WRITE;
use crate::wire::{FaqInput, ListingPath, MyListingView, SchemaOf, rfc3339, socials_schema};
use crate::{App, Caller, Context, HttpMethod, InputPart, ListingServices, NoInput, OpError};
use async_trait::async_trait;
use garde::Validate;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The `update_my_listing` body. Every key is optional; send only what changes.
#[derive(Debug, Default, Deserialize, JsonSchema, Validate)]
#[serde(deny_unknown_fields)]
pub struct UpdateMyListingBody {
    /// New values of editable fields; null (or an empty string) clears one.
    #[serde(default)]
    #[schemars(schema_with = "editable_fields_schema")]
    #[garde(skip)]
    pub fields: Option<serde_json::Map<String, serde_json::Value>>,
    /// Platform key to https link; replaces all socials.
    #[serde(default)]
    #[schemars(schema_with = "socials_schema")]
    #[garde(skip)]
    pub socials: Option<std::collections::BTreeMap<String, String>>,
    /// Replaces all FAQs (at most 10).
    #[garde(length(max = 10), dive)]
    pub faqs: Option<Vec<FaqInput>>,
    /// The logo: an `image` from `upload_image`, or null to remove it.
    #[serde(default, deserialize_with = "present")]
    #[schemars(with = "Option<SchemaOf<kernel::ImageRef>>")]
    #[garde(skip)]
    pub logo: Option<Option<String>>,
    /// Replaces the gallery: at most 8 pictures, in order, each an `image` from `upload_image`
    /// with the alt text a screen reader says for it (1 to 300 characters, required). Shown
    /// publicly where the media section is unlocked.
    #[garde(skip)]
    #[schemars(extend("maxItems" = listings::GalleryImage::MAX_IMAGES))]
    pub gallery: Option<Vec<GalleryInput>>,
}

/// One picture of the gallery.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GalleryInput {
    /// An `image` from `upload_image`.
    #[schemars(with = "SchemaOf<kernel::ImageRef>")]
    pub image: String,
    /// What the picture shows, for people who cannot see it (1 to 300 characters).
    #[schemars(extend("minLength" = 1, "maxLength" = listings::GalleryImage::MAX_ALT_CHARS, "pattern" = "\\S"))]
    pub alt: String,
}

/// A key that is present, even as null (`Some(None)`), apart from one left out (`None`).
fn present<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Option<Option<String>>, D::Error> {
    Option::<String>::deserialize(deserializer).map(Some)
}

impl InputPart for UpdateMyListingBody {}

fn editable_fields_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    use listings::edit::{FieldKind, MAX_LIST_ITEM_CHARS, MAX_LIST_ITEMS};
    let mut properties = serde_json::Map::new();
    for field in listings::EditableField::ALL {
        let schema = match field.kind() {
            FieldKind::Text(max) => serde_json::json!({"type": ["string", "null"], "maxLength": max}),
            FieldKind::Country => {
                serde_json::json!({"type": ["string", "null"], "pattern": "^([A-Za-z]{2})?$", "description": "ISO 3166-1 alpha-2"})
            }
            FieldKind::Year => serde_json::json!({"type": ["integer", "null"], "minimum": 1800, "maximum": 2100}),
            FieldKind::Link => {
                serde_json::json!({"type": ["string", "null"], "maxLength": 500, "pattern": format!("^$|{}", kernel::HTTPS_LINK_PATTERN), "description": "an https link"})
            }
            FieldKind::Email => {
                serde_json::json!({"type": ["string", "null"], "maxLength": 254, "pattern": format!("^$|{}", kernel::Email::PATTERN)})
            }
            FieldKind::List => serde_json::json!({
                "type": ["array", "null"],
                "maxItems": MAX_LIST_ITEMS,
                "items": {"type": "string", "maxLength": MAX_LIST_ITEM_CHARS, "pattern": "\\S"}
            }),
        };
        properties.insert(field.as_str().to_owned(), schema);
    }
    schemars::json_schema!({"type": ["object", "null"], "properties": properties, "additionalProperties": false})
}

impl UpdateMyListingBody {
    fn into_edit(self) -> Result<listings::ListingEdit, OpError> {
        let mut errors = Vec::new();
        let fields = match self.fields.as_ref().map(listings::edit::parse_fields).transpose() {
            Ok(fields) => fields.unwrap_or_default(),
            Err(mut found) => {
                errors.append(&mut found);
                Vec::new()
            }
        };
        if let Some(socials) = &self.socials {
            kernel::check_socials("socials", socials, &mut errors);
        }
        let mut image = |at: String, raw: &str| match kernel::ImageRef::parse(raw.trim()) {
            Ok(image) => Some(image),
            Err(error) => {
                errors.push(kernel::FieldError::new(at, error.0));
                None
            }
        };
        let logo = match &self.logo {
            Some(Some(raw)) if !raw.trim().is_empty() => Some(image("logo".into(), raw)),
            Some(_) => Some(None),
            None => None,
        };
        let gallery: Option<Vec<listings::GalleryImage>> = self.gallery.as_ref().map(|pictures| {
            pictures
                .iter()
                .enumerate()
                .filter_map(|(i, picture)| {
                    image(format!("gallery[{i}].image"), &picture.image)
                        .map(|image| listings::GalleryImage { image, alt: picture.alt.trim().to_owned() })
                })
                .collect()
        });
        if let (Some(gallery), Some(inputs)) = (&gallery, &self.gallery)
            && gallery.len() == inputs.len()
        {
            listings::edit::check_gallery("gallery", gallery, &mut errors);
        }
        if !errors.is_empty() {
            return Err(OpError::Validation(errors));
        }
        Ok(listings::ListingEdit {
            fields,
            socials: self.socials,
            faqs: self.faqs.map(|faqs| {
                faqs.into_iter()
                    .map(|faq| kernel::Faq { question: faq.question.trim().to_owned(), answer: faq.answer.trim().to_owned() })
                    .collect()
            }),
            logo,
            gallery,
        })
    }
}

/// Every image the edit names must be one we keep, at the size it states; the errors name each
/// that is not (`logo`, `gallery[2].image`), and nothing is written.
async fn check_images(media: &media::MediaService, edit: &listings::ListingEdit) -> Result<(), OpError> {
    let logo = edit.logo.flatten().map(|logo| ("logo".to_owned(), logo));
    let gallery = edit.gallery.iter().flatten().enumerate().map(|(i, picture)| (format!("gallery[{i}].image"), picture.image));
    let mut errors = Vec::new();
    for (field, image) in logo.into_iter().chain(gallery) {
        match media.check(&image).await {
            Ok(()) => {}
            Err(media::MediaError::Unknown) => errors.push(kernel::FieldError::new(field, media::MediaError::Unknown.to_string())),
            Err(error) => return Err(OpError::from_media(error, &field)),
        }
    }
    if errors.is_empty() { Ok(()) } else { Err(OpError::Validation(errors)) }
}

/// One kept edit.
#[derive(Debug, Serialize, JsonSchema)]
pub struct VersionView {
    pub id: i64,
    /// The keys the edit changed.
    pub changed: Vec<String>,
    /// RFC 3339.
    pub created_at: String,
}

/// What `update_my_listing` did.
#[derive(Debug, Serialize, JsonSchema)]
pub struct UpdatedListingView {
    /// The version kept of this edit; null when it changed nothing (nothing was written).
    pub version: Option<VersionView>,
    pub listing: MyListingView,
}

pub struct UpdateMyListing;

#[async_trait]
impl Operation for UpdateMyListing {
    type Path = ListingPath;
    type Query = NoInput;
    type Body = UpdateMyListingBody;
    type Output = UpdatedListingView;
    /// The listings, and the media store its images must be in.
    type Area = App;

    const SPEC: OperationSpec = OperationSpec {
        id: "update_my_listing",
        method: HttpMethod::Patch,
        path: "/me/listings/{listing_id}",
        summary: "Edit your listing",
        description: "Sets editable fields (tagline 200, short_description 300, description 20000, pricing_model 40, pricing_summary 300, country (ISO code), city 120, founded_year 1800 to 2100, demo_video_url (https, 500), contact_email 254, features/usps/keywords (20 items of 200), headline 200, summary 20000, seo_title 200, seo_description 320; null clears), replaces socials and FAQs (at most 10); `logo` sets (an `image` from `upload_image`) or removes (null) the logo; `gallery` replaces the gallery (at most 8 pictures, each `{image, alt}`, alt text required; shown publicly where the media section is unlocked). Edits publish at once, a live listing's edit is searchable at once, and each edit is kept in the version history with the copy before and after.",
        ..OWNER_WRITE
    };

    async fn run(
        &self,
        app: Context<'_, Self::Area>,
        caller: &Caller,
        input: Input<ListingPath, NoInput, UpdateMyListingBody>,
    ) -> Result<UpdatedListingView, OpError> {
        let edit = input.body.into_edit()?;
        check_images(&app.media, &edit).await?;
        let listings = Context::<ListingServices>::of(&app);
        let (listing, version) = listings.owners.update(caller.user_id()?, input.path.id(), &edit).await?;
        if version.is_some() && listing.status == listings::ListingStatus::Live {
            // Searchable at once on this server; the others read the change within a second.
            if let Err(err) = listings.search.sync().await {
                tracing::warn!(error = %err, "could not index an edited listing now; the periodic sync will");
            }
        }
        Ok(UpdatedListingView {
            version: version.map(|v| VersionView { id: v.id, changed: v.changed, created_at: rfc3339(v.created_at) }),
            listing: MyListingView::of(listing, listings).await?,
        })
    }
}
