//! API key secrets: 32 random bytes, shown once, stored only as a SHA-256 hash.

const SECRET_PREFIX: &str = "ldk_";
/// How many characters of the secret are kept visible: the `ldk_` marker and 8 more.
const VISIBLE_CHARS: usize = SECRET_PREFIX.len() + 8;

/// A freshly generated API key secret. It is shown to its owner once and never stored.
pub struct ApiKeySecret(String);

impl ApiKeySecret {
    /// Generates a new secret from the operating system's random source.
    ///
    /// # Errors
    /// When the operating system cannot provide randomness.
    pub fn generate() -> Result<Self, getrandom::Error> {
        Ok(Self(format!("{SECRET_PREFIX}{}", kernel::secrets::random_token()?)))
    }

    pub fn expose(&self) -> &str {
        &self.0
    }

    pub fn prefix(&self) -> String {
        self.0[..VISIBLE_CHARS].to_owned()
    }

    pub fn hash(&self) -> String {
        hash_token(&self.0)
    }
}

impl std::fmt::Debug for ApiKeySecret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ApiKeySecret({}…)", self.prefix())
    }
}

/// The hex SHA-256 of a bearer token, the only form in which tokens are stored.
pub fn hash_token(token: &str) -> String {
    kernel::secrets::sha256_hex(token)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_are_random_and_hashable() {
        let a = ApiKeySecret::generate().unwrap();
        let b = ApiKeySecret::generate().unwrap();
        assert_ne!(a.expose(), b.expose());
        assert_eq!(a.expose().len(), 4 + 43);
        assert!(a.expose().starts_with("ldk_"));
        assert_eq!(a.prefix().len(), 12);
        assert_eq!(a.hash().len(), 64);
        assert!(!format!("{a:?}").contains(&a.expose()[12..]), "Debug must not print the secret");
    }

    #[test]
    fn hash_is_sha256_hex() {
        assert_eq!(hash_token("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    }
}
