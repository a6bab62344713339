#![doc = include_str!("../README.md")]

pub mod extractive;
pub mod openai;

pub use extractive::ExtractiveDrafter;
pub use openai::{OpenAiConfig, OpenAiDrafter};

/// Installs the `ring` crypto provider for rustls once (reqwest is built without its own).
fn install_crypto_provider() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let _ = rustls::crypto::ring::default_provider().install_default();
    });
}
