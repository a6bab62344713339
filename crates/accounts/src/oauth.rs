//! OAuth 2.1 for the tool server: clients (registered dynamically, RFC 7591), authorization
//! codes bound to PKCE S256, the redirect URI and the resource (RFC 8707), and opaque access
//! and refresh tokens stored only as SHA-256 hashes. Refresh tokens rotate; presenting one that
//! was already used revokes its whole family. Only an account whose address is confirmed lets
//! an app in (`may_authorize`).

use crate::model::{Scope, Scopes, User};
use crate::token::hash_token;
use async_trait::async_trait;
use base64::Engine;
use kernel::{Clock, RepoError, UserId};
use sha2::{Digest, Sha256};
use std::sync::Arc;
use time::{Duration, OffsetDateTime};

/// How long an access token lives.
pub const ACCESS_TOKEN_LIFETIME: Duration = Duration::hours(1);
/// How long a refresh token lives (each use replaces it).
pub const REFRESH_TOKEN_LIFETIME: Duration = Duration::days(30);
/// How long an authorization code may wait to be exchanged.
pub const CODE_LIFETIME: Duration = Duration::minutes(5);

/// A client of the authorization server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OAuthClient {
    pub client_id: String,
    /// Shown on the consent page.
    pub client_name: String,
    /// Exact redirect URIs (https, or http on a loopback host).
    pub redirect_uris: Vec<String>,
    /// `registered` (RFC 7591) or `metadata_document` (a client ID metadata document).
    pub kind: String,
    pub created_at: OffsetDateTime,
}

/// An authorization code as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredCode {
    pub code_hash: String,
    pub client_id: String,
    pub user_id: UserId,
    pub redirect_uri: String,
    pub scopes: Scopes,
    pub resource: String,
    /// BASE64URL(SHA-256(code_verifier)).
    pub code_challenge: String,
    pub expires_at: OffsetDateTime,
}

/// What taking a code found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CodeTake {
    Taken(StoredCode),
    /// The code was exchanged before, issuing this family.
    Replayed {
        family: Option<String>,
    },
    Unknown,
}

/// `access` or `refresh`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenKind {
    Access,
    Refresh,
}

impl TokenKind {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Access => "access",
            Self::Refresh => "refresh",
        }
    }
}

/// A token as stored: never the token, only its hash.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredToken {
    pub id: i64,
    pub token_hash: String,
    pub kind: TokenKind,
    pub client_id: String,
    pub user_id: UserId,
    pub scopes: Scopes,
    /// The audience: the resource the token was issued for.
    pub resource: String,
    /// Every token issued from one authorization shares it.
    pub family: String,
    pub expires_at: OffsetDateTime,
    pub used_at: Option<OffsetDateTime>,
    pub revoked_at: Option<OffsetDateTime>,
}

/// A token to store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewToken {
    pub token_hash: String,
    pub kind: TokenKind,
    pub client_id: String,
    pub user_id: UserId,
    pub scopes: Scopes,
    pub resource: String,
    pub family: String,
    pub created_at: OffsetDateTime,
    pub expires_at: OffsetDateTime,
}

/// An app a person let in: a client holding live tokens of theirs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConnectedApp {
    pub client_id: String,
    /// The client's registered name (its id when it has none on record).
    pub client_name: String,
    /// Every scope its live tokens carry.
    pub scopes: Scopes,
    /// When its oldest live token was issued.
    pub since: OffsetDateTime,
    /// When one of its tokens was last used, if ever.
    pub last_used_at: Option<OffsetDateTime>,
}

