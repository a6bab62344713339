//! Wiring of the accounts domain: users and keys, sign-in with its one throttle and one password
//! hasher, the site team, password changes and resets, address confirmation and the OAuth 2.1
//! authorization server.

use crate::settings::Settings;
use accounts::{AccountsService, PasswordHashing};
use kernel::{Clock, Mailer};
use ops::AccountServices;
use std::sync::Arc;
use store_seaorm::SeaStore;

/// Every accounts use case, over the store, the mailer and the outbound fetcher (for OAuth
/// clients' metadata documents).
pub fn accounts(
    settings: &Settings,
    store: &SeaStore,
    fetcher: outbound_http::SafeFetcher,
    mailer: Arc<dyn Mailer>,
    clock: &Arc<dyn Clock>,
) -> AccountServices {
    let oauth = accounts::OAuthService::new(
        store.oauth(),
        Arc::new(outbound_http::ClientMetadataFetcher::new(fetcher)),
        clock.clone(),
        vec![format!("{}/mcp", settings.site_url()), settings.base_url()],
    );
    // One hasher for sign-in, resets and password changes: its cap on concurrent hashes is the server's.
    let hasher: Arc<dyn PasswordHashing> = Arc::new(passwords_argon2::BlockingArgon2::half_the_cores());
    // One sign-in throttle for every form that checks a password (sign-in, a new password,
    // closing the account), so guesses through any of them count together.
    let signin = accounts::SignInService::new(store.users(), store.passwords(), store.sessions(), hasher.clone(), clock.clone());
    let password_throttle = signin.shared_throttle();
    // What a new password (changed or reset) ends: every session, API key and OAuth token of
    // the account, as closing it does; and the e-mail that says so.
    let revocation =
        accounts::AccessRevocation::new(store.access_revoker(), mailer.clone(), settings.site_name.clone(), settings.site_url());
    AccountServices {
        users: AccountsService::new(store.users(), store.api_keys(), store.email_tokens(), clock.clone()).with_oauth(oauth.clone()),
        oauth,
        signin,
        admin: accounts::AdminService::new(store.admin(), clock.clone()),
        own_account: accounts::OwnAccount::new(
            store.passwords(),
            revocation.clone(),
            hasher.clone(),
            store.account_closer(),
            clock.clone(),
        )
        .with_throttle(password_throttle),
        reset: accounts::PasswordReset::new(
            accounts::ResetStores {
                tokens: store.email_tokens(),
                users: store.users(),
                passwords: store.passwords(),
                revocation,
                hasher,
                mailer: mailer.clone(),
                clock: clock.clone(),
            },
            settings.site_name.clone(),
            settings.site_url(),
        ),
        confirmation: accounts::EmailConfirmation::new(
            store.email_tokens(),
            store.users(),
            mailer,
            clock.clone(),
            settings.site_name.clone(),
            settings.site_url(),
        ),
    }
}
