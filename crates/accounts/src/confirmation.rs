//! Proving an e-mail address: a link carrying a single-use token (32 random bytes; only its
//! SHA-256 is stored), sent through the `Mailer` port and valid for 48 hours. Using the link
//! marks the account's address confirmed; only people with a confirmed address vote.
//!
//! Anyone can type any address into the sign-up form, so the mails sent from it are the site's
//! words only: nothing the person typed (their chosen name included) reaches an inbox. A sign-up
//! with an address that has an account sends its owner a notice instead of a confirmation.

use crate::model::User;
use crate::ports::UserRepository;
use crate::token::hash_token;
use async_trait::async_trait;
use kernel::{Clock, Mailer, OutgoingEmail, RepoError, UserId};
use std::sync::Arc;
use time::{Duration, OffsetDateTime};

/// How long a confirmation link works.
pub const CONFIRMATION_LIFETIME: Duration = Duration::hours(48);

/// At most this many links of one purpose go to one account in an hour, however often they
/// are asked for: nobody can flood an inbox through our forms.
pub const LINKS_PER_HOUR: u64 = 3;

/// What an e-mailed link is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EmailTokenPurpose {
    ConfirmEmail,
    /// Setting a new password (`crate::reset`).
    ResetPassword,
}

impl EmailTokenPurpose {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::ConfirmEmail => "confirm_email",
            Self::ResetPassword => "reset_password",
        }
    }
}

/// A link's token as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewEmailToken {
    pub user_id: UserId,
    pub purpose: EmailTokenPurpose,
    pub token_hash: String,
    pub created_at: OffsetDateTime,
    pub expires_at: OffsetDateTime,
}

/// E-mailed links' tokens and the confirmed mark on accounts.
#[async_trait]
pub trait EmailTokenRepository: Send + Sync {
    async fn insert_email_token(&self, token: NewEmailToken) -> Result<(), RepoError>;
    /// How many links of `purpose` `user` was sent since `since`.
    async fn count_email_tokens_since(&self, user: UserId, purpose: EmailTokenPurpose, since: OffsetDateTime) -> Result<u64, RepoError>;
    /// Uses a token: one conditional write marks it used if it has `purpose`, is unused and
    /// has not expired at `now`, and returns its account; `None` otherwise. Two uses at once
    /// cannot both succeed.
    async fn use_email_token(&self, purpose: EmailTokenPurpose, token_hash: &str, now: OffsetDateTime)
    -> Result<Option<UserId>, RepoError>;
    /// Marks the account's address confirmed at `at` (keeps an earlier mark).
    async fn set_email_confirmed(&self, user: UserId, at: OffsetDateTime) -> Result<(), RepoError>;
}

