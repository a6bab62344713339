//! `MediaStore` adapters: the local file system under the data directory (the default, nothing
//! to set up) and S3-compatible object storage (several servers sharing one bucket). Both keep
//! an object under its name, written once; the store tests run the same cases against each.

mod fs;
mod s3;

pub use fs::FsMediaStore;
pub use s3::{S3Addressing, S3Config, S3MediaStore};

/// An object name as the media domain makes them (`<hash>-<size>.<ext>`): lower-case letters,
/// digits, `-` and `.`, never starting with `.`. Anything else is refused before it reaches a
/// path or a URL.
fn checked_name(name: &str) -> Result<&str, media::StoreError> {
    let allowed = |b: u8| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'.';
    if name.is_empty() || name.len() > 200 || name.starts_with('.') || !name.bytes().all(allowed) {
        return Err(media::StoreError(format!("{name:?} is not an object name")));
    }
    Ok(name)
}
