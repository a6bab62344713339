//! Who is calling: turns an `Authorization` header into a `Caller`, the same way for every
//! transport.

use crate::{App, OpError};
use accounts::{AuthError, Principal};

/// The caller of an operation: anonymous, or a principal with scopes.
#[derive(Debug, Clone, Default)]
pub struct Caller {
    pub principal: Option<Principal>,
    /// The client's address, once the request was counted (`admit` records it).
    pub client: Option<std::net::IpAddr>,
}

impl Caller {
    pub fn anonymous() -> Self {
        Self { principal: None, client: None }
    }

    /// Who is looking, for counting one view per viewer: the account when signed in, else the
    /// client address (IPv6 by its /64). `None` when neither is known.
    pub fn viewer(&self) -> Option<String> {
        if let Some(principal) = &self.principal {
            return Some(format!("user:{}", principal.user.id.get()));
        }
        self.client.map(kernel::client_key)
    }

    /// The signed-in principal. Operations with a scope only run with one (the registry checks
    /// it first); this is their way to reach it.
    pub fn signed_in(&self) -> Result<&accounts::Principal, OpError> {
        self.principal.as_ref().ok_or(OpError::Unauthorized { credential_sent: false, detail: "sign in first".into() })
    }

    /// The signed-in user's id.
    pub fn user_id(&self) -> Result<kernel::UserId, OpError> {
        self.signed_in().map(|principal| principal.user.id)
    }
}

/// Why a presented credential was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AuthFailure {
    Malformed,
    Unknown,
    Revoked,
}

/// Reads an `Authorization` header value for the REST API: an OAuth access token must have
/// been issued for the API's base URL.
pub async fn authenticate(app: &App, authorization: Option<&str>) -> Result<Caller, OpError> {
    authenticate_for(app, authorization, &app.site.base_url).await
}

/// Reads an `Authorization` header value. No header means anonymous; a header that is not a
/// usable bearer token is 401 even on public operations, so a client learns its key is wrong.
/// An OAuth access token must carry `audience` (the resource it was issued for, RFC 8707);
/// API keys are not bound to a resource.
pub async fn authenticate_for(app: &App, authorization: Option<&str>, audience: &str) -> Result<Caller, OpError> {
    let caller = authenticate_any(app, authorization).await?;
    if let Some(principal) = &caller.principal
        && let accounts::Credential::OAuth { resource, .. } = &principal.credential
        && resource != audience
    {
        return Err(OpError::Unauthorized {
            credential_sent: true,
            detail: format!("the access token was issued for {resource}, not for {audience}"),
        });
    }
    Ok(caller)
}

async fn authenticate_any(app: &App, authorization: Option<&str>) -> Result<Caller, OpError> {
    let Some(header) = authorization else {
        return Ok(Caller::anonymous());
    };
    let unauthorized = |detail: &str| OpError::Unauthorized { credential_sent: true, detail: detail.to_owned() };
    let token = match header.split_once(' ') {
        Some((scheme, token)) if scheme.eq_ignore_ascii_case("bearer") => token.trim(),
        _ => return Err(unauthorized("the Authorization header must be `Bearer <token>`")),
    };
    if token.is_empty() || token.len() > 512 || !token.bytes().all(|b| b.is_ascii_graphic()) {
        return Err(unauthorized("the bearer token is malformed"));
    }
    match app.accounts.users.authenticate(token).await {
        Ok(principal) => Ok(Caller { principal: Some(principal), client: None }),
        Err(AuthError::Unknown) => Err(unauthorized("the bearer token is not valid")),
        Err(AuthError::Revoked) => Err(unauthorized("the API key was revoked")),
        Err(AuthError::Blocked) => Err(OpError::Blocked),
        Err(AuthError::Repo(err)) => Err(err.into()),
    }
}