/// Where OAuth state is kept.
#[async_trait]
pub trait OAuthRepository: Send + Sync {
    async fn insert_client(&self, client: &OAuthClient) -> Result<(), RepoError>;
    async fn find_client(&self, client_id: &str) -> Result<Option<OAuthClient>, RepoError>;
    async fn insert_code(&self, code: &StoredCode, now: OffsetDateTime) -> Result<(), RepoError>;
    /// Takes a code for exchange: marks it used, recording the token family the exchange
    /// issues, once.
    async fn take_code(&self, code_hash: &str, family: &str, now: OffsetDateTime) -> Result<CodeTake, RepoError>;
    async fn insert_token(&self, token: &NewToken) -> Result<(), RepoError>;
    async fn find_token(&self, token_hash: &str) -> Result<Option<StoredToken>, RepoError>;
    /// Marks a refresh token used if it was not; `false` when it had been used already.
    async fn use_refresh_token(&self, id: i64, now: OffsetDateTime) -> Result<bool, RepoError>;
    /// Revokes every token of a family.
    async fn revoke_family(&self, family: &str, now: OffsetDateTime) -> Result<(), RepoError>;
    async fn revoke_token(&self, id: i64, now: OffsetDateTime) -> Result<(), RepoError>;
    /// The clients holding tokens of `user` that are neither revoked nor expired at `now`,
    /// by name.
    async fn connected_apps(&self, user: UserId, now: OffsetDateTime) -> Result<Vec<ConnectedApp>, RepoError>;
    /// Revokes every token of `user` issued to `client_id`; returns how many were live.
    async fn revoke_client_tokens(&self, user: UserId, client_id: &str, now: OffsetDateTime) -> Result<u64, RepoError>;
}

/// An OAuth error as RFC 6749 names it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{error}: {description}")]
pub struct OAuthError {
    /// `invalid_request`, `invalid_client`, `invalid_grant`, `unsupported_grant_type`,
    /// `invalid_scope`, `invalid_target`, `invalid_redirect_uri`, `invalid_client_metadata`,
    /// `access_denied`, `server_error`.
    pub error: &'static str,
    pub description: String,
}

impl OAuthError {
    pub fn new(error: &'static str, description: impl Into<String>) -> Self {
        Self { error, description: description.into() }
    }
}

impl From<RepoError> for OAuthError {
    fn from(_: RepoError) -> Self {
        Self::new("server_error", "the authorization server could not complete the request")
    }
}

/// Issued tokens, returned once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IssuedTokens {
    pub access_token: String,
    pub refresh_token: String,
    pub expires_in: i64,
    pub scopes: Scopes,
}

/// A validated authorization request, waiting for the person's decision.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuthorizationRequest {
    pub client: OAuthClient,
    pub redirect_uri: String,
    pub scopes: Scopes,
    pub resource: String,
    pub state: Option<String>,
    pub code_challenge: String,
}

/// The host of an http(s) URI, or `None` when it has none or carries user information (which
/// would make `http://localhost@evil.example/` look local).
pub fn uri_host(uri: &str) -> Option<&str> {
    let rest = uri.strip_prefix("https://").or_else(|| uri.strip_prefix("http://"))?;
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    if authority.is_empty() || authority.contains('@') || authority.contains('\\') {
        return None;
    }
    let host =
        if authority.starts_with('[') { authority.split(']').next().map(|h| &h[1..])? } else { authority.split(':').next().unwrap_or("") };
    (!host.is_empty()).then_some(host)
}

/// Whether a redirect URI may be registered: https, or http on a loopback host; no fragment,
/// no user information.
pub fn acceptable_redirect_uri(uri: &str) -> bool {
    if uri.contains('#') || uri.len() > 2000 || uri.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return false;
    }
    let Some(host) = uri_host(uri) else { return false };
    uri.starts_with("https://") || matches!(host, "localhost" | "127.0.0.1" | "::1")
}

fn random_token(prefix: &str) -> Result<String, OAuthError> {
    let token = kernel::secrets::random_token().map_err(|_| OAuthError::new("server_error", "no randomness available"))?;
    Ok(format!("{prefix}{token}"))
}

/// BASE64URL(SHA-256(verifier)), the S256 challenge of a PKCE verifier.
pub fn s256(verifier: &str) -> String {
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()))
}

