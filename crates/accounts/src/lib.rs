#![doc = include_str!("../README.md")]

pub mod access;
pub mod admin;
pub mod closure;
pub mod confirmation;
#[cfg(test)]
mod fakes;
pub mod model;
pub mod oauth;
pub mod passwords;
pub mod ports;
pub mod reset;
pub mod service;
pub mod signin;
pub mod throttle;
mod token;

pub use access::{AccessRevocation, AccessRevoker, Ended, NewPassword};
pub use admin::{AdminRepository, AdminService, AuditEntry, NewAuditEntry};
pub use closure::{AccountCloser, Closed, OwnAccount, OwnAccountError};
pub use confirmation::{ConfirmationError, EmailConfirmation, EmailTokenPurpose, EmailTokenRepository, NewEmailToken};
pub use model::{ApiKey, Credential, NewUser, Principal, Scope, Scopes, User};
pub use oauth::{OAuthError, OAuthService};
pub use passwords::PasswordHashing;
pub use ports::{ApiKeyRepository, UserRepository};
pub use reset::{PasswordReset, ResetError, ResetStores, Sent};
pub use service::{AccountsError, AccountsService, AuthError, CreatedApiKey};
pub use signin::{Registered, SignInError, SignInService};
pub use token::{ApiKeySecret, hash_token};
