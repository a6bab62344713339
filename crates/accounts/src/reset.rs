//! Setting a new password by e-mail: a link (single use, one hour, only its SHA-256 stored)
//! goes to the account's address; following it sets the password, confirms the address (the
//! link proved it), and ends every session, API key and OAuth token of the account, telling the
//! address so (`access::AccessRevocation`): the owner who takes back an account someone
//! registered with their address first leaves that someone nothing. Asking never says whether
//! an account exists. Accounts made without a password (the CLI) get their first one this way.

use crate::access::{AccessRevocation, NewPassword};
use crate::confirmation::{EmailTokenPurpose, EmailTokenRepository, Issued, issue_link};
use crate::model::User;
use crate::passwords::PasswordHashing;
use crate::ports::UserRepository;
use crate::signin::{PasswordRepository, SignInError, check_password};
use crate::token::hash_token;
use kernel::{Clock, Email, Mailer, OutgoingEmail};
use std::sync::Arc;
use time::Duration;

/// How long a reset link works.
pub const RESET_LIFETIME: Duration = Duration::hours(1);

/// What the reset needs: the stores, what a new password ends, the hasher, the mailer and the
/// clock.
#[derive(Clone)]
pub struct ResetStores {
    pub tokens: Arc<dyn EmailTokenRepository>,
    pub users: Arc<dyn UserRepository>,
    pub passwords: Arc<dyn PasswordRepository>,
    /// Ends every session, key and token of the account and tells its address.
    pub revocation: AccessRevocation,
    pub hasher: Arc<dyn PasswordHashing>,
    pub mailer: Arc<dyn Mailer>,
    pub clock: Arc<dyn Clock>,
}

#[derive(Clone)]
pub struct PasswordReset {
    stores: ResetStores,
    site_name: String,
    site_url: String,
}

impl PasswordReset {
    pub fn new(stores: ResetStores, site_name: String, site_url: String) -> Self {
        Self { stores, site_name, site_url }
    }

    /// E-mails a reset link when an account (not blocked) uses `email`, at most
    /// `LINKS_PER_HOUR` an hour; the answer is the same either way, and an e-mail that could not
    /// be handed over comes back as `Sent::Failed` for the caller to log, never to show. A
    /// malformed address is named, since that reveals nothing.
    pub async fn request(&self, email: &str) -> Result<Sent, SignInError> {
        let email = Email::parse(email).map_err(|err| SignInError::Invalid(format!("E-mail {}", err.0)))?;
        match self.send(&email).await {
            Ok(()) => Ok(Sent::AsFarAsWeKnow),
            Err(reason) => Ok(Sent::Failed(reason)),
        }
    }

    async fn send(&self, email: &Email) -> Result<(), String> {
        let Some(user) = self.stores.users.find_by_email(email).await.map_err(|err| err.to_string())? else { return Ok(()) };
        if user.blocked {
            return Ok(());
        }
        let issued = issue_link(&*self.stores.tokens, &*self.stores.clock, user.id, EmailTokenPurpose::ResetPassword, RESET_LIFETIME)
            .await
            .map_err(|err| err.to_string())?;
        let Issued::Token(token) = issued else { return Ok(()) };
        let body = format!(
            "Hello {name},\n\nSomeone (we hope you) asked to set a new password for your account on {site}. To set one, open:\n\n\
             {url}/account/reset/password?token={token}\n\n\
             The link works once, for one hour. Setting a password ends every session, API key and connected app of the account.\n\n\
             If you did not ask, ignore this e-mail: your password stays as it is.\n",
            name = user.display_name,
            site = self.site_name,
            url = self.site_url,
        );
        let mail = OutgoingEmail {
            to: user.email.clone(),
            subject: format!("Set a new password for {}", self.site_name),
            body,
            kind: "reset_password".to_owned(),
        };
        self.stores.mailer.send(mail).await.map_err(|err| err.to_string())
    }

