//! `set_founder_avatar`: the picture of a founder of an owned listing, an image from
//! `upload_image`, shown wherever the founder is (their page, the founders list, every listing
//! of theirs). Ours, beyond the spec's tables.

use crate::registry::{Input, Operation, OperationSpec};
use crate::spec_presets::OWNER_WRITE;
use crate::wire::{ImageView, SchemaOf};
use crate::{App, Caller, Context, HttpMethod, InputPart, ListingServices, NoInput, OpError};
use async_trait::async_trait;
use garde::Validate;
use kernel::Slug;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// `{listing_id}/founders/{slug}`: a founder of one of the caller's listings.
#[derive(Debug, Deserialize, JsonSchema, Validate)]
#[serde(deny_unknown_fields)]
pub struct ListingFounderPath {
    /// The listing's id.
    #[garde(range(min = 1))]
    pub listing_id: i64,
    /// The founder's slug, as `get_listing` names the listing's founders.
    #[garde(skip)]
    #[schemars(with = "SchemaOf<Slug>")]
    pub slug: Slug,
}

impl InputPart for ListingFounderPath {}

/// The `set_founder_avatar` body.
#[derive(Debug, Deserialize, JsonSchema, Validate)]
#[serde(deny_unknown_fields)]
pub struct FounderAvatarBody {
    /// An `image` from `upload_image`, or null to remove the picture. Required: an empty body
    /// removes nothing.
    #[serde(deserialize_with = "Option::deserialize")]
    #[schemars(with = "Option<SchemaOf<kernel::ImageRef>>", required)]
    #[garde(skip)]
    pub avatar: Option<String>,
}

impl InputPart for FounderAvatarBody {}

/// What `set_founder_avatar` did.
#[derive(Debug, Serialize, JsonSchema)]
pub struct FounderAvatarView {
    pub listing_id: i64,
    #[schemars(with = "SchemaOf<Slug>")]
    pub founder: Slug,
    /// The picture now shown, null when it was removed.
    pub avatar: Option<ImageView>,
}

pub struct SetFounderAvatar;

#[async_trait]
impl Operation for SetFounderAvatar {
    type Path = ListingFounderPath;
    type Query = NoInput;
    type Body = FounderAvatarBody;
    type Output = FounderAvatarView;
    /// The listings, and the media store the picture must be in.
    type Area = App;

    const SPEC: OperationSpec = OperationSpec {
        id: "set_founder_avatar",
        method: HttpMethod::Put,
        path: "/me/listings/{listing_id}/founders/{slug}/avatar",
        summary: "Set a founder's picture",
        description: "Sets (an `image` from `upload_image`) or removes (null) the picture of a founder of your listing. It shows wherever the founder does: their page, the founders list, and every listing of theirs. A listing you do not own, or a founder not of this listing, is a 404; an image we do not keep is a 400 naming `avatar`.",
        ..OWNER_WRITE
    };

    async fn run(
        &self,
        app: Context<'_, Self::Area>,
        caller: &Caller,
        input: Input<ListingFounderPath, NoInput, FounderAvatarBody>,
    ) -> Result<FounderAvatarView, OpError> {
        let avatar = match input.body.avatar.as_deref().map(str::trim) {
            None | Some("") => None,
            Some(raw) => Some(kernel::ImageRef::parse(raw).map_err(|error| OpError::field("avatar", error.0))?),
        };
        if let Some(image) = &avatar {
            app.media.check(image).await.map_err(|error| OpError::from_media(error, "avatar"))?;
        }
        let path = input.path;
        let listings = Context::<ListingServices>::of(&app);
        listings.owners.set_founder_avatar(caller.user_id()?, kernel::ListingId::new(path.listing_id), &path.slug, avatar).await?;
        Ok(FounderAvatarView {
            listing_id: path.listing_id,
            founder: path.slug,
            avatar: avatar.map(|image| ImageView::new(&image, &app.site.site_url)),
        })
    }
}
