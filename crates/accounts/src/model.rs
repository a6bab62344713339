//! Users, API keys, scopes and the principal a request acts as.

use kernel::{ApiKeyId, Email, UserId};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use time::OffsetDateTime;

/// A permission an operation may need. Scopes are independent: none implies another.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Scope {
    #[serde(rename = "account:read")]
    AccountRead,
    #[serde(rename = "listings:write")]
    ListingsWrite,
    #[serde(rename = "orders:write")]
    OrdersWrite,
}

impl Scope {
    pub const ALL: [Scope; 3] = [Scope::AccountRead, Scope::ListingsWrite, Scope::OrdersWrite];

    pub fn as_str(self) -> &'static str {
        match self {
            Scope::AccountRead => "account:read",
            Scope::ListingsWrite => "listings:write",
            Scope::OrdersWrite => "orders:write",
        }
    }

    pub fn parse(raw: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|scope| scope.as_str() == raw)
    }
}

impl std::fmt::Display for Scope {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A set of scopes, kept sorted so its text form is stable.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Scopes(BTreeSet<Scope>);

impl Scopes {
    pub fn all() -> Self {
        Self(Scope::ALL.into_iter().collect())
    }

    pub fn contains(&self, scope: Scope) -> bool {
        self.0.contains(&scope)
    }

    pub fn iter(&self) -> impl Iterator<Item = Scope> + '_ {
        self.0.iter().copied()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Parses `account:read,listings:write`; an unknown name is returned as the error.
    pub fn parse_list(raw: &str) -> Result<Self, String> {
        raw.split([',', ' '])
            .map(str::trim)
            .filter(|part| !part.is_empty())
            .map(|part| Scope::parse(part).ok_or_else(|| part.to_owned()))
            .collect::<Result<BTreeSet<_>, _>>()
            .map(Self)
    }

    /// The storage form: names joined by single spaces, as in OAuth `scope` strings.
    pub fn to_text(&self) -> String {
        self.0.iter().map(|scope| scope.as_str()).collect::<Vec<_>>().join(" ")
    }
}

impl FromIterator<Scope> for Scopes {
    fn from_iter<I: IntoIterator<Item = Scope>>(iter: I) -> Self {
        Self(iter.into_iter().collect())
    }
}

/// A person with an account.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct User {
    pub id: UserId,
    pub email: Email,
    pub display_name: String,
    pub created_at: OffsetDateTime,
    /// A blocked account is refused everywhere with 403.
    pub blocked: bool,
    /// When the account proved its e-mail address (the link it was sent); `None` until then.
    pub email_confirmed_at: Option<OffsetDateTime>,
    /// The site team: opens the admin pages.
    pub is_admin: bool,
}

impl User {
    /// Whether the account proved its address. Anyone can sign up with any address, so what
    /// outlives a password (API keys, apps let in through OAuth) is given only to a confirmed
    /// one: whoever registers someone else's address first gets none of it.
    pub fn email_confirmed(&self) -> bool {
        self.email_confirmed_at.is_some()
    }
}

/// What is needed to create a user.
#[derive(Debug, Clone)]
pub struct NewUser {
    pub email: Email,
    pub display_name: String,
    pub created_at: OffsetDateTime,
}

/// An API key as stored: never the secret, only its hash and visible prefix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiKey {
    pub id: ApiKeyId,
    pub user_id: UserId,
    pub name: String,
    /// The first characters of the secret, safe to show (`ldk_AbCd1234`).
    pub prefix: String,
    pub scopes: Scopes,
    pub created_at: OffsetDateTime,
    pub last_used_at: Option<OffsetDateTime>,
    pub revoked_at: Option<OffsetDateTime>,
}

/// The credential a request presented.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Credential {
    ApiKey {
        id: ApiKeyId,
        name: String,
        prefix: String,
        created_at: OffsetDateTime,
    },
    /// An OAuth access token issued to `client_id` for `resource` (its audience).
    OAuth {
        token_id: i64,
        client_id: String,
        resource: String,
        expires_at: OffsetDateTime,
    },
    /// A person signed in on the site's own pages with their password: the pages run the same
    /// operations as the API on their behalf, with every scope.
    SiteSession,
}

/// Who a request acts as, and what its credential allows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Principal {
    pub user: User,
    pub credential: Credential,
    pub scopes: Scopes,
}

impl Principal {
    pub fn has_scope(&self, scope: Scope) -> bool {
        self.scopes.contains(scope)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scope_lists_parse_and_print_stably() {
        let scopes = Scopes::parse_list("orders:write, account:read").unwrap();
        assert_eq!(scopes.to_text(), "account:read orders:write");
        assert_eq!(Scopes::parse_list("account:read listings:write").unwrap().iter().count(), 2);
        assert_eq!(Scopes::parse_list("account:read,admin").unwrap_err(), "admin");
    }
}