    /// Sets the password of the link's account, confirms its address and ends every way into it
    /// that existed (`AccessRevocation`, which e-mails the address). A password that breaks the
    /// rule is refused before the link is used, so it can be tried again.
    pub async fn reset(&self, token: &str, password: &str) -> Result<User, ResetError> {
        check_password(password).map_err(ResetError::Password)?;
        let now = self.stores.clock.now();
        let user_id = self
            .stores
            .tokens
            .use_email_token(EmailTokenPurpose::ResetPassword, &hash_token(token), now)
            .await
            .map_err(|err| ResetError::Password(err.into()))?
            .ok_or(ResetError::InvalidLink)?;
        let hash = self.stores.hasher.hash(password.to_owned()).await.ok_or(ResetError::Password(SignInError::Internal))?;
        let failed = |err: kernel::RepoError| ResetError::Password(err.into());
        let user = self.stores.users.find_by_id(user_id).await.map_err(failed)?.ok_or(ResetError::InvalidLink)?;
        let store = async {
            self.stores.passwords.set_password_hash(user_id, &hash).await?;
            self.stores.tokens.set_email_confirmed(user_id, now).await
        };
        self.stores.revocation.new_password(&user, NewPassword::Reset, now, store).await.map_err(failed)?;
        // The account as it is now (its address confirmed by the link).
        self.stores.users.find_by_id(user_id).await.map_err(failed)?.ok_or(ResetError::InvalidLink)
    }
}

/// What became of a reset request, for the log only: the person sees the same page either way.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Sent {
    /// Sent when an account uses the address (and it had fewer than three links this hour).
    AsFarAsWeKnow,
    /// Something failed on our side; why, for the log.
    Failed(String),
}

#[derive(Debug, thiserror::Error)]
pub enum ResetError {
    #[error("this link is not valid: it was used already, it expired, or it was copied incompletely")]
    InvalidLink,
    #[error(transparent)]
    Password(SignInError),
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fakes::Memory;
    use crate::model::NewUser;
    use crate::signin::{SessionRepository, StoredSession};
    use kernel::{FixedClock, MemoryMailer};
    use time::macros::datetime;

    struct PlainHasher;

    #[async_trait::async_trait]
    impl PasswordHashing for PlainHasher {
        async fn hash(&self, password: String) -> Option<String> {
            Some(format!("plain:{password}"))
        }
        async fn verify(&self, password: String, phc: String) -> bool {
            phc == format!("plain:{password}")
        }
    }

    fn service() -> (PasswordReset, Arc<Memory>, Arc<MemoryMailer>, Arc<FixedClock>) {
        let memory = Arc::new(Memory::default());
        let mailer = Arc::new(MemoryMailer::default());
        let clock = Arc::new(FixedClock::new(datetime!(2026-11-25 10:00 UTC)));
        let stores = ResetStores {
            tokens: memory.clone(),
            users: memory.clone(),
            passwords: memory.clone(),
            revocation: AccessRevocation::new(memory.clone(), mailer.clone(), "Launchdir".into(), "https://launch.example".into()),
            hasher: Arc::new(PlainHasher),
            mailer: mailer.clone(),
            clock: clock.clone(),
        };
        (PasswordReset::new(stores, "Launchdir".into(), "https://launch.example".into()), memory, mailer, clock)
    }

    async fn user(memory: &Memory) -> User {
        let new = NewUser {
            email: Email::parse("ada@example.com").unwrap(),
            display_name: "Ada".into(),
            created_at: datetime!(2026-11-01 9:00 UTC),
        };
        memory.create(new).await.unwrap()
    }

    fn token_of(mailer: &MemoryMailer) -> String {
        let body = mailer.sent().last().unwrap().body.clone();
        body.split("token=").nth(1).unwrap().split_whitespace().next().unwrap().to_owned()
    }

