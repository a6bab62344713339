//! Raster images: limits from the header, the first frame decoded, frames of an animation
//! counted, orientation applied, and the pixels written again in our format.

use image::codecs::gif::GifDecoder;
use image::codecs::jpeg::JpegEncoder;
use image::codecs::png::PngDecoder;
use image::codecs::webp::{WebPDecoder, WebPEncoder};
use image::{AnimationDecoder, DynamicImage, ImageDecoder, ImageReader, Limits, RgbaImage, imageops};
use kernel::ImageFormat;
use media::{CleanImage, ImageLimits, ImageRefusal};
use std::io::Cursor;

/// JPEG quality of kept photos and screenshots: text stays sharp, files stay small.
const JPEG_QUALITY: u8 = 85;

pub(crate) fn clean(bytes: &[u8], format: image::ImageFormat, limits: ImageLimits) -> Result<CleanImage, ImageRefusal> {
    let name = match format {
        image::ImageFormat::Png => "PNG",
        image::ImageFormat::Jpeg => "JPEG",
        image::ImageFormat::WebP => "WebP",
        image::ImageFormat::Gif => "GIF",
        _ => return Err(ImageRefusal::NotAnImage),
    };
    let unreadable = |error: image::ImageError| ImageRefusal::Broken { format: name, detail: error.to_string() };
    // The header alone says how big the picture is: a bomb is refused before it is decoded.
    let (width, height) = ImageReader::with_format(Cursor::new(bytes), format).into_dimensions().map_err(unreadable)?;
    check_size(width, height, limits)?;
    let broken = |error: image::ImageError| match error {
        image::ImageError::Limits(_) => {
            ImageRefusal::TooManyPixels { width, height, max_pixels: limits.max_pixels, max_side: limits.max_side }
        }
        other => ImageRefusal::Broken { format: name, detail: other.to_string() },
    };
    let frames = frame_count(bytes, format, limits).map_err(broken)?;
    if frames > limits.max_frames {
        return Err(ImageRefusal::TooManyFrames { max: limits.max_frames });
    }
    let mut reader = ImageReader::with_format(Cursor::new(bytes), format);
    reader.limits(decoder_limits(limits));
    let mut decoder = reader.into_decoder().map_err(broken)?;
    let orientation = decoder.orientation().map_err(broken)?;
    let mut picture = DynamicImage::from_decoder(decoder).map_err(broken)?;
    picture.apply_orientation(orientation);
    encode(picture).map_err(|detail| ImageRefusal::Broken { format: name, detail })
}

fn check_size(width: u32, height: u32, limits: ImageLimits) -> Result<(), ImageRefusal> {
    let pixels = u64::from(width) * u64::from(height);
    if width == 0 || height == 0 || pixels > limits.max_pixels || width.max(height) > limits.max_side {
        return Err(ImageRefusal::TooManyPixels { width, height, max_pixels: limits.max_pixels, max_side: limits.max_side });
    }
    Ok(())
}

/// The decoders' own limits, as a second guard behind the header check.
fn decoder_limits(limits: ImageLimits) -> Limits {
    let mut decoder = Limits::default();
    decoder.max_image_width = Some(limits.max_side);
    decoder.max_image_height = Some(limits.max_side);
    // One frame in RGBA at 16 bits a channel, and as much again for the decoder's own buffers.
    decoder.max_alloc = Some(limits.max_pixels * 8 * 2);
    decoder
}

/// How many frames an image has, counting no further than one past the limit. Each frame is
/// decoded (and dropped) in turn: formats do not state their frame count reliably.
fn frame_count(bytes: &[u8], format: image::ImageFormat, limits: ImageLimits) -> image::ImageResult<u32> {
    let count = |frames: image::Frames<'_>| -> image::ImageResult<u32> {
        let mut count = 0;
        for frame in frames.take(limits.max_frames as usize + 1) {
            frame?;
            count += 1;
        }
        Ok(count)
    };
    match format {
        image::ImageFormat::Gif => {
            let mut decoder = GifDecoder::new(Cursor::new(bytes))?;
            decoder.set_limits(decoder_limits(limits))?;
            count(decoder.into_frames())
        }
        image::ImageFormat::WebP => {
            let mut decoder = WebPDecoder::new(Cursor::new(bytes))?;
            if !decoder.has_animation() {
                return Ok(1);
            }
            decoder.set_limits(decoder_limits(limits))?;
            count(decoder.into_frames())
        }
        image::ImageFormat::Png => {
            let decoder = PngDecoder::with_limits(Cursor::new(bytes), decoder_limits(limits))?;
            if !decoder.is_apng()? {
                return Ok(1);
            }
            count(decoder.apng()?.into_frames())
        }
        _ => Ok(1),
    }
}

/// Writes pixels in our format: lossless WebP when any pixel is see-through, JPEG otherwise.
pub(crate) fn encode(picture: DynamicImage) -> Result<CleanImage, String> {
    let (width, height) = (picture.width(), picture.height());
    let see_through = picture.color().has_alpha() && picture.to_rgba8().pixels().any(|pixel| pixel.0[3] < 255);
    let format = if see_through { ImageFormat::Webp } else { ImageFormat::Jpeg };
    let bytes = write(&picture, format)?;
    Ok(CleanImage { bytes, format, width, height })
}

