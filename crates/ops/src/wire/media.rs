//! How a kept image is written in answers: its reference (what image fields take), its address
//! on our origin, its size, and its scaled copies.

use kernel::{ImageRef, ImageSize};
use schemars::JsonSchema;
use serde::Serialize;

/// A kept image.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ImageView {
    /// The reference image fields take (`logo`, `gallery[].image` of `update_my_listing`).
    pub image: String,
    /// The kept original, on our origin.
    pub url: String,
    pub width: u32,
    pub height: u32,
    /// `image/jpeg` (opaque) or `image/webp` (with transparency).
    pub content_type: &'static str,
    /// Scaled copies for smaller places, narrowest first.
    pub sizes: Vec<ImageSizeView>,
}

/// One scaled copy of a kept image.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ImageSizeView {
    pub width: u32,
    pub height: u32,
    pub url: String,
}

impl ImageView {
    /// `image` with absolute addresses under `site_url`.
    pub fn new(image: &ImageRef, site_url: &str) -> Self {
        Self {
            image: image.to_string(),
            url: format!("{site_url}{}", image.path(ImageSize::Original)),
            width: image.width(),
            height: image.height(),
            content_type: image.format().content_type(),
            sizes: image
                .scaled_widths()
                .map(|width| ImageSizeView {
                    width,
                    height: image.height_at(ImageSize::Width(width)),
                    url: format!("{site_url}{}", image.path(ImageSize::Width(width))),
                })
                .collect(),
        }
    }
}
