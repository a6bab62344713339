//! A person's own account over HTTP. Forgotten passwords: the link goes only to an existing
//! account's address (the page says the same either way), a bad password is shown beside its
//! field without using the link up, and the link sets the password once, confirms the address
//! and signs out elsewhere. The account page's forms: keys of one's own only, CSRF required.

use crate::helpers::{TestApp, spawn_empty_app};
use crate::orders::{no_redirects, post_form};
use kernel::Email;

/// The reset request form's CSRF token and cookie, as a browser gets them.
async fn form_token(app: &TestApp) -> (String, String) {
    let reply = no_redirects().get(app.url("/account/reset")).send().await.unwrap();
    let cookie = reply.headers()["set-cookie"].to_str().unwrap().split(';').next().unwrap().to_owned();
    let page = reply.text().await.unwrap();
    let csrf = page.split("name=\"csrf\" value=\"").nth(1).unwrap().split('"').next().unwrap().to_owned();
    (csrf, cookie)
}

async fn ask(app: &TestApp, email: &str) -> (u16, String) {
    let (csrf, cookie) = form_token(app).await;
    let body = serde_urlencoded::to_string([("csrf", csrf.as_str()), ("email", email)]).unwrap();
    let reply = no_redirects()
        .post(app.url("/account/reset"))
        .header("Cookie", cookie)
        .header("Content-Type", "application/x-www-form-urlencoded")
        .body(body)
        .send()
        .await
        .unwrap();
    (reply.status().as_u16(), reply.text().await.unwrap())
}

#[tokio::test]
async fn an_account_made_without_a_password_sets_one_through_the_emailed_link_once() {
    let app = spawn_empty_app().await;
    let email = Email::parse("cli-made@example.com").unwrap();
    let user = app.services.app.accounts.create_user(&email, Some("Made by the CLI")).await.unwrap();
    let old = app.services.app.signin.sign_up("other@example.com", "Other", "another password").await.unwrap();

    let (status, page) = ask(&app, "nobody@example.com").await;
    assert_eq!(status, 200);
    assert!(page.contains("If an account uses nobody@example.com, we sent it a link"));
    assert!(app.services.store.outbox(10).await.unwrap().is_empty(), "no account, no e-mail, and the page said the same");
    let (status, page) = ask(&app, "not an address").await;
    assert_eq!(status, 400);
    assert!(page.contains("id=\"email-error\""), "the error sits beside the field");

    let (status, _) = ask(&app, email.as_str()).await;
    assert_eq!(status, 200);
    let outbox = app.services.store.outbox(10).await.unwrap();
    assert_eq!(outbox.len(), 1);
    assert_eq!(outbox[0].kind, "reset_password");
    let link = outbox[0].body.split_whitespace().find(|word| word.contains("/account/reset/password?token=")).unwrap().to_owned();
    let token = link.split("token=").nth(1).unwrap().to_owned();
    let shown = app.client.get(app.url(&link.replace("https://launch.example", ""))).send().await.unwrap().text().await.unwrap();
    assert!(shown.contains("New password (at least 8 characters)"));

    let client = no_redirects();
    let short = post_form(&client, app.url("/account/reset/password"), &[("token", &token), ("password", "short")]).await;
    assert_eq!(short.status(), 400);
    assert!(short.text().await.unwrap().contains("id=\"password-error\""));
    let set = post_form(&client, app.url("/account/reset/password"), &[("token", &token), ("password", "a brand new password")]).await;
    assert_eq!(set.status(), 200, "the link still worked after the refused password");
    assert!(set.text().await.unwrap().contains("Your password is set"));
    let again = post_form(&client, app.url("/account/reset/password"), &[("token", &token), ("password", "yet another password")]).await;
    assert_eq!(again.status(), 400, "a link works once");

    let signed_in = app.services.app.signin.sign_in("192.0.2.1".parse().unwrap(), email.as_str(), "a brand new password").await.unwrap();
    assert_eq!(signed_in.user.id, user.id);
    assert!(signed_in.user.email_confirmed_at.is_some(), "the link proved the address");
    assert!(app.services.app.signin.session(&old.token).await.unwrap().is_some(), "another account's session is untouched");
}

#[tokio::test]
async fn a_new_password_signs_the_account_out_everywhere() {
    let app = spawn_empty_app().await;
    let session = app.services.app.signin.sign_up("ada@example.com", "Ada", "the old password").await.unwrap();
    app.services.app.reset.request("ada@example.com").await.unwrap();
    let mail = app.services.store.outbox(10).await.unwrap().into_iter().find(|mail| mail.kind == "reset_password").unwrap();
    let token = mail.body.split("token=").nth(1).unwrap().split_whitespace().next().unwrap().to_owned();
    app.services.app.reset.reset(&token, "the new password").await.unwrap();
    assert!(app.services.app.signin.session(&session.token).await.unwrap().is_none());
    let wrong = app.services.app.signin.sign_in("192.0.2.2".parse().unwrap(), "ada@example.com", "the old password").await;
    assert!(wrong.is_err(), "the old password no longer works");
}

#[tokio::test]
async fn nobody_revokes_another_accounts_key_and_account_forms_need_their_token() {
    let app = spawn_empty_app().await;
    let owner = Email::parse("owner@example.com").unwrap();
    app.services.app.accounts.create_user(&owner, None).await.unwrap();
    let key = app.services.app.accounts.create_api_key(&owner, Some("owner's"), accounts::Scopes::all()).await.unwrap();
    let other = app.services.app.signin.sign_up("intruder@example.com", "Intruder", "a long enough password").await.unwrap();
    let post = |path: String, csrf: String| {
        no_redirects()
            .post(app.url(&path))
            .header("Cookie", format!("ld_session={}", other.token))
            .header("Sec-Fetch-Site", "same-origin")
            .header("Content-Type", "application/x-www-form-urlencoded")
            .body(format!("csrf={csrf}"))
            .send()
    };
    let revoke = post(format!("/account/keys/{}/revoke", key.key.id.get()), other.csrf_token.clone()).await.unwrap();
    assert_eq!(revoke.status(), 404, "someone else's key is not found");
    assert_eq!(app.get_with_token("/api/v1/me", key.secret.expose()).await.status, 200, "and still works");
    let forged = post("/account/signout-everywhere".into(), "forged".into()).await.unwrap();
    assert_eq!(forged.status(), 403);
    assert!(app.services.app.signin.session(&other.token).await.unwrap().is_some(), "nothing changed");
    let everywhere = post("/account/signout-everywhere".into(), other.csrf_token.clone()).await.unwrap();
    assert_eq!(everywhere.status(), 200);
    assert!(app.services.app.signin.session(&other.token).await.unwrap().is_none());
}