/// Fetches a client ID metadata document (through the safe fetcher, in the adapter).
#[async_trait]
pub trait ClientMetadataSource: Send + Sync {
    /// The JSON document at `url`, or why it could not be read (for the log, never the caller).
    async fn fetch(&self, url: &kernel::WebUrl) -> Result<serde_json::Value, String>;
}

/// The authorization server's use cases.
#[derive(Clone)]
pub struct OAuthService {
    repo: Arc<dyn OAuthRepository>,
    metadata: Arc<dyn ClientMetadataSource>,
    clock: Arc<dyn Clock>,
    /// The resources tokens may be issued for (`{site_url}/mcp`, the REST base).
    resources: Vec<String>,
}

/// What a client sent to the registration endpoint.
#[derive(Debug, Clone, Default)]
pub struct ClientRegistration {
    pub client_name: Option<String>,
    pub redirect_uris: Vec<String>,
    pub token_endpoint_auth_method: Option<String>,
    pub grant_types: Vec<String>,
}

impl OAuthService {
    pub fn new(
        repo: Arc<dyn OAuthRepository>,
        metadata: Arc<dyn ClientMetadataSource>,
        clock: Arc<dyn Clock>,
        resources: Vec<String>,
    ) -> Self {
        Self { repo, metadata, clock, resources }
    }

    pub fn resources(&self) -> &[String] {
        &self.resources
    }

    /// Dynamic client registration (RFC 7591): public clients only (`none`), authorization
    /// code and refresh token grants.
    pub async fn register(&self, registration: ClientRegistration) -> Result<OAuthClient, OAuthError> {
        if registration.redirect_uris.is_empty() || registration.redirect_uris.len() > 10 {
            return Err(OAuthError::new("invalid_redirect_uri", "give 1 to 10 redirect_uris"));
        }
        if let Some(bad) = registration.redirect_uris.iter().find(|uri| !acceptable_redirect_uri(uri)) {
            return Err(OAuthError::new("invalid_redirect_uri", format!("{bad} must be https, or http on localhost, without a fragment")));
        }
        if registration.token_endpoint_auth_method.as_deref().is_some_and(|method| method != "none") {
            return Err(OAuthError::new(
                "invalid_client_metadata",
                "only public clients are registered: token_endpoint_auth_method must be none",
            ));
        }
        if let Some(grant) = registration.grant_types.iter().find(|grant| !matches!(grant.as_str(), "authorization_code" | "refresh_token"))
        {
            return Err(OAuthError::new("invalid_client_metadata", format!("the grant type {grant} is not supported")));
        }
        let name = registration.client_name.map(|n| n.trim().chars().take(100).collect::<String>()).filter(|n| !n.is_empty());
        let client = OAuthClient {
            client_id: random_token("ldcl_")?,
            client_name: name.unwrap_or_else(|| "An unnamed application".into()),
            redirect_uris: registration.redirect_uris,
            kind: "registered".into(),
            created_at: self.clock.now(),
        };
        self.repo.insert_client(&client).await?;
        Ok(client)
    }

    /// The client a `client_id` names: registered here, or an https URL of a client ID metadata
    /// document whose own `client_id` must equal that URL.
    pub async fn client(&self, client_id: &str) -> Result<OAuthClient, OAuthError> {
        if client_id.starts_with("https://") {
            return self.metadata_client(client_id).await;
        }
        self.repo.find_client(client_id).await?.ok_or_else(|| OAuthError::new("invalid_client", "this client_id is not registered here"))
    }

