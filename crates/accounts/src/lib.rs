#![doc = include_str!("../README.md")]

pub mod model;
pub mod ports;
pub mod service;
mod token;

pub use model::{ApiKey, Credential, NewUser, Principal, Scope, Scopes, User};
pub use ports::{ApiKeyRepository, UserRepository};
pub use service::{AccountsError, AccountsService, AuthError, CreatedApiKey};
pub use token::{ApiKeySecret, hash_token};
