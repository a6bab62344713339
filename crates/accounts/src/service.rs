//! Account use cases: create users and keys, list and revoke keys, authenticate a bearer token.
//! A key is made only for an account whose address is confirmed (`User::email_confirmed`); an
//! account the site team makes (the CLI) is confirmed from the start.

use crate::confirmation::EmailTokenRepository;
use crate::model::{ApiKey, Credential, NewUser, Principal, Scopes, User};
use crate::ports::{ApiKeyRepository, NewApiKey, UserRepository};
use crate::token::{ApiKeySecret, hash_token};
use kernel::{ApiKeyId, Clock, Email, RepoError, UserId};
use std::sync::Arc;
use time::Duration;

/// `last_used_at` is written at most this often per key, so reads do not turn into writes.
const TOUCH_INTERVAL: Duration = Duration::minutes(1);

/// Why an account use case failed.
#[derive(Debug, thiserror::Error)]
pub enum AccountsError {
    #[error("an account with this e-mail exists already")]
    EmailTaken,
    #[error("no account has this e-mail")]
    UnknownUser,
    #[error("no API key has this id")]
    UnknownKey,
    /// Keys outlive passwords: someone who signed up with another person's address must not
    /// keep one after that person takes the account back.
    #[error("confirm the account's e-mail address first: API keys are made only for a confirmed address")]
    Unconfirmed,
    #[error("{field}: {message}")]
    Invalid { field: &'static str, message: String },
    #[error("the operating system gave no randomness")]
    Randomness(#[source] getrandom::Error),
    #[error(transparent)]
    Repo(#[from] RepoError),
}

/// Why a bearer token was not accepted.
#[derive(Debug, thiserror::Error)]
pub enum AuthError {
    #[error("the token is not known")]
    Unknown,
    #[error("the API key was revoked")]
    Revoked,
    #[error("the account is blocked")]
    Blocked,
    #[error(transparent)]
    Repo(#[from] RepoError),
}

/// A key just created: its stored record and the secret, shown to the caller once.
#[derive(Debug)]
pub struct CreatedApiKey {
    pub key: ApiKey,
    pub secret: ApiKeySecret,
}

/// The accounts use cases.
#[derive(Clone)]
pub struct AccountsService {
    users: Arc<dyn UserRepository>,
    keys: Arc<dyn ApiKeyRepository>,
    /// Where an account's address is marked confirmed.
    confirmations: Arc<dyn EmailTokenRepository>,
    clock: Arc<dyn Clock>,
    oauth: Option<crate::oauth::OAuthService>,
}

impl AccountsService {
    pub fn new(
        users: Arc<dyn UserRepository>,
        keys: Arc<dyn ApiKeyRepository>,
        confirmations: Arc<dyn EmailTokenRepository>,
        clock: Arc<dyn Clock>,
    ) -> Self {
        Self { users, keys, confirmations, clock, oauth: None }
    }

    /// Also accepts OAuth access tokens (`lda_...`) issued by this authorization server.
    pub fn with_oauth(mut self, oauth: crate::oauth::OAuthService) -> Self {
        self.oauth = Some(oauth);
        self
    }

    /// Creates a user for the site team (the CLI); the display name defaults to the e-mail's
    /// local part. The team vouches for the address, so it counts as confirmed at once. People
    /// signing up on the site go through `SignInService` and confirm by the e-mailed link.
    pub async fn create_user(&self, email: &Email, display_name: Option<&str>) -> Result<User, AccountsError> {
        let display_name = display_name
            .map(str::trim)
            .filter(|name| !name.is_empty())
            .unwrap_or_else(|| email.as_str().split('@').next().unwrap_or_default())
            .to_owned();
        if display_name.chars().count() > 120 {
            return Err(AccountsError::Invalid { field: "name", message: "must be at most 120 characters".into() });
        }
        let now = self.clock.now();
        let new = NewUser { email: email.clone(), display_name, created_at: now };
        let user = match self.users.create(new).await {
            Err(RepoError::Duplicate(_)) => return Err(AccountsError::EmailTaken),
            other => other?,
        };
        self.confirmations.set_email_confirmed(user.id, now).await?;
        Ok(User { email_confirmed_at: Some(now), ..user })
    }

    pub async fn user_by_email(&self, email: &Email) -> Result<User, AccountsError> {
        self.users.find_by_email(email).await?.ok_or(AccountsError::UnknownUser)
    }

    /// Creates an API key for the user with this e-mail. Empty `scopes` means all three. An
    /// account whose address is not confirmed gets none (`Unconfirmed`).
    pub async fn create_api_key(&self, email: &Email, name: Option<&str>, scopes: Scopes) -> Result<CreatedApiKey, AccountsError> {
        let user = self.user_by_email(email).await?;
        if !user.email_confirmed() {
            return Err(AccountsError::Unconfirmed);
        }
        let name = name.map(str::trim).filter(|name| !name.is_empty()).unwrap_or("API key").to_owned();
        if name.chars().count() > 100 {
            return Err(AccountsError::Invalid { field: "name", message: "must be at most 100 characters".into() });
        }
        let scopes = if scopes.is_empty() { Scopes::all() } else { scopes };
        let secret = ApiKeySecret::generate().map_err(AccountsError::Randomness)?;
        let key = self
            .keys
            .insert(NewApiKey {
                user_id: user.id,
                name,
                prefix: secret.prefix(),
                token_hash: secret.hash(),
                scopes,
                created_at: self.clock.now(),
            })
            .await?;
        Ok(CreatedApiKey { key, secret })
    }

    pub async fn list_api_keys(&self, email: &Email) -> Result<Vec<ApiKey>, AccountsError> {
        let user = self.user_by_email(email).await?;
        Ok(self.keys.list_for_user(user.id).await?)
    }

    /// Revokes a key. Revoking a revoked key is not an error; an unknown id is.
    pub async fn revoke_api_key(&self, id: ApiKeyId) -> Result<ApiKey, AccountsError> {
        self.keys.revoke(id, self.clock.now()).await?;
        self.keys.find_by_id(id).await?.ok_or(AccountsError::UnknownKey)
    }

    /// Revokes a key of `user`'s own: another account's key is `UnknownKey`, as if it did not
    /// exist, so nobody learns which ids are taken.
    pub async fn revoke_own_api_key(&self, user: UserId, id: ApiKeyId) -> Result<ApiKey, AccountsError> {
        match self.keys.find_by_id(id).await? {
            Some(key) if key.user_id == user => self.revoke_api_key(id).await,
            _ => Err(AccountsError::UnknownKey),
        }
    }

    /// Turns a bearer token into the principal it stands for.
    pub async fn authenticate(&self, bearer: &str) -> Result<Principal, AuthError> {
        if bearer.starts_with("lda_")
            && let Some(oauth) = &self.oauth
        {
            let token = oauth.access_token(bearer).await?.ok_or(AuthError::Unknown)?;
            let user = self.users.find_by_id(token.user_id).await?.ok_or(AuthError::Unknown)?;
            if user.blocked {
                return Err(AuthError::Blocked);
            }
            return Ok(Principal {
                user,
                credential: Credential::OAuth {
                    token_id: token.id,
                    client_id: token.client_id,
                    resource: token.resource,
                    expires_at: token.expires_at,
                },
                scopes: token.scopes,
            });
        }
        let key = self.keys.find_by_hash(&hash_token(bearer)).await?.ok_or(AuthError::Unknown)?;
        if key.revoked_at.is_some() {
            return Err(AuthError::Revoked);
        }
        let user = self.users.find_by_id(key.user_id).await?.ok_or(AuthError::Unknown)?;
        if user.blocked {
            return Err(AuthError::Blocked);
        }
        let now = self.clock.now();
        if key.last_used_at.is_none_or(|last| now - last >= TOUCH_INTERVAL) {
            self.keys.touch(key.id, now).await?;
        }
        Ok(Principal {
            user,
            credential: Credential::ApiKey { id: key.id, name: key.name, prefix: key.prefix, created_at: key.created_at },
            scopes: key.scopes,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fakes::Memory;
    use crate::model::Scope;
    use kernel::FixedClock;
    use time::macros::datetime;

    fn setup() -> (AccountsService, Arc<Memory>, Arc<FixedClock>) {
        let memory = Arc::new(Memory::default());
        let clock = Arc::new(FixedClock::new(datetime!(2026-11-21 09:00 UTC)));
        (AccountsService::new(memory.clone(), memory.clone(), memory.clone(), clock.clone()), memory, clock)
    }

    #[tokio::test]
    async fn keys_authenticate_until_revoked() {
        let (accounts, memory, clock) = setup();
        let email = Email::parse("ada@example.com").unwrap();
        let user = accounts.create_user(&email, None).await.unwrap();
        assert_eq!(user.display_name, "ada", "the display name defaults to the local part");
        assert!(matches!(accounts.create_user(&email, None).await, Err(AccountsError::EmailTaken)));

        let created = accounts.create_api_key(&email, None, Scopes::default()).await.unwrap();
        assert_eq!(created.key.scopes, Scopes::all(), "no scopes means all three");
        assert_eq!(created.key.name, "API key");
        let principal = accounts.authenticate(created.secret.expose()).await.unwrap();
        assert_eq!(principal.user.id, user.id);
        assert!(principal.has_scope(Scope::OrdersWrite));

        // last_used_at is written at most once a minute.
        assert_eq!(*memory.touches.lock().unwrap(), 1);
        accounts.authenticate(created.secret.expose()).await.unwrap();
        assert_eq!(*memory.touches.lock().unwrap(), 1);
        clock.advance(Duration::minutes(2));
        accounts.authenticate(created.secret.expose()).await.unwrap();
        assert_eq!(*memory.touches.lock().unwrap(), 2);

        assert!(matches!(accounts.authenticate("ldk_unknown").await, Err(AuthError::Unknown)));
        accounts.revoke_api_key(created.key.id).await.unwrap();
        assert!(matches!(accounts.authenticate(created.secret.expose()).await, Err(AuthError::Revoked)));
        assert!(matches!(accounts.revoke_api_key(ApiKeyId::new(999)).await, Err(AccountsError::UnknownKey)));
    }

    #[tokio::test]
    async fn keys_need_a_confirmed_address_and_the_site_teams_accounts_have_one() {
        let (accounts, memory, clock) = setup();
        let team_made = accounts.create_user(&Email::parse("team@example.com").unwrap(), None).await.unwrap();
        assert_eq!(team_made.email_confirmed_at, Some(clock.now()), "an account the site team makes is confirmed");
        let stored = UserRepository::find_by_id(&*memory, team_made.id).await.unwrap().unwrap();
        assert!(stored.email_confirmed(), "and stored so");

        // An account made by signing up, as anyone can with any address: no key until confirmed.
        let email = Email::parse("victim@example.com").unwrap();
        let signed_up = UserRepository::create(
            &*memory,
            NewUser { email: email.clone(), display_name: "Not the owner".into(), created_at: clock.now() },
        )
        .await
        .unwrap();
        assert!(matches!(accounts.create_api_key(&email, Some("mine"), Scopes::all()).await, Err(AccountsError::Unconfirmed)));
        assert!(memory.keys.lock().unwrap().is_empty(), "no key was stored");
        crate::confirmation::EmailTokenRepository::set_email_confirmed(&*memory, signed_up.id, clock.now()).await.unwrap();
        let created = accounts.create_api_key(&email, Some("mine"), Scopes::all()).await.unwrap();
        assert_eq!(created.key.user_id, signed_up.id);
    }

    #[tokio::test]
    async fn blocked_users_and_unknown_users() {
        let (accounts, memory, _) = setup();
        let email = Email::parse("bob@example.com").unwrap();
        assert!(matches!(accounts.create_api_key(&email, None, Scopes::all()).await, Err(AccountsError::UnknownUser)));
        accounts.create_user(&email, Some("Bob")).await.unwrap();
        let created = accounts.create_api_key(&email, Some("ci"), [Scope::AccountRead].into_iter().collect()).await.unwrap();
        memory.users.lock().unwrap()[0].blocked = true;
        assert!(matches!(accounts.authenticate(created.secret.expose()).await, Err(AuthError::Blocked)));
        assert!(matches!(
            accounts.create_api_key(&email, Some(&"x".repeat(101)), Scopes::all()).await,
            Err(AccountsError::Invalid { field: "name", .. })
        ));
    }
}
