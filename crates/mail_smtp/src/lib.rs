#![doc = include_str!("../README.md")]

use async_trait::async_trait;
use kernel::{MailError, Mailer, OutgoingEmail};
use lettre::message::Mailbox;
use lettre::message::header::ContentType;
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};

/// Sends through one SMTP server.
pub struct SmtpMailer {
    transport: AsyncSmtpTransport<Tokio1Executor>,
    from: Mailbox,
}

/// Why the mailer could not be built from its settings.
#[derive(Debug)]
pub struct SmtpConfigError(pub String);

impl std::fmt::Display for SmtpConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SmtpConfigError {}

impl std::fmt::Debug for SmtpMailer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The transport holds the SMTP credentials: never printed.
        f.debug_struct("SmtpMailer").field("from", &self.from.to_string()).finish_non_exhaustive()
    }
}

impl SmtpMailer {
    /// `url`: the SMTP server (see the crate's README); `from`: the sender, `Name <address>`.
    pub fn new(url: &str, from: &str) -> Result<Self, SmtpConfigError> {
        let transport = AsyncSmtpTransport::<Tokio1Executor>::from_url(url)
            .map_err(|err| SmtpConfigError(format!("mail.smtp_url is not a usable SMTP address: {err}")))?
            .timeout(Some(std::time::Duration::from_secs(20)))
            .build();
        let from = from.parse().map_err(|err| SmtpConfigError(format!("mail.from is not an address: {err}")))?;
        Ok(Self { transport, from })
    }
}

#[async_trait]
impl Mailer for SmtpMailer {
    async fn send(&self, email: OutgoingEmail) -> Result<(), MailError> {
        let to: Mailbox = email.to.as_str().parse().map_err(|err| MailError::Transport(format!("bad recipient: {err}")))?;
        let message = Message::builder()
            .from(self.from.clone())
            .to(to)
            .subject(email.subject)
            .header(ContentType::TEXT_PLAIN)
            .body(email.body)
            .map_err(|err| MailError::Transport(err.to_string()))?;
        self.transport.send(message).await.map_err(|err| MailError::Transport(err.to_string()))?;
        Ok(())
    }
}