    async fn metadata_client(&self, url: &str) -> Result<OAuthClient, OAuthError> {
        let invalid = |why: String| OAuthError::new("invalid_client", format!("the client metadata document at {url} {why}"));
        let address = kernel::WebUrl::parse(url).map_err(|why| invalid(format!("cannot be read: its address {why}")))?;
        // Why the fetch failed (a resolver's answer, a refused address) stays in the adapter's
        // log: echoed here it would let anyone probe our network and DNS through this page.
        let document = self
            .metadata
            .fetch(&address)
            .await
            .map_err(|_| invalid("could not be read; check that it is served over https as JSON from a public address".into()))?;
        if document["client_id"].as_str() != Some(url) {
            return Err(invalid("names another client_id than its own URL".into()));
        }
        let redirect_uris: Vec<String> =
            document["redirect_uris"].as_array().into_iter().flatten().filter_map(|u| u.as_str().map(str::to_owned)).collect();
        if redirect_uris.is_empty() || redirect_uris.iter().any(|uri| !acceptable_redirect_uri(uri)) {
            return Err(invalid("has no usable redirect_uris".into()));
        }
        if document["token_endpoint_auth_method"].as_str().is_some_and(|method| method != "none") {
            return Err(invalid("asks for client authentication, which public clients do not have".into()));
        }
        let name = document["client_name"].as_str().map(|n| n.trim().chars().take(100).collect::<String>()).filter(|n| !n.is_empty());
        Ok(OAuthClient {
            client_id: url.to_owned(),
            client_name: name.unwrap_or_else(|| url.to_owned()),
            redirect_uris,
            kind: "metadata_document".into(),
            created_at: self.clock.now(),
        })
    }

