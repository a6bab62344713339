//! Signing in on the site: accounts with an e-mail and a password (argon2id, through the
//! `PasswordHashing` port), session tokens (stored hashed, with a CSRF token), and the throttle
//! on failed sign-ins (per client and per client and account, with growing waits). Signing up
//! (`register`) answers a taken address exactly as a new one, so the page cannot be asked which
//! addresses have accounts.

use crate::model::{NewUser, User};
use crate::passwords::{PasswordHashing, dummy_hash};
use crate::ports::UserRepository;
use crate::throttle::SignInThrottle;
use crate::token::hash_token;
use async_trait::async_trait;
use kernel::{Clock, Email, RepoError, UserId};
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use time::{Duration, OffsetDateTime};

/// How long a session lasts.
pub const SESSION_LIFETIME: Duration = Duration::days(14);

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
    /// Ends every session of `user` (a new password signs out everywhere).
    async fn delete_sessions_of(&self, user: UserId) -> Result<u64, RepoError>;
}

/// Why signing in or up failed, in words a person understands.
#[derive(Debug, thiserror::Error)]
pub enum SignInError {
    #[error("the e-mail address or the password is wrong")]
    WrongCredentials,
    #[error("too many failed attempts; wait {seconds} seconds and try again")]
    Throttled { seconds: u64 },
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

/// What signing up did. The sign-up page answers both alike ("check your inbox"); only the
/// e-mail that follows tells them apart, and only to the address's owner.
#[derive(Debug, Clone)]
pub enum Registered {
    /// A new account, not signed in: its address is sent a confirmation link.
    New(User),
    /// The address has an account already (this one, untouched): its owner is told that someone
    /// tried to sign up with it.
    Taken(User),
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
    hasher: Arc<dyn PasswordHashing>,
    clock: Arc<dyn Clock>,
    throttle: Arc<Mutex<SignInThrottle>>,
}

/// The one rule for a new password: 8 to 200 characters.
pub fn check_password(password: &str) -> Result<(), SignInError> {
    if (8..=200).contains(&password.chars().count()) {
        Ok(())
    } else {
        Err(SignInError::Invalid("The password must be 8 to 200 characters long.".into()))
    }
}

fn random() -> Result<String, SignInError> {
    kernel::secrets::random_token().map_err(|_| SignInError::Internal)
}

impl SignInService {
    pub fn new(
        users: Arc<dyn UserRepository>,
        passwords: Arc<dyn PasswordRepository>,
        sessions: Arc<dyn SessionRepository>,
        hasher: Arc<dyn PasswordHashing>,
        clock: Arc<dyn Clock>,
    ) -> Self {
        // Made now, at start-up, rather than inside the first failed sign-in.
        let _ = dummy_hash();
        Self { users, passwords, sessions, hasher, clock, throttle: Arc::new(Mutex::new(SignInThrottle::default())) }
    }

    fn throttle(&self) -> std::sync::MutexGuard<'_, SignInThrottle> {
        self.throttle.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The throttle this service counts failed sign-ins in, for every other form that checks a
    /// password (`OwnAccount::with_throttle`), so all of them count and wait together.
    pub fn shared_throttle(&self) -> Arc<Mutex<SignInThrottle>> {
        Arc::clone(&self.throttle)
    }

    /// Creates an account with a password (8 to 200 characters) and signs it in; an address
    /// that has an account is `EmailTaken`. For the tests and tools that make accounts: the
    /// sign-up page uses `register`, which never says whether an address is taken.
    pub async fn sign_up(&self, email: &str, name: &str, password: &str) -> Result<Session, SignInError> {
        match self.register(email, name, password).await? {
            Registered::New(user) => self.open_session(user).await,
            Registered::Taken(_) => Err(SignInError::EmailTaken),
        }
    }

    /// Creates an account with a password (8 to 200 characters), not signed in. An address that
    /// has an account already answers `Registered::Taken` with that account, after the same work
    /// (the password is hashed either way), and nothing of that account changes: the page says
    /// the same for both, and only the e-mail that follows differs.
    pub async fn register(&self, email: &str, name: &str, password: &str) -> Result<Registered, SignInError> {
        let email = Email::parse(email).map_err(|err| SignInError::Invalid(format!("E-mail {}", err.0)))?;
        check_password(password)?;
        let name = name.trim();
        if name.chars().count() > 100 {
            return Err(SignInError::Invalid("The name must be at most 100 characters long.".into()));
        }
        let hash = self.hasher.hash(password.to_owned()).await.ok_or(SignInError::Internal)?;
        let display_name = if name.is_empty() { email.as_str().split('@').next().unwrap_or("").to_owned() } else { name.to_owned() };
        let user = match self.users.create(NewUser { email: email.clone(), display_name, created_at: self.clock.now() }).await {
            Ok(user) => user,
            Err(RepoError::Duplicate(_)) => {
                let owner = self.users.find_by_email(&email).await?.ok_or(SignInError::Internal)?;
                return Ok(Registered::Taken(owner));
            }
            Err(err) => return Err(err.into()),
        };
        self.passwords.set_password_hash(user.id, &hash).await?;
        Ok(Registered::New(user))
    }

    /// Signs in with e-mail and password from `client`. Every attempt that passes the throttle
    /// verifies exactly one argon2 hash (the account's, or a dummy when there is none), so the
    /// time taken does not tell which addresses have accounts.
    pub async fn sign_in(&self, client: IpAddr, email: &str, password: &str) -> Result<Session, SignInError> {
        let now = self.clock.now();
        if let Some(wait) = self.throttle().wait(client, email, now) {
            return Err(SignInError::Throttled { seconds: wait.whole_seconds().max(1).unsigned_abs() });
        }
        let user = match Email::parse(email) {
            Ok(email) => self.users.find_by_email(&email).await?,
            Err(_) => None,
        };
        let stored = match &user {
            Some(user) => self.passwords.password_hash(user.id).await?,
            None => None,
        };
        let matches = self.hasher.verify(password.to_owned(), stored.clone().unwrap_or_else(|| dummy_hash().to_owned())).await;
        let Some(user) = user.filter(|_| matches && stored.is_some()) else {
            self.throttle().failed(client, email, now);
            return Err(SignInError::WrongCredentials);
        };
        if user.blocked {
            return Err(SignInError::Blocked);
        }
        self.throttle().succeeded(client, email);
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

    /// Ends every session of `user`; returns how many there were.
    pub async fn sign_out_everywhere(&self, user: UserId) -> Result<u64, SignInError> {
        Ok(self.sessions.delete_sessions_of(user).await?)
    }
}

#[cfg(test)]
#[path = "signin_tests.rs"]
mod tests;
