//! A signed-in person's own account settings that need their password: changing it (every
//! session, API key and connected app ends, so nothing taken before outlives the change:
//! `access::AccessRevocation`), and closing the account.
//! Checking the current password goes through the sign-in throttle (`SignInThrottle`, the very
//! ledger the sign-in page uses, per client address and per (client, account)), so a stolen
//! session cannot guess the password through these forms faster than through sign-in.
//! Closing withdraws the person's votes (the counts drop at once), deletes their reviews and
//! follows, ends every session, key and token, leaves their listings with the site (without an
//! owner) and their orders with the bookkeeping, and replaces the address and name with
//! placeholders, so the address can sign up afresh.

use crate::access::{AccessRevocation, Ended, NewPassword};
use crate::model::User;
use crate::passwords::PasswordHashing;
use crate::signin::{PasswordRepository, SignInError, check_password};
use crate::throttle::SignInThrottle;
use async_trait::async_trait;
use kernel::{Clock, RepoError, UserId};
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use time::OffsetDateTime;

/// What closing an account took away.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Closed {
    pub votes_withdrawn: u64,
    pub reviews_deleted: u64,
    /// Listings that stay on the site without an owner.
    pub listings_kept: u64,
}

/// Closes an account in one transaction (see the module's rules).
#[async_trait]
pub trait AccountCloser: Send + Sync {
    async fn close_account(&self, user: UserId, at: OffsetDateTime) -> Result<Closed, RepoError>;
}

/// Why a change to one's own account was refused; each names the form field it concerns.
#[derive(Debug, thiserror::Error)]
pub enum OwnAccountError {
    #[error("this is not your current password")]
    WrongPassword,
    /// Too many wrong passwords from this client (for this account): nothing was checked.
    #[error("too many failed attempts; wait {seconds} seconds and try again")]
    Throttled { seconds: u64 },
    #[error("{0}")]
    NewPassword(String),
    #[error("something went wrong on our side")]
    Internal,
}

impl OwnAccountError {
    /// The form field the error belongs beside.
    pub fn field(&self) -> &'static str {
        match self {
            Self::WrongPassword | Self::Throttled { .. } => "current_password",
            Self::NewPassword(_) => "new_password",
            Self::Internal => "",
        }
    }
}

impl From<RepoError> for OwnAccountError {
    fn from(_: RepoError) -> Self {
        Self::Internal
    }
}

#[derive(Clone)]
pub struct OwnAccount {
    passwords: Arc<dyn PasswordRepository>,
    /// What a new password ends, and the e-mail that says so.
    revocation: AccessRevocation,
    hasher: Arc<dyn PasswordHashing>,
    closer: Arc<dyn AccountCloser>,
    clock: Arc<dyn Clock>,
    /// The sign-in page's throttle (`with_throttle`); a ledger of its own until then.
    throttle: Arc<Mutex<SignInThrottle>>,
}

impl OwnAccount {
    pub fn new(
        passwords: Arc<dyn PasswordRepository>,
        revocation: AccessRevocation,
        hasher: Arc<dyn PasswordHashing>,
        closer: Arc<dyn AccountCloser>,
        clock: Arc<dyn Clock>,
    ) -> Self {
        Self { passwords, revocation, hasher, closer, clock, throttle: Arc::new(Mutex::new(SignInThrottle::default())) }
    }

    /// Counts wrong current passwords in `throttle`, the one `SignInService::shared_throttle`
    /// hands out, so these forms and the sign-in page wait alike and count together.
    #[must_use]
    pub fn with_throttle(mut self, throttle: Arc<Mutex<SignInThrottle>>) -> Self {
        self.throttle = throttle;
        self
    }

