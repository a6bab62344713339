//! `get_account`: who the caller is and what its credential allows.

use super::rfc3339;
use crate::registry::{Input, Operation, OperationSpec, registry};
use crate::{App, Caller, NoInput, OpError};
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
    /// `api_key` (OAuth access tokens come with the MCP work).
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub id: i64,
    pub name: String,
    /// The visible start of the key, to tell keys apart.
    pub prefix: String,
    /// RFC 3339.
    pub created_at: String,
}

#[async_trait]
impl Operation for GetAccount {
    type Path = NoInput;
    type Query = NoInput;
    type Body = NoInput;
    type Output = AccountView;

    const SPEC: OperationSpec = OperationSpec {
        id: "get_account",
        path: "/me",
        scope: Some(Scope::AccountRead),
        summary: "Who you are",
        description: "The signed-in account, the credential in use, its scopes and the operations it may call.",
        tag: "account",
        ..OperationSpec::READ
    };

    async fn run(&self, _: &App, caller: &Caller, _: Input<NoInput, NoInput, NoInput>) -> Result<AccountView, OpError> {
        // The registry let this run only with a principal that has account:read.
        let principal = caller
            .principal
            .as_ref()
            .ok_or(OpError::Unauthorized { credential_sent: false, detail: "get_account needs a signed-in caller".into() })?;
        let Credential::ApiKey { id, name, prefix, created_at } = &principal.credential;
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
            credential: CredentialView {
                kind: "api_key",
                id: id.get(),
                name: name.clone(),
                prefix: prefix.clone(),
                created_at: rfc3339(*created_at),
            },
            scopes: principal.scopes.iter().collect(),
            allowed_operations,
        })
    }
}
