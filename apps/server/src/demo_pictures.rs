//! The demo directory's pictures: each listing without a logo gets one drawn from its id, and a
//! listing whose gallery shows (media unlocked) two screenshots, all kept through the media
//! service like any upload, so the demo looks like a directory rather than a row of letters.

use anyhow::Context;
use listings::GalleryImage;
use media::MediaService;
use media_image::generated;
use store_seaorm::SeaStore;

/// The most listings one call draws for (the demo has 320).
const AT_MOST: u64 = 1000;

/// Draws and keeps the pictures of the listings that lack a logo; returns how many got one.
pub async fn add(media: &MediaService, store: &SeaStore) -> anyhow::Result<usize> {
    let db = store.connection();
    let listings = store_seaorm::seed::without_pictures(db, AT_MOST).await.context("cannot read the listings without a logo")?;
    for listing in &listings {
        let seed = listing.id as u64;
        let logo = media.keep(generated::logo(seed).into()).await.context("cannot keep a drawn logo")?;
        let mut gallery = Vec::new();
        if listing.gallery_shows {
            for (n, what) in [(1, "the main screen"), (2, "the reports")] {
                let image = media.keep(generated::screenshot(seed * 10 + n).into()).await.context("cannot keep a drawn screenshot")?;
                gallery.push(GalleryImage { image, alt: format!("{}: {what}", listing.name) });
            }
        }
        store_seaorm::seed::set_pictures(db, listing.id, &logo, &gallery).await.context("cannot set a listing's pictures")?;
    }
    Ok(listings.len())
}