    #[tokio::test]
    async fn a_link_sets_the_password_once_confirms_the_address_and_signs_out_everywhere() {
        let (reset, memory, mailer, _) = service();
        let ada = user(&memory).await;
        let session = StoredSession { user_id: ada.id, csrf_token: "c".into(), expires_at: datetime!(2026-12-01 0:00 UTC) };
        memory.create_session("old", &session).await.unwrap();
        reset.request("ada@example.com").await.unwrap();
        let token = token_of(&mailer);
        assert!(matches!(reset.reset(&token, "short").await, Err(ResetError::Password(SignInError::Invalid(_)))));
        let updated = reset.reset(&token, "a new long password").await.unwrap();
        assert!(updated.email_confirmed_at.is_some(), "the link proved the address");
        assert_eq!(memory.password_hash(ada.id).await.unwrap().as_deref(), Some("plain:a new long password"));
        assert!(memory.find_session("old").await.unwrap().is_none(), "signed out everywhere");
        assert!(matches!(reset.reset(&token, "another long password").await, Err(ResetError::InvalidLink)), "once");
    }

    #[tokio::test]
    async fn a_reset_ends_every_key_and_session_of_the_account_and_the_email_says_so() {
        let (reset, memory, mailer, clock) = service();
        let ada = user(&memory).await;
        let session = StoredSession { user_id: ada.id, csrf_token: "c".into(), expires_at: datetime!(2026-12-01 0:00 UTC) };
        memory.create_session("taken-over", &session).await.unwrap();
        let key = crate::ports::NewApiKey {
            user_id: ada.id,
            name: "made before the owner came back".into(),
            prefix: "ldk_before".into(),
            token_hash: "hash-of-the-key".into(),
            scopes: crate::model::Scopes::all(),
            created_at: clock.now(),
        };
        crate::ports::ApiKeyRepository::insert(&*memory, key).await.unwrap();
        reset.request("ada@example.com").await.unwrap();
        reset.reset(&token_of(&mailer), "a new long password").await.unwrap();

        assert!(memory.find_session("taken-over").await.unwrap().is_none());
        assert!(memory.keys.lock().unwrap()[0].revoked_at.is_some(), "the key made before is revoked");
        assert_eq!(*memory.access_ended.lock().unwrap(), vec![(ada.id, clock.now())], "OAuth tokens end through the same port");
        let sent = mailer.sent();
        let notice = sent.last().unwrap();
        assert_eq!((sent.len(), notice.to.as_str(), notice.kind.as_str()), (2, "ada@example.com", "password_changed"));
        for said in ["reset link", "every API key is revoked", "every connected app is disconnected", "every session is signed out"] {
            assert!(notice.body.contains(said), "{said} in {}", notice.body);
        }
    }

    #[tokio::test]
    async fn at_most_three_reset_links_an_hour_and_the_answer_does_not_change() {
        let (reset, memory, mailer, _) = service();
        user(&memory).await;
        for _ in 0..5 {
            assert_eq!(reset.request("ada@example.com").await.unwrap(), Sent::AsFarAsWeKnow);
        }
        assert_eq!(mailer.sent().len(), 3);
    }

    #[tokio::test]
    async fn asking_says_nothing_about_unknown_addresses_and_links_expire_in_an_hour() {
        let (reset, memory, mailer, clock) = service();
        assert_eq!(reset.request("nobody@example.com").await.unwrap(), Sent::AsFarAsWeKnow);
        assert!(mailer.sent().is_empty());
        assert!(matches!(reset.request("not an address").await, Err(SignInError::Invalid(_))));
        let ada = user(&memory).await;
        reset.request("ada@example.com").await.unwrap();
        clock.advance(RESET_LIFETIME + Duration::seconds(1));
        assert!(matches!(reset.reset(&token_of(&mailer), "a new long password").await, Err(ResetError::InvalidLink)));
        assert_eq!(memory.password_hash(ada.id).await.unwrap(), None);
    }
}
