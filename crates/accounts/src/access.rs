//! Taking an account back: a new password (changed on the account page, or set through an
//! e-mailed reset link) ends every way into the account that existed before it, not only the
//! sessions: every API key and every OAuth token (access and refresh) too, so whoever had one
//! (someone who signed up with the address before its owner, a stolen session or key) keeps
//! nothing. The address is told what ended. Changing and resetting both come through
//! `AccessRevocation`; the store ends access in the same code closing an account runs.

use crate::model::User;
use async_trait::async_trait;
use kernel::{Mailer, OutgoingEmail, RepoError, UserId};
use std::sync::Arc;
use time::OffsetDateTime;

/// What ending every way into an account took away.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Ended {
    /// Signed-in sessions ended.
    pub sessions: u64,
    /// API keys revoked (those not revoked before).
    pub api_keys: u64,
    /// OAuth tokens of connected apps revoked, access and refresh alike (those not revoked
    /// before).
    pub oauth_tokens: u64,
}

/// Ends every way into an account, in one transaction: what closing an account does to them,
/// alone.
#[async_trait]
pub trait AccessRevoker: Send + Sync {
    /// Deletes every session and authorization code of `user` and marks every API key and OAuth
    /// token of it (access and refresh) revoked at `at`; says how many of each there were.
    ///
    /// # Errors
    /// Whatever the store reports; then nothing ended.
    async fn end_every_access(&self, user: UserId, at: OffsetDateTime) -> Result<Ended, RepoError>;
}

/// How an account got its new password, for the e-mail that tells its address.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NewPassword {
    /// Changed on the account page, with the current password.
    Changed,
    /// Set through a reset link e-mailed to the address.
    Reset,
}

/// What a new password does beyond storing it: every session, API key and connected app of the
/// account ends, and its address is told so.
#[derive(Clone)]
pub struct AccessRevocation {
    access: Arc<dyn AccessRevoker>,
    mailer: Arc<dyn Mailer>,
    site_name: String,
    /// The site address the e-mail's link starts with, without a trailing slash.
    site_url: String,
}

impl AccessRevocation {
    pub fn new(access: Arc<dyn AccessRevoker>, mailer: Arc<dyn Mailer>, site_name: String, site_url: String) -> Self {
        Self { access, mailer, site_name, site_url }
    }

    /// Gives `user`'s account a new password: ends every way into it at `at` first, then runs
    /// `store` (which stores the password and whatever goes with it), then e-mails the address
    /// what ended. In that order, a failure never leaves a new password with the old keys and
    /// tokens still working; at worst the old password stays and everyone signs in again. An
    /// e-mail that cannot be handed over is logged, not returned: the password is new and the
    /// access ended either way, and the person is told so on the page too.
    pub async fn new_password<F>(&self, user: &User, how: NewPassword, at: OffsetDateTime, store: F) -> Result<Ended, RepoError>
    where
        F: std::future::Future<Output = Result<(), RepoError>> + Send,
    {
        let ended = self.access.end_every_access(user.id, at).await?;
        store.await?;
        if let Err(err) = self.mailer.send(self.notice(user, how)).await {
            tracing::warn!(error = %err, user = user.id.get(), "the e-mail about a new password could not be sent");
        }
        Ok(ended)
    }

    /// The e-mail after a new password: the site's words only (no name anyone typed).
    fn notice(&self, user: &User, how: NewPassword) -> OutgoingEmail {
        let what = match how {
            NewPassword::Changed => "was changed on your account page",
            NewPassword::Reset => "was set through a reset link sent to this address",
        };
        let body = format!(
            "Hello,\n\nThe password of your account on {site} {what}.\n\n\
             So that nobody else keeps a way into the account, everything that could use it before has ended:\n\n\
             - every API key is revoked;\n\
             - every connected app is disconnected: its access and refresh tokens no longer work;\n\
             - every session is signed out, on every device.\n\n\
             Sign in with the new password, then create new API keys and connect your apps again where you need them.\n\n\
             If you did not do this, set a new password at once: {url}/account/reset\n",
            site = self.site_name,
            url = self.site_url,
        );
        OutgoingEmail {
            to: user.email.clone(),
            subject: format!("Your password on {} is new: API keys, connected apps and sessions ended", self.site_name),
            body,
            kind: "password_changed".to_owned(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fakes::Memory;
    use kernel::{Email, MemoryMailer};
    use time::macros::datetime;

    #[tokio::test]
    async fn a_new_password_ends_every_way_in_and_the_email_says_what_ended() {
        let memory = Arc::new(Memory::default());
        let mailer = Arc::new(MemoryMailer::default());
        let revocation = AccessRevocation::new(memory.clone(), mailer.clone(), "Launchdir".into(), "https://launch.example".into());
        let ada = User {
            id: UserId::new(1),
            email: Email::parse("ada@example.com").unwrap(),
            display_name: "Typed by anyone".into(),
            created_at: datetime!(2026-11-01 9:00 UTC),
            blocked: false,
            email_confirmed_at: None,
            is_admin: false,
        };
        let ended = revocation.new_password(&ada, NewPassword::Reset, datetime!(2026-11-25 10:00 UTC), async { Ok(()) }).await.unwrap();
        assert_eq!(*memory.access_ended.lock().unwrap(), vec![(ada.id, datetime!(2026-11-25 10:00 UTC))], "through the port");
        assert_eq!(ended, Ended::default(), "the fake had nothing to end");

        let sent = mailer.sent();
        assert_eq!((sent.len(), sent[0].to.as_str(), sent[0].kind.as_str()), (1, "ada@example.com", "password_changed"));
        for said in ["reset link", "every API key is revoked", "every connected app is disconnected", "access and refresh tokens"] {
            assert!(sent[0].body.contains(said), "{said} in {}", sent[0].body);
        }
        assert!(sent[0].body.contains("every session is signed out"), "{}", sent[0].body);
        assert!(!sent[0].body.contains("Typed by anyone"), "the site's words only");
        revocation.new_password(&ada, NewPassword::Changed, datetime!(2026-11-25 11:00 UTC), async { Ok(()) }).await.unwrap();
        assert!(mailer.sent()[1].body.contains("was changed on your account page"));

        // Access ends before the new password is stored: when storing fails, nothing that used
        // the account before still works with it, and no mail says the password is new.
        let stored_after_the_end = {
            let memory = memory.clone();
            async move {
                assert_eq!(memory.access_ended.lock().unwrap().len(), 3, "access had ended before the password was stored");
                Err(RepoError::Backend("the disk is full".into()))
            }
        };
        let failed = revocation.new_password(&ada, NewPassword::Changed, datetime!(2026-11-25 12:00 UTC), stored_after_the_end).await;
        assert!(failed.is_err());
        assert_eq!(mailer.sent().len(), 2, "no mail about a password that was not stored");
    }
}