    fn throttle(&self) -> std::sync::MutexGuard<'_, SignInThrottle> {
        self.throttle.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Whether `password` is the account's password (an account without one never matches),
    /// asked from `client` as sign-in asks: a client that must wait is told how long and nothing
    /// is hashed; a wrong password counts against the client and the account, a right one clears
    /// the client's count for the account.
    async fn verify(&self, client: IpAddr, user: &User, password: &str) -> Result<(), OwnAccountError> {
        let email = user.email.as_str();
        if let Some(wait) = self.throttle().wait(client, email, self.clock.now()) {
            return Err(OwnAccountError::Throttled { seconds: wait.whole_seconds().max(1).unsigned_abs() });
        }
        let matches = match self.passwords.password_hash(user.id).await? {
            Some(stored) => self.hasher.verify(password.to_owned(), stored).await,
            None => false,
        };
        if matches {
            self.throttle().succeeded(client, email);
            Ok(())
        } else {
            self.throttle().failed(client, email, self.clock.now());
            Err(OwnAccountError::WrongPassword)
        }
    }

    /// Sets a new password after checking the current one, then ends every session (this one
    /// too: the person signs in again with the new password), API key and OAuth token of the
    /// account and e-mails its address so (`AccessRevocation`). Returns what ended.
    pub async fn change_password(&self, client: IpAddr, user: &User, current: &str, new: &str) -> Result<Ended, OwnAccountError> {
        check_password(new).map_err(|err| match err {
            SignInError::Invalid(message) => OwnAccountError::NewPassword(message),
            _ => OwnAccountError::Internal,
        })?;
        self.verify(client, user, current).await?;
        let hash = self.hasher.hash(new.to_owned()).await.ok_or(OwnAccountError::Internal)?;
        let store = self.passwords.set_password_hash(user.id, &hash);
        Ok(self.revocation.new_password(user, NewPassword::Changed, self.clock.now(), store).await?)
    }

