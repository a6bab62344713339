//! The media domain: images people and crawls hand us are decoded within limits and re-encoded
//! without their metadata (`ImageCodec`), kept under the SHA-256 of the clean bytes
//! (`MediaStore`), scaled to the widths pages use by a background job (or on the first request
//! for a copy not made yet), and served from our own origin. Social cards (`SocialCard`) are
//! drawn by the codec on their first request and kept the same way, named by what they say.
//! Nothing here knows how images are decoded or where the bytes live: adapters implement the
//! ports.

mod card;
mod model;
mod ports;
mod service;
#[cfg(any(test, feature = "testing"))]
pub mod testing;

pub use card::SocialCard;
pub use model::{CleanImage, ImageLimits, ImageRefusal, MediaError, Served, StoreError};
pub use ports::{ImageCodec, MediaStore};
pub use service::{MediaService, ScaleImage};
