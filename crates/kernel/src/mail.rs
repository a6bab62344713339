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
