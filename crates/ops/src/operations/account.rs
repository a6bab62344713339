//! `get_account`: who the caller is and what its credential allows.

use crate::registry::{Input, Operation, OperationSpec, registry};
use crate::wire::SchemaOf;
use crate::wire::rfc3339;
use crate::{AccountServices, Caller, Context, NoInput, OpError};
use accounts::{Credential, Scope};
use async_trait::async_trait;
use schemars::JsonSchema;
use serde::Serialize;

pub struct GetAccount;

/// The signed-in account and what the credential in use may do.
#[derive(Debug, Serialize, JsonSchema)]
pub struct AccountView {
    pub user: UserView,
    pub credential: CredentialView,
    /// Scopes the credential carries. Scopes are independent: none implies another.
    #[schemars(with = "Vec<SchemaOf<Scope>>")]
    pub scopes: Vec<Scope>,
    /// operationIds this credential may call (public ones included).
    pub allowed_operations: Vec<&'static str>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct UserView {
    pub id: i64,
    pub email: String,
    pub display_name: String,
    /// RFC 3339.
    pub created_at: String,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct CredentialView {
    /// `api_key` or `oauth_access_token`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub id: i64,
    pub name: String,
    /// The visible start of an API key, to tell keys apart.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prefix: Option<String>,
    /// RFC 3339 (API keys).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub created_at: Option<String>,
    /// The OAuth client the token was issued to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub client_id: Option<String>,
    /// The resource (audience) the token was issued for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resource: Option<String>,
    /// RFC 3339 (OAuth access tokens).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expires_at: Option<String>,
}

#[async_trait]
impl Operation for GetAccount {
    type Path = NoInput;
    type Query = NoInput;
    type Body = NoInput;
    type Output = AccountView;
    type Area = AccountServices;

    const SPEC: OperationSpec = OperationSpec {
        id: "get_account",
        path: "/me",
        scope: Some(Scope::AccountRead),
        summary: "Who you are",
        description: "The signed-in account, the credential in use, its scopes and the operations it may call.",
        tag: "account",
        ..OperationSpec::READ
    };

    async fn run(&self, _: Context<'_, Self::Area>, caller: &Caller, _: Input<NoInput, NoInput, NoInput>) -> Result<AccountView, OpError> {
        // The registry let this run only with a principal that has account:read.
        let principal = caller.signed_in()?;
        let allowed_operations = registry()
            .iter()
            .map(|op| op.spec())
            .filter(|spec| spec.scope.is_none_or(|scope| principal.has_scope(scope)))
            .map(|spec| spec.id)
            .collect();
        Ok(AccountView {
            user: UserView {
                id: principal.user.id.get(),
                email: principal.user.email.to_string(),
                display_name: principal.user.display_name.clone(),
                created_at: rfc3339(principal.user.created_at),
            },
            credential: match &principal.credential {
                Credential::ApiKey { id, name, prefix, created_at } => CredentialView {
                    kind: "api_key",
                    id: id.get(),
                    name: name.clone(),
                    prefix: Some(prefix.clone()),
                    created_at: Some(rfc3339(*created_at)),
                    client_id: None,
                    resource: None,
                    expires_at: None,
                },
                Credential::OAuth { token_id, client_id, resource, expires_at } => CredentialView {
                    kind: "oauth_access_token",
                    id: *token_id,
                    name: "OAuth access token".into(),
                    prefix: None,
                    created_at: None,
                    client_id: Some(client_id.clone()),
                    resource: Some(resource.clone()),
                    expires_at: Some(rfc3339(*expires_at)),
                },
                Credential::SiteSession => CredentialView {
                    kind: "site_session",
                    id: 0,
                    name: "Signed in on the site".into(),
                    prefix: None,
                    created_at: None,
                    client_id: None,
                    resource: None,
                    expires_at: None,
                },
            },
            scopes: principal.scopes.iter().collect(),
            allowed_operations,
        })
    }
}
