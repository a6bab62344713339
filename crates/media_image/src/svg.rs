//! SVG: read as XML without a DTD, refused when it could run or fetch anything, then drawn to
//! pixels. The markup itself is never kept.

use crate::raster;
use image::{DynamicImage, RgbaImage};
use media::{CleanImage, ImageLimits, ImageRefusal};
use resvg::{tiny_skia, usvg};

/// The longer side an SVG is drawn at: enough for a logo on a dense screen.
const DRAWN_SIDE: f32 = 512.0;

/// Whether the bytes start like an SVG document (after an XML declaration or comments).
pub(crate) fn looks_like_svg(bytes: &[u8]) -> bool {
    let head = String::from_utf8_lossy(&bytes[..bytes.len().min(4096)]).to_ascii_lowercase();
    head.contains("<svg")
}

pub(crate) fn clean(bytes: &[u8], limits: ImageLimits) -> Result<CleanImage, ImageRefusal> {
    let broken = |detail: String| ImageRefusal::Broken { format: "SVG", detail };
    let text = std::str::from_utf8(bytes).map_err(|_| broken("it is not UTF-8 text".into()))?;
    // roxmltree refuses a DTD by default, and with it entity expansion bombs.
    let document = roxmltree::Document::parse(text).map_err(|error| broken(error.to_string()))?;
    check(&document)?;
    let tree = usvg::Tree::from_data(bytes, &usvg::Options::default()).map_err(|error| broken(error.to_string()))?;
    let size = tree.size();
    let scale = DRAWN_SIDE / size.width().max(size.height());
    let width = ((size.width() * scale).round() as u32).clamp(1, limits.max_side);
    let height = ((size.height() * scale).round() as u32).clamp(1, limits.max_side);
    let mut pixmap = tiny_skia::Pixmap::new(width, height).ok_or_else(|| broken("it has no area".into()))?;
    resvg::render(&tree, tiny_skia::Transform::from_scale(scale, scale), &mut pixmap.as_mut());
    let mut rgba = RgbaImage::new(width, height);
    for (to, from) in rgba.pixels_mut().zip(pixmap.pixels()) {
        let pixel = from.demultiply();
        to.0 = [pixel.red(), pixel.green(), pixel.blue(), pixel.alpha()];
    }
    raster::encode(DynamicImage::ImageRgba8(rgba)).map_err(broken)
}

/// Refuses what a browser would run or fetch if the markup were shown, and text, which would
/// be drawn in whatever font the server has.
fn check(document: &roxmltree::Document<'_>) -> Result<(), ImageRefusal> {
    for node in document.descendants().filter(roxmltree::Node::is_element) {
        let tag = node.tag_name().name().to_ascii_lowercase();
        match tag.as_str() {
            "script" => return Err(ImageRefusal::UnsafeSvg("runs a script")),
            "foreignobject" => return Err(ImageRefusal::UnsafeSvg("holds HTML")),
            "image" | "feimage" => return Err(ImageRefusal::UnsafeSvg("embeds another picture (upload that picture itself)")),
            "text" | "tspan" | "textpath" => return Err(ImageRefusal::UnsafeSvg("holds text (convert the text to paths)")),
            "style" if node.text().is_some_and(fetches) => return Err(ImageRefusal::UnsafeSvg("loads something from elsewhere")),
            _ => {}
        }
        for attribute in node.attributes() {
            let name = attribute.name().to_ascii_lowercase();
            let value = attribute.value().trim().to_ascii_lowercase();
            if name.starts_with("on") {
                return Err(ImageRefusal::UnsafeSvg("has event handlers, which run scripts"));
            }
            if value.contains("javascript:") {
                return Err(ImageRefusal::UnsafeSvg("runs a script"));
            }
            if (name == "href" && !value.starts_with('#')) || fetches(&value) {
                return Err(ImageRefusal::UnsafeSvg("loads something from elsewhere"));
            }
        }
    }
    Ok(())
}

/// Whether CSS or an attribute value points outside the document (`url(...)` not to `#id`, or
/// `@import`).
fn fetches(css: &str) -> bool {
    let css = css.to_ascii_lowercase();
    css.contains("@import")
        || css.match_indices("url(").any(|(at, _)| !css[at + 4..].trim_start().trim_start_matches(['"', '\'']).starts_with('#'))
}