#[derive(Debug, thiserror::Error)]
pub enum ConfirmationError {
    #[error("this link is not valid: it was used already, it expired, or it was copied incompletely")]
    InvalidLink,
    #[error("the e-mail could not be sent; try again in a moment")]
    NotSent(#[source] Option<kernel::MailError>),
    #[error("we sent {LINKS_PER_HOUR} links in the last hour; use one of those, or ask again later")]
    TooMany,
    #[error(transparent)]
    Repo(#[from] RepoError),
}

/// What issuing a link gave.
pub(crate) enum Issued {
    /// The token to put in the link (only its hash was stored).
    Token(String),
    /// `LINKS_PER_HOUR` links of this purpose went to the account in the last hour already.
    TooMany,
}

/// Issues an e-mailed link's token for `user`: at most `LINKS_PER_HOUR` of one purpose an
/// hour, only its SHA-256 stored, valid for `lifetime`. Confirmation and reset links both come
/// from here.
pub(crate) async fn issue_link(
    tokens: &dyn EmailTokenRepository,
    clock: &dyn Clock,
    user: UserId,
    purpose: EmailTokenPurpose,
    lifetime: Duration,
) -> Result<Issued, ConfirmationError> {
    let now = clock.now();
    if tokens.count_email_tokens_since(user, purpose, now - Duration::hours(1)).await? >= LINKS_PER_HOUR {
        return Ok(Issued::TooMany);
    }
    let token = kernel::secrets::random_token().map_err(|_| ConfirmationError::NotSent(None))?;
    let stored = NewEmailToken { user_id: user, purpose, token_hash: hash_token(&token), created_at: now, expires_at: now + lifetime };
    tokens.insert_email_token(stored).await?;
    Ok(Issued::Token(token))
}

#[derive(Clone)]
pub struct EmailConfirmation {
    tokens: Arc<dyn EmailTokenRepository>,
    users: Arc<dyn UserRepository>,
    mailer: Arc<dyn Mailer>,
    clock: Arc<dyn Clock>,
    site_name: String,
    /// The site address the links start with, without a trailing slash.
    site_url: String,
}

impl EmailConfirmation {
    pub fn new(
        tokens: Arc<dyn EmailTokenRepository>,
        users: Arc<dyn UserRepository>,
        mailer: Arc<dyn Mailer>,
        clock: Arc<dyn Clock>,
        site_name: String,
        site_url: String,
    ) -> Self {
        Self { tokens, users, mailer, clock, site_name, site_url }
    }

    /// Sends `user` a new confirmation link (earlier links keep working until they expire), at
    /// most `LINKS_PER_HOUR` an hour. The mail holds only our words and the link: whoever asked
    /// for it may not own the address, so nothing they typed goes into it (where they were going
    /// is kept by the site in their own browser).
    pub async fn send(&self, user: &User) -> Result<(), ConfirmationError> {
        let issued = issue_link(&*self.tokens, &*self.clock, user.id, EmailTokenPurpose::ConfirmEmail, CONFIRMATION_LIFETIME).await?;
        let Issued::Token(token) = issued else { return Err(ConfirmationError::TooMany) };
        let link = format!("{}/account/confirm?token={token}", self.site_url);
        // No greeting by name: the name was typed by whoever signed up, perhaps not the owner.
        let body = format!(
            "Hello,\n\nPlease confirm that this is your e-mail address for your account on {site}:\n\n{link}\n\n\
             The link works once, for 48 hours. Once confirmed, you can vote for products.\n\n\
             If you did not create an account on {site}, ignore this e-mail: nothing happens without the link.\n",
            site = self.site_name,
        );
        self.mailer
            .send(OutgoingEmail {
                to: user.email.clone(),
                subject: format!("Confirm your e-mail address for {}", self.site_name),
                body,
                kind: "confirm_email".to_owned(),
            })
            .await
            .map_err(|err| ConfirmationError::NotSent(Some(err)))
    }

    /// Tells the owner of an address that someone tried to sign up with it (the sign-up page
    /// answered "check your inbox", as for a new address). The site's words only, with a link to
    /// sign in and a link to set a new password. That link is a reset link, counted with the
    /// reset page's: at most `LINKS_PER_HOUR` of both together go to one account an hour, so the
    /// form cannot flood an inbox (`TooMany` beyond, nothing sent). A blocked account is sent
    /// nothing, as a reset would not be.
    pub async fn tell_owner_of_sign_up(&self, owner: &User) -> Result<(), ConfirmationError> {
        if owner.blocked {
            return Ok(());
        }
        let issued =
            issue_link(&*self.tokens, &*self.clock, owner.id, EmailTokenPurpose::ResetPassword, crate::reset::RESET_LIFETIME).await?;
        let Issued::Token(token) = issued else { return Err(ConfirmationError::TooMany) };
        let body = format!(
            "Hello,\n\nSomeone tried to create an account on {site} with this e-mail address. It has an account already, \
             so no account was created and nothing changed.\n\n\
             If it was you, sign in:\n\n{url}/signin\n\n\
             If you forgot your password, set a new one (the link works once, for one hour):\n\n\
             {url}/account/reset/password?token={token}\n\n\
             If it was not you, ignore this e-mail: your account stays as it is.\n",
            site = self.site_name,
            url = self.site_url,
        );
        self.mailer
            .send(OutgoingEmail {
                to: owner.email.clone(),
                subject: format!("Someone tried to sign up with your address on {}", self.site_name),
                body,
                kind: "sign_up_attempt".to_owned(),
            })
            .await
            .map_err(|err| ConfirmationError::NotSent(Some(err)))
    }

    /// Uses a link's token: the account's address is confirmed, and the account returned.
    pub async fn confirm(&self, token: &str) -> Result<User, ConfirmationError> {
        let now = self.clock.now();
        let user_id = self
            .tokens
            .use_email_token(EmailTokenPurpose::ConfirmEmail, &hash_token(token), now)
            .await?
            .ok_or(ConfirmationError::InvalidLink)?;
        self.tokens.set_email_confirmed(user_id, now).await?;
        self.users.find_by_id(user_id).await?.ok_or(ConfirmationError::InvalidLink)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fakes::Memory;
    use crate::model::NewUser;
    use kernel::{Email, FixedClock, MemoryMailer};
    use time::macros::datetime;

    fn service() -> (EmailConfirmation, Arc<Memory>, Arc<MemoryMailer>, Arc<FixedClock>) {
        let memory = Arc::new(Memory::default());
        let mailer = Arc::new(MemoryMailer::default());
        let clock = Arc::new(FixedClock::new(datetime!(2026-11-25 10:00 UTC)));
        let confirmation = EmailConfirmation::new(
            memory.clone(),
            memory.clone(),
            mailer.clone(),
            clock.clone(),
            "Launchdir".into(),
            "https://launch.example".into(),
        );
        (confirmation, memory, mailer, clock)
    }

    async fn user(memory: &Memory) -> User {
        let new = NewUser {
            email: Email::parse("ada@example.com").unwrap(),
            display_name: "Ada".into(),
            created_at: datetime!(2026-11-25 9:00 UTC),
        };
        memory.create(new).await.unwrap()
    }

    fn token_of(mailer: &MemoryMailer) -> String {
        let body = mailer.sent().last().unwrap().body.clone();
        body.split("token=").nth(1).unwrap().split_whitespace().next().unwrap().to_owned()
    }

    #[tokio::test]
    async fn the_link_confirms_once_and_only_its_hash_is_kept() {
        let (confirmation, memory, mailer, _) = service();
        let ada = user(&memory).await;
        confirmation.send(&ada).await.unwrap();
        let sent = mailer.sent();
        assert_eq!((sent.len(), sent[0].to.as_str(), sent[0].kind.as_str()), (1, "ada@example.com", "confirm_email"));
        let token = token_of(&mailer);
        assert!(sent[0].body.contains(&format!("https://launch.example/account/confirm?token={token}")));
        let stored = memory.email_tokens.lock().unwrap().clone();
        assert_eq!(stored[0].0.token_hash, hash_token(&token), "only the hash is stored");
        let confirmed = confirmation.confirm(&token).await.unwrap();
        assert_eq!(confirmed.email_confirmed_at, Some(datetime!(2026-11-25 10:00 UTC)));
        assert!(matches!(confirmation.confirm(&token).await, Err(ConfirmationError::InvalidLink)), "single use");
        assert!(matches!(confirmation.confirm("not-a-token").await, Err(ConfirmationError::InvalidLink)));
    }

    #[tokio::test]
    async fn at_most_three_links_an_hour() {
        let (confirmation, memory, mailer, clock) = service();
        let ada = user(&memory).await;
        for _ in 0..LINKS_PER_HOUR {
            confirmation.send(&ada).await.unwrap();
        }
        assert!(matches!(confirmation.send(&ada).await, Err(ConfirmationError::TooMany)));
        assert_eq!(mailer.sent().len(), 3);
        clock.advance(Duration::minutes(61));
        confirmation.send(&ada).await.unwrap();
    }

    #[tokio::test]
    async fn the_mail_says_nothing_the_person_who_signed_up_typed() {
        let (confirmation, memory, mailer, _) = service();
        let typed = "Claim your prize at https://prize.example now";
        let new = NewUser {
            email: Email::parse("victim@example.com").unwrap(),
            display_name: typed.into(),
            created_at: datetime!(2026-11-25 9:00 UTC),
        };
        let victim = memory.create(new).await.unwrap();
        confirmation.send(&victim).await.unwrap();
        let sent = mailer.sent();
        assert!(sent[0].body.starts_with("Hello,\n"), "{}", sent[0].body);
        for part in [typed, "prize.example", "Claim your prize"] {
            assert!(!sent[0].body.contains(part) && !sent[0].subject.contains(part), "{part} in {:?}", sent[0]);
        }
    }

    #[tokio::test]
    async fn the_owner_of_a_taken_address_is_told_with_links_to_sign_in_and_reset_at_most_three_an_hour() {
        let (confirmation, memory, mailer, clock) = service();
        let ada = user(&memory).await;
        confirmation.tell_owner_of_sign_up(&ada).await.unwrap();
        let sent = mailer.sent();
        assert_eq!((sent.len(), sent[0].to.as_str(), sent[0].kind.as_str()), (1, "ada@example.com", "sign_up_attempt"));
        assert!(sent[0].body.contains("Someone tried to create an account on Launchdir with this e-mail address"));
        assert!(sent[0].body.contains("https://launch.example/signin\n"), "{}", sent[0].body);
        let token = token_of(&mailer);
        assert!(sent[0].body.contains(&format!("https://launch.example/account/reset/password?token={token}")));
        assert!(!sent[0].body.contains("Ada"), "the site's words only");
        let stored = memory.email_tokens.lock().unwrap().clone();
        assert_eq!((stored[0].0.purpose, stored[0].0.token_hash.as_str()), (EmailTokenPurpose::ResetPassword, hash_token(&token).as_str()));
        assert_eq!(stored[0].0.expires_at, clock.now() + crate::reset::RESET_LIFETIME);
        // Counted with reset links: the form cannot flood the inbox.
        for _ in 1..LINKS_PER_HOUR {
            confirmation.tell_owner_of_sign_up(&ada).await.unwrap();
        }
        assert!(matches!(confirmation.tell_owner_of_sign_up(&ada).await, Err(ConfirmationError::TooMany)));
        assert_eq!(mailer.sent().len(), 3);
        // A blocked account is told nothing.
        clock.advance(Duration::minutes(61));
        let blocked = User { blocked: true, ..ada };
        confirmation.tell_owner_of_sign_up(&blocked).await.unwrap();
        assert_eq!(mailer.sent().len(), 3);
    }

    #[tokio::test]
    async fn the_link_expires_after_48_hours() {
        let (confirmation, memory, mailer, clock) = service();
        let ada = user(&memory).await;
        confirmation.send(&ada).await.unwrap();
        clock.advance(CONFIRMATION_LIFETIME + Duration::seconds(1));
        assert!(matches!(confirmation.confirm(&token_of(&mailer)).await, Err(ConfirmationError::InvalidLink)));
        assert_eq!(memory.find_by_id(ada.id).await.unwrap().unwrap().email_confirmed_at, None);
    }
}