    /// Checks an authorization request. Errors before the redirect URI is known to be the
    /// client's must be shown to the person, never redirected.
    pub async fn check_authorization(
        &self,
        params: &std::collections::HashMap<String, String>,
    ) -> Result<AuthorizationRequest, (OAuthError, Option<String>)> {
        let get = |key: &str| params.get(key).map(String::as_str).filter(|v| !v.is_empty());
        let client_id = get("client_id").ok_or((OAuthError::new("invalid_request", "client_id is missing"), None))?;
        let client = self.client(client_id).await.map_err(|err| (err, None))?;
        let redirect_uri = get("redirect_uri").ok_or((OAuthError::new("invalid_request", "redirect_uri is missing"), None))?;
        if !client.redirect_uris.iter().any(|uri| uri == redirect_uri) {
            return Err((OAuthError::new("invalid_request", "redirect_uri is not one of the client's redirect URIs (exact match)"), None));
        }
        // From here on, errors go back to the client's redirect URI.
        let back = |error: OAuthError| (error, Some(redirect_uri.to_owned()));
        if get("response_type") != Some("code") {
            return Err(back(OAuthError::new("unsupported_response_type", "response_type must be code")));
        }
        let challenge =
            get("code_challenge").ok_or_else(|| back(OAuthError::new("invalid_request", "PKCE is required: send code_challenge")))?;
        if get("code_challenge_method") != Some("S256") {
            return Err(back(OAuthError::new("invalid_request", "code_challenge_method must be S256")));
        }
        if challenge.len() != 43 || !challenge.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_') {
            return Err(back(OAuthError::new("invalid_request", "code_challenge must be BASE64URL(SHA-256(code_verifier))")));
        }
        let resource = get("resource").ok_or_else(|| back(OAuthError::new("invalid_target", "resource is required (RFC 8707)")))?;
        if !self.resources.iter().any(|r| r == resource) {
            return Err(back(OAuthError::new("invalid_target", format!("tokens are issued for {} only", self.resources.join(", ")))));
        }
        let scopes = match get("scope") {
            None => Scopes::all(),
            Some(raw) => Scopes::parse_list(raw).map_err(|bad| back(OAuthError::new("invalid_scope", format!("{bad} is not a scope"))))?,
        };
        if scopes.is_empty() {
            return Err(back(OAuthError::new("invalid_scope", "ask for at least one scope")));
        }
        Ok(AuthorizationRequest {
            client,
            redirect_uri: redirect_uri.to_owned(),
            scopes,
            resource: resource.to_owned(),
            state: get("state").map(str::to_owned),
            code_challenge: challenge.to_owned(),
        })
    }

    /// The person allowed `granted` (a subset of what was asked): a code for the client. An
    /// account whose address is not confirmed gets none (`may_authorize`).
    pub async fn approve(&self, user: &User, request: &AuthorizationRequest, granted: Scopes) -> Result<String, OAuthError> {
        may_authorize(user)?;
        if granted.is_empty() || granted.iter().any(|scope| !request.scopes.contains(scope)) {
            return Err(OAuthError::new("invalid_scope", "allow at least one of the scopes asked for, and no other"));
        }
        let code = random_token("ldc_")?;
        let now = self.clock.now();
        self.repo
            .insert_code(
                &StoredCode {
                    code_hash: hash_token(&code),
                    client_id: request.client.client_id.clone(),
                    user_id: user.id,
                    redirect_uri: request.redirect_uri.clone(),
                    scopes: granted,
                    resource: request.resource.clone(),
                    code_challenge: request.code_challenge.clone(),
                    expires_at: now + CODE_LIFETIME,
                },
                now,
            )
            .await?;
        Ok(code)
    }

    async fn issue(
        &self,
        client_id: &str,
        user_id: UserId,
        scopes: Scopes,
        resource: &str,
        family: &str,
    ) -> Result<IssuedTokens, OAuthError> {
        let now = self.clock.now();
        let access = random_token("lda_")?;
        let refresh = random_token("ldr_")?;
        for (token, kind, lifetime) in
            [(&access, TokenKind::Access, ACCESS_TOKEN_LIFETIME), (&refresh, TokenKind::Refresh, REFRESH_TOKEN_LIFETIME)]
        {
            self.repo
                .insert_token(&NewToken {
                    token_hash: hash_token(token),
                    kind,
                    client_id: client_id.to_owned(),
                    user_id,
                    scopes: scopes.clone(),
                    resource: resource.to_owned(),
                    family: family.to_owned(),
                    created_at: now,
                    expires_at: now + lifetime,
                })
                .await?;
        }
        Ok(IssuedTokens { access_token: access, refresh_token: refresh, expires_in: ACCESS_TOKEN_LIFETIME.whole_seconds(), scopes })
    }

    /// The authorization code grant.
    pub async fn exchange_code(
        &self,
        code: &str,
        client_id: &str,
        redirect_uri: &str,
        verifier: Option<&str>,
        resource: Option<&str>,
    ) -> Result<IssuedTokens, OAuthError> {
        let verifier = verifier.ok_or_else(|| OAuthError::new("invalid_request", "code_verifier is missing (PKCE is required)"))?;
        let now = self.clock.now();
        let family = random_token("fam_")?;
        let stored = match self.repo.take_code(&hash_token(code), &family, now).await? {
            CodeTake::Taken(stored) => stored,
            CodeTake::Replayed { family } => {
                // A code presented twice may have been stolen: what it issued is revoked.
                if let Some(family) = family {
                    self.repo.revoke_family(&family, now).await?;
                }
                return Err(OAuthError::new("invalid_grant", "the code was used already; the tokens it issued are revoked"));
            }
            CodeTake::Unknown => return Err(OAuthError::new("invalid_grant", "the code is unknown")),
        };
        if stored.expires_at <= now {
            return Err(OAuthError::new("invalid_grant", "the code expired"));
        }
        if stored.client_id != client_id {
            return Err(OAuthError::new("invalid_grant", "the code was issued to another client"));
        }
        if stored.redirect_uri != redirect_uri {
            return Err(OAuthError::new("invalid_grant", "redirect_uri differs from the authorization request's"));
        }
        if s256(verifier) != stored.code_challenge {
            return Err(OAuthError::new("invalid_grant", "code_verifier does not match the code_challenge"));
        }
        if resource.is_some_and(|resource| resource != stored.resource) {
            return Err(OAuthError::new("invalid_target", "resource differs from the authorization request's"));
        }
        self.issue(client_id, stored.user_id, stored.scopes, &stored.resource, &family).await
    }

    /// The refresh token grant: rotates the refresh token; a reused one revokes the family.
    pub async fn refresh(
        &self,
        refresh_token: &str,
        client_id: &str,
        scope: Option<&str>,
        resource: Option<&str>,
    ) -> Result<IssuedTokens, OAuthError> {
        let now = self.clock.now();
        let invalid = || OAuthError::new("invalid_grant", "the refresh token is unknown, expired or revoked");
        let token = self.repo.find_token(&hash_token(refresh_token)).await?.ok_or_else(invalid)?;
        if token.kind != TokenKind::Refresh || token.client_id != client_id {
            return Err(invalid());
        }
        if token.revoked_at.is_some() || token.expires_at <= now {
            return Err(invalid());
        }
        // Checked before the token is used up, so a corrected retry is not taken for a replay.
        let scopes = match scope {
            None => token.scopes.clone(),
            Some(raw) => {
                let asked = Scopes::parse_list(raw).map_err(|bad| OAuthError::new("invalid_scope", format!("{bad} is not a scope")))?;
                if asked.is_empty() || asked.iter().any(|s| !token.scopes.contains(s)) {
                    return Err(OAuthError::new("invalid_scope", "a refresh may narrow the scopes, never widen them"));
                }
                asked
            }
        };
        if resource.is_some_and(|resource| resource != token.resource) {
            return Err(OAuthError::new("invalid_target", "resource differs from the grant's"));
        }
        if token.used_at.is_some() || !self.repo.use_refresh_token(token.id, now).await? {
            // Replay of a rotated token: whoever holds the family may be an attacker.
            self.repo.revoke_family(&token.family, now).await?;
            return Err(OAuthError::new("invalid_grant", "the refresh token was used already; every token of this grant is revoked"));
        }
        self.issue(client_id, token.user_id, scopes, &token.resource, &token.family).await
    }

    /// Revokes a token (RFC 7009) for the client it was issued to. An unknown token is no
    /// error; another client's token is.
    pub async fn revoke(&self, token: &str, client_id: &str) -> Result<(), OAuthError> {
        if let Some(stored) = self.repo.find_token(&hash_token(token)).await? {
            if stored.client_id != client_id {
                return Err(OAuthError::new("unauthorized_client", "the token was issued to another client"));
            }
            let now = self.clock.now();
            match stored.kind {
                TokenKind::Refresh => self.repo.revoke_family(&stored.family, now).await?,
                TokenKind::Access => self.repo.revoke_token(stored.id, now).await?,
            }
        }
        Ok(())
    }

    /// The apps `user` let in that can still act for them.
    pub async fn connected_apps(&self, user: UserId) -> Result<Vec<ConnectedApp>, RepoError> {
        self.repo.connected_apps(user, self.clock.now()).await
    }

    /// Disconnects an app: every token of `user` it holds stops working at once. `false` when
    /// it held none (another person's app, or one already disconnected).
    pub async fn disconnect(&self, user: UserId, client_id: &str) -> Result<bool, RepoError> {
        Ok(self.repo.revoke_client_tokens(user, client_id, self.clock.now()).await? > 0)
    }

    /// The live access token `token` is, if any.
    pub async fn access_token(&self, token: &str) -> Result<Option<StoredToken>, RepoError> {
        let Some(stored) = self.repo.find_token(&hash_token(token)).await? else { return Ok(None) };
        let live = stored.kind == TokenKind::Access && stored.revoked_at.is_none() && stored.expires_at > self.clock.now();
        Ok(live.then_some(stored))
    }
}

/// Whether `user` may let apps into the account: only with a confirmed address, since a grant
/// outlives the password (someone who signed up with another person's address must not keep an
/// app connected once that person takes the account back). `approve` refuses otherwise; the
/// consent page asks first, so the person can confirm instead of deciding.
pub fn may_authorize(user: &User) -> Result<(), OAuthError> {
    if user.email_confirmed() {
        Ok(())
    } else {
        Err(OAuthError::new("access_denied", "the account's e-mail address is not confirmed yet; only a confirmed account lets apps in"))
    }
}

/// The scopes a person allowed on the consent page (checkbox values).
pub fn granted_scopes(values: &[String]) -> Scopes {
    values.iter().filter_map(|v| Scope::parse(v)).collect()
}

#[cfg(test)]
mod tests;
