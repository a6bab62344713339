//! Signing in on the site: accounts with an e-mail and a password (argon2id), session tokens
//! (stored hashed, with a CSRF token), and a throttle on failed sign-ins.

use crate::model::{NewUser, User};
use crate::ports::UserRepository;
use crate::token::hash_token;
use argon2::Argon2;
use argon2::password_hash::{PasswordHasher, PasswordVerifier};
use async_trait::async_trait;
use kernel::{Clock, Email, RepoError, UserId};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use time::{Duration, OffsetDateTime};

/// How long a session lasts.
pub const SESSION_LIFETIME: Duration = Duration::days(14);
/// Failed sign-ins allowed per address within `THROTTLE_WINDOW`.
pub const MAX_FAILURES: u32 = 5;
pub const THROTTLE_WINDOW: Duration = Duration::minutes(15);

/// Passwords, stored as argon2id PHC strings.
#[async_trait]
pub trait PasswordRepository: Send + Sync {
    async fn set_password_hash(&self, user: UserId, hash: &str) -> Result<(), RepoError>;
    async fn password_hash(&self, user: UserId) -> Result<Option<String>, RepoError>;
}

/// A stored session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredSession {
    pub user_id: UserId,
    pub csrf_token: String,
    pub expires_at: OffsetDateTime,
}

/// Sessions, keyed by the hash of their token.
#[async_trait]
pub trait SessionRepository: Send + Sync {
    async fn create_session(&self, token_hash: &str, session: &StoredSession) -> Result<(), RepoError>;
    async fn find_session(&self, token_hash: &str) -> Result<Option<StoredSession>, RepoError>;
    async fn delete_session(&self, token_hash: &str) -> Result<(), RepoError>;
}

/// Why signing in or up failed, in words a person understands.
#[derive(Debug, thiserror::Error)]
pub enum SignInError {
    #[error("the e-mail address or the password is wrong")]
    WrongCredentials,
    #[error("too many failed attempts; wait 15 minutes and try again")]
    Throttled,
    #[error("an account with this e-mail exists already; sign in instead")]
    EmailTaken,
    #[error("{0}")]
    Invalid(String),
    #[error("the account is blocked")]
    Blocked,
    #[error("something went wrong on our side")]
    Internal,
}

impl From<RepoError> for SignInError {
    fn from(_: RepoError) -> Self {
        Self::Internal
    }
}

/// A signed-in session: the cookie value (shown once) and its CSRF token.
#[derive(Debug, Clone)]
pub struct Session {
    pub token: String,
    pub csrf_token: String,
    pub user: User,
}

#[derive(Clone)]
pub struct SignInService {
    users: Arc<dyn UserRepository>,
    passwords: Arc<dyn PasswordRepository>,
    sessions: Arc<dyn SessionRepository>,
    clock: Arc<dyn Clock>,
    failures: Arc<Mutex<HashMap<String, (u32, OffsetDateTime)>>>,
}

fn random() -> Result<String, SignInError> {
    kernel::secrets::random_token().map_err(|_| SignInError::Internal)
}

impl SignInService {
    pub fn new(
        users: Arc<dyn UserRepository>,
        passwords: Arc<dyn PasswordRepository>,
        sessions: Arc<dyn SessionRepository>,
        clock: Arc<dyn Clock>,
    ) -> Self {
        Self { users, passwords, sessions, clock, failures: Arc::new(Mutex::new(HashMap::new())) }
    }

    fn hash_password(password: &str) -> Result<String, SignInError> {
        let mut salt = [0u8; 16];
        getrandom::fill(&mut salt).map_err(|_| SignInError::Internal)?;
        Argon2::default()
            .hash_password_with_salt(password.as_bytes(), &salt)
            .map(|hash| hash.to_string())
            .map_err(|_| SignInError::Internal)
    }

