//! Co-founder invitations: `invite_cofounder` e-mails a link (`{site_url}/invites/<token>`,
//! only the token's SHA-256 stored); whoever opens it, signed in, adds their own founder
//! profile (name, role, a short bio) to the draft, once, within [`INVITE_LIFETIME`]. A submitted
//! draft's listing takes the new founder too. The founder is the person's own statement, not
//! drafted from the site, so the founders section is marked as changed by people.

use crate::model::DraftId;
use crate::model::{DraftFounder, FieldName, FieldState};
use crate::ports::{InviteOutcome, InviteQuota, StoredInvite};
use crate::service::{DraftError, DraftsService, Invitation, MAX_INVITES};
use kernel::{Email, FieldError, OutgoingEmail, RepoError, UserId};
use time::{Duration, OffsetDateTime};

/// How long an invitation's link works.
pub const INVITE_LIFETIME: Duration = Duration::days(14);

/// Whether an invitation's link can still be used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InviteState {
    Open,
    Accepted,
    Expired,
}

/// An invitation as its page shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpenInvite {
    pub product: String,
    pub product_url: String,
    /// The address the invitation went to.
    pub email: String,
    pub state: InviteState,
    pub expires_at: OffsetDateTime,
}

/// What accepting did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AcceptedInvite {
    pub product: String,
    /// Whether the draft was submitted already (then its listing takes the founder too).
    pub on_listing: bool,
}

fn state_of(invite: &StoredInvite, now: OffsetDateTime) -> InviteState {
    match invite.accepted_at {
        Some(_) => InviteState::Accepted,
        None if invite.created_at + INVITE_LIFETIME <= now => InviteState::Expired,
        None => InviteState::Open,
    }
}

impl DraftsService {
    /// `invite_cofounder`: e-mails an invitation; at most ten per draft, each address once, and
    /// within the account's and the recipient's daily quotas.
    pub async fn invite(&self, owner: UserId, id: DraftId, email: Email, inviter: &str) -> Result<Invitation, DraftError> {
        let (draft, _) = self.load_owned(owner, id).await?;
        let token = kernel::secrets::random_token().map_err(|err| DraftError::Repo(RepoError::backend(err)))?;
        let quota = InviteQuota {
            per_draft: MAX_INVITES,
            per_account_per_day: self.policy.invites_per_account_per_day,
            per_recipient_per_day: self.policy.invites_per_recipient_per_day,
        };
        let now = self.clock.now();
        // Seconds until the oldest counted invitation is a day old.
        let wait =
            |oldest: time::OffsetDateTime| u32::try_from((oldest + time::Duration::DAY - now).whole_seconds().max(1)).unwrap_or(u32::MAX);
        // The repository counts and inserts in one transaction, so the limits hold under races.
        let sent = match self.repo.add_invite(id, owner, email.as_str(), &kernel::secrets::sha256_hex(&token), quota, now).await? {
            InviteOutcome::Added { sent } => sent,
            InviteOutcome::Duplicate => return Err(DraftError::field("email", "this address was invited to this draft already")),
            InviteOutcome::LimitReached => {
                return Err(DraftError::field("email", format!("a draft can send at most {MAX_INVITES} invitations")));
            }
            InviteOutcome::AccountDaily { oldest } => {
                return Err(DraftError::RateLimited {
                    retry_after: wait(oldest),
                    detail: format!("an account can send at most {} invitations a day", quota.per_account_per_day),
                });
            }
            InviteOutcome::RecipientDaily { oldest } => {
                return Err(DraftError::RateLimited {
                    retry_after: wait(oldest),
                    detail: format!("an address can receive at most {} invitations a day", quota.per_recipient_per_day),
                });
            }
        };
        let product = draft.text(FieldName::Name).map_or_else(|| draft.url.to_string(), str::to_owned);
        let site = &self.policy;
        self.mailer
            .send(OutgoingEmail {
                to: email.clone(),
                // Only our own words in the subject: the draft's name and the inviter's name are
                // anyone's text, and a subject line is where a phishing lure would go.
                subject: format!("An invitation to add your founder profile on {}", site.site_name),
                body: format!(
                    "Hello,\n\n{inviter} is listing {product} on {} and invites you, as a co-founder, to add your own founder profile.\n\nAccept the invitation here (the link works once, for 14 days):\n{}/invites/{token}\n\nIf you do not know {product}, ignore this e-mail.\n",
                    site.site_name, site.site_url
                ),
                kind: "draft_invite".into(),
            })
            .await?;
        self.modify(id, |draft| draft.invites = draft.invites.max(sent)).await?;
        Ok(Invitation { email, invites_sent: sent, invites_left: MAX_INVITES.saturating_sub(sent) })
    }

    async fn invite_and_draft(&self, token: &str) -> Result<Option<(StoredInvite, crate::model::Draft)>, RepoError> {
        let Some(invite) = self.repo.invite_by_token(&kernel::secrets::sha256_hex(token)).await? else { return Ok(None) };
        let Some((draft, _)) = self.repo.get(invite.draft).await? else { return Ok(None) };
        Ok(Some((invite, draft)))
    }

