//! What the media domain works with: the limits an image is held to, a cleaned image, the
//! reasons an image is refused, and what serving a copy answers.

use bytes::Bytes;
use kernel::ImageFormat;

/// What an image may be before it is decoded: bigger ones are refused from their header, before
/// any pixel is allocated. Set by the site's settings (`media.*`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ImageLimits {
    /// The most bytes an upload or fetched image may have.
    pub max_bytes: usize,
    /// The most pixels (width × height) of one frame.
    pub max_pixels: u64,
    /// The longest side, in pixels (encoders stop at 16,383).
    pub max_side: u32,
    /// The most frames of an animated image (only the first is kept).
    pub max_frames: u32,
}

impl Default for ImageLimits {
    /// 10 MiB, 40 megapixels, 16,000 px a side, 100 frames (`design/decisions.md`).
    fn default() -> Self {
        Self { max_bytes: 10 * 1024 * 1024, max_pixels: 40_000_000, max_side: 16_000, max_frames: 100 }
    }
}

/// An image decoded and written again in one of our formats, with nothing of the upload's
/// metadata left (EXIF, colour profiles, comments); orientation is applied first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CleanImage {
    pub bytes: Vec<u8>,
    pub format: ImageFormat,
    pub width: u32,
    pub height: u32,
}

/// Why an image was refused. The message is shown beside the field it came in (API and pages)
/// as is, so it says what to do.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ImageRefusal {
    #[error("is empty")]
    Empty,
    #[error("is {bytes} bytes; an image may have at most {max} bytes ({} MiB)", max / (1024 * 1024))]
    TooManyBytes { bytes: usize, max: usize },
    #[error("is not an image we can read (PNG, JPEG, WebP, GIF or SVG)")]
    NotAnImage,
    #[error("could not be read as a {format} image: {detail}")]
    Broken { format: &'static str, detail: String },
    #[error("is {width} × {height} pixels; an image may have at most {max_pixels} pixels and {max_side} a side")]
    TooManyPixels { width: u32, height: u32, max_pixels: u64, max_side: u32 },
    #[error("has more than {max} frames; upload a still image or a shorter animation")]
    TooManyFrames { max: u32 },
    #[error("is an SVG that {0}; SVG images may hold only shapes, paths and gradients")]
    UnsafeSvg(&'static str),
}

/// The media store could not be reached or refused a write.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the media store failed: {0}")]
pub struct StoreError(pub String);

/// Why keeping or serving an image failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MediaError {
    /// The image itself: a 400 naming the field it came in.
    #[error(transparent)]
    Refused(#[from] ImageRefusal),
    /// An image reference that names no image we keep, or names it with another size.
    #[error("is not an image of ours (upload_image answers with one)")]
    Unknown,
    #[error(transparent)]
    Store(#[from] StoreError),
    /// Scaling a kept original failed: the original is damaged.
    #[error("the kept image could not be scaled: {0}")]
    Scale(String),
    /// Drawing a social card failed.
    #[error("the social card could not be drawn: {0}")]
    Draw(String),
}

/// A stored copy, ready to be sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Served {
    pub bytes: Bytes,
    pub content_type: &'static str,
    /// The object's name (`<hash>-<size>.<ext>`): it never changes, so it is the `ETag` too.
    pub name: String,
}
