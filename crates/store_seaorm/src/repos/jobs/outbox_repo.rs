//! The database outbox: the default `Mailer`. E-mails are stored, and `launchdir outbox list`
//! shows them; a deployment that sends mail configures SMTP instead.

use crate::entity::outbox_email;
use crate::{SeaStore, repo_err};
use async_trait::async_trait;
use kernel::{MailError, Mailer, OutgoingEmail, RepoError};
use sea_orm::{ActiveModelTrait, EntityTrait, QueryOrder, QuerySelect, Set};
use time::OffsetDateTime;

/// An e-mail in the outbox.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutboxEmail {
    pub id: i64,
    pub to: String,
    pub subject: String,
    pub body: String,
    pub kind: String,
    pub created_at: OffsetDateTime,
}

/// The outbox mailer; it writes through the store's connection.
#[derive(Clone)]
pub struct OutboxMailer {
    store: SeaStore,
    clock: std::sync::Arc<dyn kernel::Clock>,
}

impl OutboxMailer {
    pub fn new(store: SeaStore, clock: std::sync::Arc<dyn kernel::Clock>) -> Self {
        Self { store, clock }
    }
}

#[async_trait]
impl Mailer for OutboxMailer {
    async fn send(&self, email: OutgoingEmail) -> Result<(), MailError> {
        outbox_email::ActiveModel {
            to_address: Set(email.to.as_str().to_owned()),
            subject: Set(email.subject.chars().take(300).collect()),
            body: Set(email.body),
            kind: Set(email.kind),
            created_at: Set(self.clock.now().to_offset(time::UtcOffset::UTC)),
            ..Default::default()
        }
        .insert(self.store.connection())
        .await
        .map_err(repo_err)?;
        Ok(())
    }
}

impl SeaStore {
    /// The newest e-mails of the outbox, newest first.
    pub async fn outbox(&self, limit: u64) -> Result<Vec<OutboxEmail>, RepoError> {
        let rows = outbox_email::Entity::find()
            .order_by_desc(outbox_email::Column::Id)
            .limit(limit)
            .all(self.connection())
            .await
            .map_err(repo_err)?;
        Ok(rows
            .into_iter()
            .map(|row| OutboxEmail {
                id: row.id,
                to: row.to_address,
                subject: row.subject,
                body: row.body,
                kind: row.kind,
                created_at: row.created_at,
            })
            .collect())
    }
}