    /// Creates an account with a password (8 to 200 characters) and signs it in.
    pub async fn sign_up(&self, email: &str, name: &str, password: &str) -> Result<Session, SignInError> {
        let email = Email::parse(email).map_err(|err| SignInError::Invalid(format!("E-mail {}", err.0)))?;
        if !(8..=200).contains(&password.chars().count()) {
            return Err(SignInError::Invalid("The password must be 8 to 200 characters long.".into()));
        }
        let name = name.trim();
        if name.chars().count() > 100 {
            return Err(SignInError::Invalid("The name must be at most 100 characters long.".into()));
        }
        let hash = Self::hash_password(password)?;
        let display_name = if name.is_empty() { email.as_str().split('@').next().unwrap_or("").to_owned() } else { name.to_owned() };
        let user = match self.users.create(NewUser { email, display_name, created_at: self.clock.now() }).await {
            Ok(user) => user,
            Err(RepoError::Duplicate(_)) => return Err(SignInError::EmailTaken),
            Err(err) => return Err(err.into()),
        };
        self.passwords.set_password_hash(user.id, &hash).await?;
        self.open_session(user).await
    }

    /// Signs in with e-mail and password; failures are throttled per address.
    pub async fn sign_in(&self, email: &str, password: &str) -> Result<Session, SignInError> {
        let key = email.trim().to_ascii_lowercase();
        let now = self.clock.now();
        {
            let failures = self.failures.lock().unwrap_or_else(|p| p.into_inner());
            if let Some((count, since)) = failures.get(&key)
                && *count >= MAX_FAILURES
                && now - *since < THROTTLE_WINDOW
            {
                return Err(SignInError::Throttled);
            }
        }
        let verified = match Email::parse(email) {
            Ok(email) => match self.users.find_by_email(&email).await? {
                Some(user) => match self.passwords.password_hash(user.id).await? {
                    Some(hash) => {
                        let ok = Argon2::default().verify_password(password.as_bytes(), hash.as_str()).is_ok();
                        ok.then_some(user)
                    }
                    None => None,
                },
                None => {
                    // Spend the time a real check takes, so response times do not tell which
                    // addresses have accounts.
                    let _ = Self::hash_password(password);
                    None
                }
            },
            Err(_) => None,
        };
        let Some(user) = verified else {
            let mut failures = self.failures.lock().unwrap_or_else(|p| p.into_inner());
            let entry = failures.entry(key).or_insert((0, now));
            if now - entry.1 >= THROTTLE_WINDOW {
                *entry = (0, now);
            }
            entry.0 += 1;
            return Err(SignInError::WrongCredentials);
        };
        if user.blocked {
            return Err(SignInError::Blocked);
        }
        self.failures.lock().unwrap_or_else(|p| p.into_inner()).remove(&key);
        self.open_session(user).await
    }

    async fn open_session(&self, user: User) -> Result<Session, SignInError> {
        let token = random()?;
        let csrf_token = random()?;
        self.sessions
            .create_session(
                &hash_token(&token),
                &StoredSession { user_id: user.id, csrf_token: csrf_token.clone(), expires_at: self.clock.now() + SESSION_LIFETIME },
            )
            .await?;
        Ok(Session { token, csrf_token, user })
    }

    /// The session a cookie value stands for, if it is live.
    pub async fn session(&self, token: &str) -> Result<Option<Session>, SignInError> {
        let Some(stored) = self.sessions.find_session(&hash_token(token)).await? else { return Ok(None) };
        if stored.expires_at <= self.clock.now() {
            return Ok(None);
        }
        let Some(user) = self.users.find_by_id(stored.user_id).await? else { return Ok(None) };
        if user.blocked {
            return Ok(None);
        }
        Ok(Some(Session { token: token.to_owned(), csrf_token: stored.csrf_token, user }))
    }

    pub async fn sign_out(&self, token: &str) -> Result<(), SignInError> {
        Ok(self.sessions.delete_session(&hash_token(token)).await?)
    }
}
