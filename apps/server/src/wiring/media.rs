//! Wiring of the media domain: the store the settings choose (files under the data directory,
//! or an S3-compatible bucket), the image codec, and the limits an image is held to.

use crate::settings::Settings;
use anyhow::{Context, bail};
use kernel::Clock;
use media::{ImageLimits, MediaService, MediaStore};
use std::sync::Arc;
use store_seaorm::SeaStore;

/// The media use cases.
pub fn media(settings: &Settings, store: &SeaStore, clock: &Arc<dyn Clock>) -> anyhow::Result<MediaService> {
    let media = &settings.media;
    let kept: Arc<dyn MediaStore> = match media.store.as_str() {
        "files" => Arc::new(media_store::FsMediaStore::new(settings.data_dir.join("media"))),
        "s3" => {
            let required =
                |value: &Option<String>, key: &str| value.clone().with_context(|| format!("media.{key} must be set for the s3 store"));
            let config = media_store::S3Config {
                endpoint: required(&media.s3_endpoint, "s3_endpoint")?,
                bucket: required(&media.s3_bucket, "s3_bucket")?,
                region: media.s3_region.clone(),
                access_key_id: required(&media.s3_access_key_id, "s3_access_key_id")?,
                secret_access_key: required(&media.s3_secret_access_key, "s3_secret_access_key")?,
                prefix: media.s3_prefix.clone().unwrap_or_default(),
                addressing: if media.s3_virtual_hosted {
                    media_store::S3Addressing::VirtualHosted
                } else {
                    media_store::S3Addressing::Path
                },
            };
            Arc::new(media_store::S3MediaStore::new(config).map_err(anyhow::Error::msg)?)
        }
        other => bail!("media.store must be `files` or `s3`, not {other:?}"),
    };
    let limits = ImageLimits {
        max_bytes: media.max_bytes,
        max_pixels: media.max_megapixels.saturating_mul(1_000_000),
        max_frames: media.max_frames,
        ..ImageLimits::default()
    };
    Ok(MediaService::new(kept, Arc::new(media_image::ImageCrateCodec), store.jobs(), clock.clone(), limits))
}
