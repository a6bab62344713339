//! `upload_image`: an image handed to us (a logo, a gallery picture, an avatar) made safe and
//! kept; the reference it answers with goes into the image fields of `update_my_listing`.
//! Ours, beyond the spec's tables.

use crate::registry::{Input, Operation, OperationSpec};
use crate::wire::ImageView;
use crate::{Caller, Context, HttpMethod, InputPart, NoInput, OpError, RateClass};
use accounts::Scope;
use async_trait::async_trait;
use base64::Engine;
use garde::Validate;
use media::MediaService;
use schemars::JsonSchema;
use serde::Deserialize;

/// The `upload_image` body.
#[derive(Debug, Deserialize, JsonSchema, Validate)]
#[serde(deny_unknown_fields)]
pub struct UploadImageBody {
    /// The image file in base64 (standard alphabet; padding optional): PNG, JPEG, WebP, GIF (its
    /// first frame is kept) or SVG (drawn to pixels; refused when it holds scripts, event
    /// handlers, external references or text). At most 10 MiB and 40 megapixels unless the site
    /// sets other limits.
    #[garde(length(min = 1))]
    #[schemars(extend("pattern" = BASE64_PATTERN))]
    pub data: String,
}

/// Base64 in the standard alphabet, in whole groups of four with an optional padded tail.
const BASE64_PATTERN: &str = r"^([A-Za-z0-9+/]{4})*([A-Za-z0-9+/]{2}={0,2}|[A-Za-z0-9+/]{3}=?)?$";

/// Reads what [`BASE64_PATTERN`] describes: padding optional, and the unused low bits of a
/// short tail ignored, as browsers' and most libraries' encoders leave them zero anyway.
const BASE64: base64::engine::GeneralPurpose = base64::engine::GeneralPurpose::new(
    &base64::alphabet::STANDARD,
    base64::engine::GeneralPurposeConfig::new()
        .with_decode_padding_mode(base64::engine::DecodePaddingMode::Indifferent)
        .with_decode_allow_trailing_bits(true),
);

impl InputPart for UploadImageBody {}

pub struct UploadImage;

#[async_trait]
impl Operation for UploadImage {
    type Path = NoInput;
    type Query = NoInput;
    type Body = UploadImageBody;
    type Output = ImageView;
    type Area = MediaService;

    const SPEC: OperationSpec = OperationSpec {
        id: "upload_image",
        method: HttpMethod::Post,
        path: "/me/images",
        scope: Some(Scope::ListingsWrite),
        idempotent: true,
        success_status: 201,
        summary: "Upload an image",
        description: "Keeps an image for a listing's logo or gallery: decoded within the site's limits (10 MiB, 40 megapixels and 100 frames by default), turned upright, cut to its first frame, stripped of its metadata and written again as JPEG (opaque) or lossless WebP (transparent); SVG is drawn to pixels. Answers with the image's reference for `update_my_listing` (`logo`, `gallery`) and its addresses on our origin. The same picture uploaded twice is the same image. A file that is not an image, too large, an animation of too many frames, or an SVG that could run or fetch anything is a 400 naming `data`, and nothing is kept.",
        tag: "owner",
        rate: RateClass::Write,
        // Room for an image well past the default 10 MiB limit in base64, so one too large is
        // refused by what it is ("is 12582912 bytes; an image may have at most ...") rather
        // than by the size of the request.
        max_body_bytes: 20 * 1024 * 1024,
        ..OperationSpec::READ
    };

    async fn run(
        &self,
        media: Context<'_, MediaService>,
        _caller: &Caller,
        input: Input<NoInput, NoInput, UploadImageBody>,
    ) -> Result<ImageView, OpError> {
        let data = input.body.data.trim();
        let bytes = BASE64.decode(data).map_err(|_| OpError::field("data", "must be the image file in base64 (A-Z, a-z, 0-9, + and /)"))?;
        let image = media.keep(bytes.into()).await.map_err(|error| OpError::from_media(error, "data"))?;
        Ok(ImageView::new(&image, &media.site.site_url))
    }
}

#[cfg(test)]
mod tests {
    use super::{BASE64, BASE64_PATTERN};
    use base64::Engine;

    /// The schema promises what the decoder reads: a string the pattern admits decodes, and one
    /// it refuses does not, so a schema-valid upload is refused only for what its bytes are.
    #[test]
    fn the_schema_pattern_admits_exactly_what_decodes() {
        let pattern = regex::Regex::new(BASE64_PATTERN).unwrap();
        for raw in [
            "",
            "AA",
            "AA==",
            "AB",
            "ABC",
            "ABC=",
            "ABCD",
            "iVBORw0KGgo",
            "iVBORw0KGgo=",
            "+/+/",
            "A",
            "AB=",
            "ABCDE",
            "AA=A",
            "AB C",
            "AB-_",
            "ABC==",
        ] {
            assert_eq!(pattern.is_match(raw), BASE64.decode(raw).is_ok(), "{raw:?}");
        }
    }
}