    /// Closes the account after checking its password (asked from `client`, throttled as above).
    pub async fn close(&self, client: IpAddr, user: &User, password: &str) -> Result<Closed, OwnAccountError> {
        self.verify(client, user, password).await?;
        Ok(self.closer.close_account(user.id, self.clock.now()).await?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fakes::Memory;
    use crate::signin::SignInService;
    use crate::throttle::FREE_PER_ACCOUNT;
    use kernel::FixedClock;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use time::Duration;
    use time::macros::datetime;

    struct PlainHasher;

    #[async_trait]
    impl PasswordHashing for PlainHasher {
        async fn hash(&self, password: String) -> Option<String> {
            Some(format!("plain:{password}"))
        }
        async fn verify(&self, password: String, phc: String) -> bool {
            phc == format!("plain:{password}")
        }
    }

    /// Counts the closings asked for; closes nothing.
    #[derive(Default)]
    struct CountingCloser(AtomicUsize);

    #[async_trait]
    impl AccountCloser for CountingCloser {
        async fn close_account(&self, _: UserId, _: OffsetDateTime) -> Result<Closed, RepoError> {
            self.0.fetch_add(1, Ordering::SeqCst);
            Ok(Closed::default())
        }
    }

    const HOME: IpAddr = IpAddr::V4(std::net::Ipv4Addr::new(198, 51, 100, 4));
    const THIEF: IpAddr = IpAddr::V4(std::net::Ipv4Addr::new(203, 0, 113, 9));

    /// What a new password ends, over `memory`, and the mailer its e-mail goes to.
    fn revocation(memory: &Arc<Memory>) -> (AccessRevocation, Arc<kernel::MemoryMailer>) {
        let mailer = Arc::new(kernel::MemoryMailer::default());
        (AccessRevocation::new(memory.clone(), mailer.clone(), "Launchdir".into(), "https://launch.example".into()), mailer)
    }

    #[tokio::test]
    async fn a_new_password_ends_every_session_and_key_of_the_account_and_its_address_is_told() {
        let memory = Arc::new(Memory::default());
        let hasher: Arc<dyn PasswordHashing> = Arc::new(PlainHasher);
        let clock = Arc::new(FixedClock::new(datetime!(2026-11-25 10:00 UTC)));
        let signin = SignInService::new(memory.clone(), memory.clone(), memory.clone(), hasher.clone(), clock.clone());
        let (revocation, mailer) = revocation(&memory);
        let own = OwnAccount::new(memory.clone(), revocation, hasher, Arc::new(CountingCloser::default()), clock.clone());
        let here = signin.sign_up("ada@example.com", "Ada", "the right password").await.unwrap();
        let elsewhere = signin.sign_in(HOME, "ada@example.com", "the right password").await.unwrap();
        let key = crate::ports::NewApiKey {
            user_id: here.user.id,
            name: "agent".into(),
            prefix: "ldk_agent".into(),
            token_hash: "hash-of-the-agent-key".into(),
            scopes: crate::model::Scopes::all(),
            created_at: clock.now(),
        };
        crate::ports::ApiKeyRepository::insert(&*memory, key).await.unwrap();

        // A refused change ends nothing.
        let wrong = own.change_password(HOME, &here.user, "not the password", "a brand new password").await;
        assert!(matches!(wrong, Err(OwnAccountError::WrongPassword)), "{wrong:?}");
        assert!(memory.access_ended.lock().unwrap().is_empty() && mailer.sent().is_empty());

        let ended = own.change_password(HOME, &here.user, "the right password", "a brand new password").await.unwrap();
        assert_eq!((ended.sessions, ended.api_keys), (2, 1));
        for session in [&here.token, &elsewhere.token] {
            assert!(signin.session(session).await.unwrap().is_none(), "every session ended, this one too");
        }
        assert!(memory.keys.lock().unwrap()[0].revoked_at.is_some(), "the key is revoked");
        assert_eq!(*memory.access_ended.lock().unwrap(), vec![(here.user.id, clock.now())], "OAuth tokens end through the same port");
        let sent = mailer.sent();
        assert_eq!((sent.len(), sent[0].to.as_str(), sent[0].kind.as_str()), (1, "ada@example.com", "password_changed"));
        for said in ["was changed", "every API key is revoked", "every connected app is disconnected", "every session is signed out"] {
            assert!(sent[0].body.contains(said), "{said} in {}", sent[0].body);
        }
    }

    #[tokio::test]
    async fn guessing_the_current_password_waits_as_signing_in_does_and_counts_with_it() {
        let memory = Arc::new(Memory::default());
        let hasher: Arc<dyn PasswordHashing> = Arc::new(PlainHasher);
        let clock = Arc::new(FixedClock::new(datetime!(2026-11-25 10:00 UTC)));
        let closer = Arc::new(CountingCloser::default());
        let signin = SignInService::new(memory.clone(), memory.clone(), memory.clone(), hasher.clone(), clock.clone());
        let own = OwnAccount::new(memory.clone(), revocation(&memory).0, hasher, closer.clone(), clock.clone())
            .with_throttle(signin.shared_throttle());
        let ada = signin.sign_up("ada@example.com", "Ada", "the right password").await.unwrap().user;

        // A stolen session guesses through the forms: each wrong guess counts, as on sign-in.
        for _ in 0..FREE_PER_ACCOUNT {
            assert!(matches!(own.close(THIEF, &ada, "a guess").await, Err(OwnAccountError::WrongPassword)));
        }
        // Then even the right password waits, on both forms and on the sign-in page: one ledger.
        let refused = own.change_password(THIEF, &ada, "the right password", "a brand new password").await;
        assert!(matches!(refused, Err(OwnAccountError::Throttled { seconds: 30 })), "{refused:?}");
        assert_eq!(refused.unwrap_err().field(), "current_password");
        assert!(matches!(own.close(THIEF, &ada, "the right password").await, Err(OwnAccountError::Throttled { .. })));
        let signing_in = signin.sign_in(THIEF, "ada@example.com", "the right password").await;
        assert!(matches!(signing_in, Err(SignInError::Throttled { .. })), "{signing_in:?}");
        assert_eq!(closer.0.load(Ordering::SeqCst), 0, "nothing closed");
        assert_eq!(memory.password_hash(ada.id).await.unwrap().as_deref(), Some("plain:the right password"), "nothing changed");
        assert_eq!(memory.passwords.lock().unwrap().len(), 1, "no new password stored");

        // The owner elsewhere is never locked out, and the wait ends by itself.
        assert!(signin.sign_in(HOME, "ada@example.com", "the right password").await.is_ok());
        clock.advance(Duration::seconds(31));
        own.close(THIEF, &ada, "the right password").await.unwrap();
        assert_eq!(closer.0.load(Ordering::SeqCst), 1);
    }
}
