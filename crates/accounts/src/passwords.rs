//! Passwords: argon2id PHC strings, made and checked through a port, because argon2 is slow on
//! purpose (about 20 ms of a core) and must not run on the threads that answer requests. The
//! app's adapter runs these functions on a blocking pool behind a semaphore.

use argon2::Argon2;
use argon2::password_hash::{PasswordHasher, PasswordVerifier};
use async_trait::async_trait;
use std::sync::OnceLock;

/// Hashes and verifies passwords somewhere the caller's thread is not held.
#[async_trait]
pub trait PasswordHashing: Send + Sync {
    /// The PHC string of `password`, `None` when the system cannot provide randomness.
    async fn hash(&self, password: String) -> Option<String>;
    /// Whether `password` matches the PHC string `phc`.
    async fn verify(&self, password: String, phc: String) -> bool;
}

/// Hashes with argon2id's default parameters and a fresh 16-byte salt (blocking).
pub fn argon2_hash(password: &str) -> Option<String> {
    let mut salt = [0u8; 16];
    getrandom::fill(&mut salt).ok()?;
    Argon2::default().hash_password_with_salt(password.as_bytes(), &salt).map(|hash| hash.to_string()).ok()
}

/// Verifies against a PHC string (blocking); an unreadable string never matches.
pub fn argon2_verify(password: &str, phc: &str) -> bool {
    Argon2::default().verify_password(password.as_bytes(), phc).is_ok()
}

/// A hash no password is known to match, with the parameters of real ones: verified when there
/// is no real hash to check (no such account, no password set, a malformed address), so every
/// failed sign-in costs the same time and the time tells nothing.
pub fn dummy_hash() -> &'static str {
    static DUMMY: OnceLock<String> = OnceLock::new();
    DUMMY.get_or_init(|| {
        let secret = kernel::secrets::random_token().unwrap_or_else(|_| "a dummy nobody can type".into());
        argon2_hash(&secret).unwrap_or_default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_verify_and_the_dummy_has_real_parameters() {
        let hash = argon2_hash("a good long password").unwrap();
        assert!(hash.starts_with("$argon2id$"));
        assert!(argon2_verify("a good long password", &hash));
        assert!(!argon2_verify("a wrong password", &hash));
        assert!(!argon2_verify("anything", "not a phc string"));
        let dummy = dummy_hash();
        assert_eq!(dummy.split('$').nth(3), hash.split('$').nth(3), "the same cost parameters");
        assert!(!argon2_verify("", dummy));
    }
}