    /// The invitation behind a link; `None` for a link that names none.
    pub async fn invitation(&self, token: &str) -> Result<Option<OpenInvite>, RepoError> {
        let Some((invite, draft)) = self.invite_and_draft(token).await? else { return Ok(None) };
        Ok(Some(OpenInvite {
            product: draft.text(FieldName::Name).map_or_else(|| draft.url.to_string(), str::to_owned),
            product_url: draft.url.to_string(),
            state: state_of(&invite, self.clock.now()),
            expires_at: invite.created_at + INVITE_LIFETIME,
            email: invite.email,
        }))
    }

    /// Adds `founder` (checked: a name of 1 to 100 characters, a role up to 100, a bio up to
    /// 1,000) to the invitation's draft on behalf of `user`, whose address must be the invited
    /// one (a forwarded link makes no one else a founder); the link works once. A founder of the
    /// same name already on the draft (drafted from the site) takes the role and bio given.
    pub async fn accept_invitation(
        &self,
        token: &str,
        user: UserId,
        user_email: &str,
        founder: DraftFounder,
    ) -> Result<AcceptedInvite, DraftError> {
        let founder = checked_founder(founder)?;
        let Some((invite, draft)) = self.invite_and_draft(token).await? else { return Err(DraftError::NotFound) };
        if !invite.email.eq_ignore_ascii_case(user_email) {
            return Err(DraftError::field("email", format!("this invitation went to {}: sign in with that address", invite.email)));
        }
        let now = self.clock.now();
        if state_of(&invite, now) != InviteState::Open || !self.repo.accept_invite(invite.id, user, now).await? {
            return Err(DraftError::field("token", "this invitation was used already or has expired"));
        }
        let added = self
            .modify(invite.draft, |draft| {
                let founders = &mut draft.founders;
                match founders.value.iter_mut().find(|known| known.name.eq_ignore_ascii_case(&founder.name)) {
                    Some(known) => {
                        known.title = founder.title.clone().or(known.title.take());
                        known.bio = founder.bio.clone().or(known.bio.take());
                    }
                    None => founders.value.push(founder.clone()),
                }
                // Drafted founders keep their quotes; the section is now partly people's word.
                founders.state = match founders.state {
                    FieldState::Ai | FieldState::Edited => FieldState::Edited,
                    FieldState::Override => FieldState::Override,
                    _ => FieldState::Manual,
                };
            })
            .await;
        if let Err(error) = added {
            // The founder was not saved: the link works again.
            self.repo.reopen_invite(invite.id).await?;
            return Err(error);
        }
        Ok(AcceptedInvite {
            product: draft.text(FieldName::Name).map_or_else(|| draft.url.to_string(), str::to_owned),
            on_listing: draft.listing_id.is_some(),
        })
    }
}

fn checked_founder(founder: DraftFounder) -> Result<DraftFounder, DraftError> {
    let trimmed = |text: Option<String>| text.map(|text| text.trim().to_owned()).filter(|text| !text.is_empty());
    let founder = DraftFounder { name: founder.name.trim().to_owned(), title: trimmed(founder.title), bio: trimmed(founder.bio) };
    let mut errors = Vec::new();
    if founder.name.is_empty() || founder.name.chars().count() > 100 {
        errors.push(FieldError::new("name", "your name, 1 to 100 characters"));
    }
    if founder.title.as_ref().is_some_and(|title| title.chars().count() > 100) {
        errors.push(FieldError::new("title", "at most 100 characters"));
    }
    if founder.bio.as_ref().is_some_and(|bio| bio.chars().count() > 1000) {
        errors.push(FieldError::new("bio", "at most 1,000 characters"));
    }
    match errors.is_empty() {
        true => Ok(founder),
        false => Err(DraftError::Invalid(errors)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_founder_needs_a_name_and_bounded_words() {
        let founder =
            |name: &str, title: &str, bio: &str| DraftFounder { name: name.into(), title: Some(title.into()), bio: Some(bio.into()) };
        let ok = checked_founder(founder("  Ada Lovelace ", " ", "Writes the engine.")).unwrap();
        assert_eq!(ok, DraftFounder { name: "Ada Lovelace".into(), title: None, bio: Some("Writes the engine.".into()) });
        let fields = |result: Result<DraftFounder, DraftError>| match result {
            Err(DraftError::Invalid(errors)) => errors.into_iter().map(|error| error.field).collect::<Vec<_>>(),
            other => panic!("{other:?}"),
        };
        assert_eq!(fields(checked_founder(founder(" ", &"t".repeat(101), &"b".repeat(1001)))), ["name", "title", "bio"]);
    }

    #[test]
    fn a_link_is_open_until_used_or_fourteen_days_old() {
        let made = time::macros::datetime!(2026-11-01 00:00 UTC);
        let invite = StoredInvite { id: 1, draft: DraftId::random(), email: "a@x.example".into(), created_at: made, accepted_at: None };
        assert_eq!(state_of(&invite, made + Duration::days(13)), InviteState::Open);
        assert_eq!(state_of(&invite, made + Duration::days(14)), InviteState::Expired);
        let used = StoredInvite { accepted_at: Some(made), ..invite };
        assert_eq!(state_of(&used, made), InviteState::Accepted);
    }
}
