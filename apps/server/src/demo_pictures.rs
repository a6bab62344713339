//! The demo directory's pictures: each listing without a logo gets one drawn from its id, a
//! listing whose gallery shows (media unlocked) two screenshots, and each founder a portrait, all
//! kept through the media service like any upload but queueing no scaling jobs (a seed's hundreds
//! would queue ahead of everyone's): each scaled copy is made when first asked for. So the demo
//! looks like a directory, not a row of letters.

use anyhow::Context;
use futures_util::{StreamExt, TryStreamExt, stream};
use listings::GalleryImage;
use media::MediaService;
use media_image::generated;
use store_seaorm::SeaStore;

/// The most listings one call draws for (the demo has 320).
const AT_MOST: u64 = 1000;

/// Draws and keeps the pictures of the listings that lack a logo; returns how many got one.
/// Drawing and scaling is work for the processor, so as many listings are drawn at once as
/// there are cores (the server answers nobody until the demo has its pictures).
pub async fn add(media: &MediaService, store: &SeaStore) -> anyhow::Result<usize> {
    let db = store.connection();
    let at_once = std::thread::available_parallelism().map_or(2, std::num::NonZero::get);
    let listings = store_seaorm::seed::without_pictures(db, AT_MOST).await.context("cannot read the listings without a logo")?;
    let pictured = listings.len();
    stream::iter(listings)
        .map(|listing| async move {
            let seed = listing.id as u64;
            let logo = media.keep_unqueued(generated::logo(seed).into()).await.context("cannot keep a drawn logo")?;
            let mut gallery = Vec::new();
            if listing.gallery_shows {
                for (n, what) in [(1, "the main screen"), (2, "the reports")] {
                    let image =
                        media.keep_unqueued(generated::screenshot(seed * 10 + n).into()).await.context("cannot keep a drawn screenshot")?;
                    gallery.push(GalleryImage { image, alt: format!("{}: {what}", listing.name) });
                }
            }
            store_seaorm::seed::set_pictures(db, listing.id, &logo, &gallery).await.context("cannot set a listing's pictures")
        })
        .buffer_unordered(at_once)
        .try_collect::<()>()
        .await?;
    let founders = store_seaorm::seed::founders_without_avatar(db, AT_MOST).await.context("cannot read the founders without a picture")?;
    stream::iter(founders)
        .map(|founder| async move {
            let avatar = media.keep_unqueued(generated::avatar(founder as u64).into()).await.context("cannot keep a drawn portrait")?;
            store_seaorm::seed::set_founder_avatar(db, founder, &avatar).await.context("cannot set a founder's picture")
        })
        .buffer_unordered(at_once)
        .try_collect::<()>()
        .await?;
    Ok(pictured)
}

/// How many logos the bulk seed draws: its listings share them (a logo is kept once, by hash),
/// as many listings share a look in a large directory's long tail.
pub const BULK_LOGOS: u64 = 500;

/// Draws the bulk seed's logos, gives each generated listing one of them, and names the copies
/// cards ask for in `{data_dir}/bulk-logos.txt`, where the benchmark reads them. Kept as an
/// upload is, each queues its scaling job: the server's workers make the copies once it starts,
/// as they would for a directory this size.
pub async fn add_bulk(media: &MediaService, store: &SeaStore, data_dir: &std::path::Path) -> anyhow::Result<u64> {
    let mut logos = Vec::new();
    for n in 0..BULK_LOGOS {
        let logo = media.keep(generated::logo(1_000_000 + n).into()).await.context("cannot keep a drawn logo")?;
        logos.push(logo);
    }
    let given = store_seaorm::seed::set_bulk_logos(store.connection(), &logos).await.context("cannot give the generated listings logos")?;
    let names: Vec<String> = logos.iter().map(|logo| logo.object_name(logo.size_for(::web::CARD_LOGO_PX))).collect();
    std::fs::write(data_dir.join("bulk-logos.txt"), names.join("\n")).context("cannot write bulk-logos.txt")?;
    Ok(given)
}
