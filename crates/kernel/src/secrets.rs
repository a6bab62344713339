//! Secrets every domain makes the same way: 32 random bytes as URL-safe base64, stored only as
//! their hex SHA-256.

use base64::Engine;
use sha2::{Digest, Sha256};

/// 32 bytes from the operating system's random source, URL-safe base64 without padding
/// (43 characters).
///
/// # Errors
/// When the operating system cannot provide randomness.
pub fn random_token() -> Result<String, getrandom::Error> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes)?;
    Ok(base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes))
}

/// The hex SHA-256 of a secret: the only form in which tokens are stored.
pub fn sha256_hex(secret: &str) -> String {
    hex(&Sha256::digest(secret.as_bytes()))
}

/// Bytes as lower-case hex (digests, signatures, content hashes).
pub fn hex(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() * 2);
    for byte in bytes {
        use std::fmt::Write;
        let _ = write!(out, "{byte:02x}");
    }
    out
}

/// Whether `secret` hashes to `stored_hex`, compared in constant time so the comparison does not
/// tell how much of a guess was right.
pub fn hash_matches(secret: &str, stored_hex: &str) -> bool {
    let candidate = sha256_hex(secret);
    candidate.len() == stored_hex.len() && candidate.bytes().zip(stored_hex.bytes()).fold(0u8, |diff, (a, b)| diff | (a ^ b)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_random_and_hashes_stable() {
        let (a, b) = (random_token().unwrap(), random_token().unwrap());
        assert_eq!(a.len(), 43);
        assert_ne!(a, b);
        assert_eq!(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
        assert!(hash_matches("abc", &sha256_hex("abc")));
        assert!(!hash_matches("abd", &sha256_hex("abc")));
        assert!(!hash_matches("abc", ""));
    }
}
