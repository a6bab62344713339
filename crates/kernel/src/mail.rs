//! The `Mailer` port: every e-mail the service sends goes through it (a database outbox by
//! default, SMTP when configured).

use crate::{Email, RepoError};
use async_trait::async_trait;

/// One plain-text e-mail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutgoingEmail {
    pub to: Email,
    pub subject: String,
    pub body: String,
    /// What it is about (`draft_invite`, `claim_link`, ...), for the outbox and logs.
    pub kind: String,
}

/// Why an e-mail could not be handed over.
#[derive(Debug, thiserror::Error)]
pub enum MailError {
    #[error(transparent)]
    Repo(#[from] RepoError),
    #[error("the mail server refused the message: {0}")]
    Transport(String),
}

#[async_trait]
pub trait Mailer: Send + Sync {
    /// Hands the e-mail over for delivery.
    async fn send(&self, email: OutgoingEmail) -> Result<(), MailError>;
}

/// A mailer that keeps what it is given, for the unit tests of the domains (feature
/// `testing`): the one in-memory stand-in for the port.
#[cfg(feature = "testing")]
#[derive(Debug, Default)]
pub struct MemoryMailer {
    sent: std::sync::Mutex<Vec<OutgoingEmail>>,
}

#[cfg(feature = "testing")]
impl MemoryMailer {
    /// Every e-mail sent so far, oldest first.
    pub fn sent(&self) -> Vec<OutgoingEmail> {
        self.sent.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).clone()
    }
}

#[cfg(feature = "testing")]
#[async_trait]
impl Mailer for MemoryMailer {
    async fn send(&self, email: OutgoingEmail) -> Result<(), MailError> {
        self.sent.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).push(email);
        Ok(())
    }
}
