//! Repositories of the accounts domain: users and keys, the site team, e-mailed tokens, OAuth, closing accounts.

mod accounts_repo;
mod admin_repo;
mod closure_repo;
mod email_tokens_repo;
mod oauth_repo;