fn write(picture: &DynamicImage, format: ImageFormat) -> Result<Vec<u8>, String> {
    let mut bytes = Vec::new();
    match format {
        ImageFormat::Jpeg => {
            JpegEncoder::new_with_quality(&mut bytes, JPEG_QUALITY).encode_image(&picture.to_rgb8()).map_err(|e| e.to_string())?
        }
        ImageFormat::Webp => {
            let rgba = picture.to_rgba8();
            WebPEncoder::new_lossless(&mut bytes)
                .encode(rgba.as_raw(), rgba.width(), rgba.height(), image::ExtendedColorType::Rgba8)
                .map_err(|e| e.to_string())?
        }
        ImageFormat::Png => {
            picture.to_rgba8().write_to(&mut Cursor::new(&mut bytes), image::ImageFormat::Png).map_err(|e| e.to_string())?
        }
    }
    Ok(bytes)
}

fn image_format(format: ImageFormat) -> image::ImageFormat {
    match format {
        ImageFormat::Jpeg => image::ImageFormat::Jpeg,
        ImageFormat::Webp => image::ImageFormat::WebP,
        ImageFormat::Png => image::ImageFormat::Png,
    }
}

pub(crate) fn dimensions(bytes: &[u8], format: ImageFormat) -> Option<(u32, u32)> {
    ImageReader::with_format(Cursor::new(bytes), image_format(format)).into_dimensions().ok()
}

/// A kept original scaled to `width`. See-through pixels are scaled premultiplied, so a logo's
/// edges do not darken where its colour meets transparency.
pub(crate) fn scale(original: &[u8], format: ImageFormat, width: u32) -> Result<Vec<u8>, String> {
    let picture = image::load_from_memory_with_format(original, image_format(format)).map_err(|e| e.to_string())?;
    if width >= picture.width() {
        return Err(format!("{width} px is not narrower than the original's {} px", picture.width()));
    }
    let height = kernel::scaled_height(picture.width(), picture.height(), width);
    let scaled = match format {
        ImageFormat::Jpeg => DynamicImage::ImageRgb8(resize_rgb(&picture.to_rgb8(), width, height)),
        ImageFormat::Webp | ImageFormat::Png => DynamicImage::ImageRgba8(scale_premultiplied(&picture.to_rgba8(), width, height)),
    };
    write(&scaled, format)
}

/// Scales `picture` down to `width` × `height`. A filter's cost grows with how much it shrinks
/// (a 960 px screenshot to 64 px weighed 30 source pixels per output pixel, per pass, and drawing
/// the demo's pictures spent most of a minute there), so a picture more than twice as wide is
/// first averaged down to twice the width (area sampling: cheap and free of aliasing), and the
/// sharp Catmull-Rom filter only does the last step. (Written for each pixel type because the
/// `image` crate does not export the bound its `thumbnail` needs.)
fn resize_rgb(picture: &image::RgbImage, width: u32, height: u32) -> image::RgbImage {
    match first_step(picture.dimensions(), (width, height)) {
        Some((w, h)) => imageops::resize(&imageops::thumbnail(picture, w, h), width, height, imageops::FilterType::CatmullRom),
        None => imageops::resize(picture, width, height, imageops::FilterType::CatmullRom),
    }
}

fn resize_rgba_f32(picture: &image::Rgba32FImage, width: u32, height: u32) -> image::Rgba32FImage {
    match first_step(picture.dimensions(), (width, height)) {
        Some((w, h)) => imageops::resize(&imageops::thumbnail(picture, w, h), width, height, imageops::FilterType::CatmullRom),
        None => imageops::resize(picture, width, height, imageops::FilterType::CatmullRom),
    }
}

/// The size to average down to first, when the picture is more than twice the target's.
fn first_step((from_width, from_height): (u32, u32), (width, height): (u32, u32)) -> Option<(u32, u32)> {
    (from_width > 2 * width && from_height > 2 * height).then_some((2 * width, 2 * height))
}

fn scale_premultiplied(rgba: &RgbaImage, width: u32, height: u32) -> RgbaImage {
    let mut premultiplied = image::Rgba32FImage::new(rgba.width(), rgba.height());
    for (to, from) in premultiplied.pixels_mut().zip(rgba.pixels()) {
        let alpha = f32::from(from.0[3]) / 255.0;
        to.0 = [f32::from(from.0[0]) / 255.0 * alpha, f32::from(from.0[1]) / 255.0 * alpha, f32::from(from.0[2]) / 255.0 * alpha, alpha];
    }
    let scaled = resize_rgba_f32(&premultiplied, width, height);
    let mut out = RgbaImage::new(width, height);
    for (to, from) in out.pixels_mut().zip(scaled.pixels()) {
        let alpha = from.0[3].clamp(0.0, 1.0);
        let channel = |value: f32| if alpha > 0.0 { ((value / alpha).clamp(0.0, 1.0) * 255.0).round() as u8 } else { 0 };
        to.0 = [channel(from.0[0]), channel(from.0[1]), channel(from.0[2]), (alpha * 255.0).round() as u8];
    }
    out
}
