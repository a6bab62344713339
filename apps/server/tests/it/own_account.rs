//! A person's own account over HTTP. Forgotten passwords: the link goes only to an existing
//! account's address (the page says the same either way), a bad password is shown beside its
//! field without using the link up, and the link sets the password once, confirms the address
//! and signs out elsewhere. The account page's forms: keys of one's own only, CSRF required.
//! Signing up: a taken address gets the answer a new one gets (its owner a notice by e-mail),
//! and no mail carries what the person typed.

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
    let user = app.services.app.accounts.users.create_user(&email, Some("Made by the CLI")).await.unwrap();
    let old = app.services.app.accounts.signin.sign_up("other@example.com", "Other", "another password").await.unwrap();

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

    let signed_in =
        app.services.app.accounts.signin.sign_in("192.0.2.1".parse().unwrap(), email.as_str(), "a brand new password").await.unwrap();
    assert_eq!(signed_in.user.id, user.id);
    assert!(signed_in.user.email_confirmed_at.is_some(), "the link proved the address");
    assert!(app.services.app.accounts.signin.session(&old.token).await.unwrap().is_some(), "another account's session is untouched");
}

#[tokio::test]
async fn a_new_password_signs_the_account_out_everywhere() {
    let app = spawn_empty_app().await;
    let session = app.services.app.accounts.signin.sign_up("ada@example.com", "Ada", "the old password").await.unwrap();
    app.services.app.accounts.reset.request("ada@example.com").await.unwrap();
    let mail = app.services.store.outbox(10).await.unwrap().into_iter().find(|mail| mail.kind == "reset_password").unwrap();
    let token = mail.body.split("token=").nth(1).unwrap().split_whitespace().next().unwrap().to_owned();
    app.services.app.accounts.reset.reset(&token, "the new password").await.unwrap();
    assert!(app.services.app.accounts.signin.session(&session.token).await.unwrap().is_none());
    let wrong = app.services.app.accounts.signin.sign_in("192.0.2.2".parse().unwrap(), "ada@example.com", "the old password").await;
    assert!(wrong.is_err(), "the old password no longer works");
}

#[tokio::test]
async fn nobody_revokes_another_accounts_key_and_account_forms_need_their_token() {
    let app = spawn_empty_app().await;
    let owner = Email::parse("owner@example.com").unwrap();
    app.services.app.accounts.users.create_user(&owner, None).await.unwrap();
    let key = app.services.app.accounts.users.create_api_key(&owner, Some("owner's"), accounts::Scopes::all()).await.unwrap();
    let other = app.services.app.accounts.signin.sign_up("intruder@example.com", "Intruder", "a long enough password").await.unwrap();
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
    assert!(app.services.app.accounts.signin.session(&other.token).await.unwrap().is_some(), "nothing changed");
    let everywhere = post("/account/signout-everywhere".into(), other.csrf_token.clone()).await.unwrap();
    assert_eq!(everywhere.status(), 200);
    assert!(app.services.app.accounts.signin.session(&other.token).await.unwrap().is_none());
}

/// Sends the sign-up form as a browser does (the form's CSRF cookie and token first), coming from
/// a page that wants the person back at `/launches`.
async fn sign_up(app: &TestApp, name: &str, email: &str, password: &str) -> reqwest::Response {
    let form = no_redirects().get(app.url("/signup?next=%2Flaunches")).send().await.unwrap();
    let cookie = form.headers()["set-cookie"].to_str().unwrap().split(';').next().unwrap().to_owned();
    let page = form.text().await.unwrap();
    let csrf = page.split("name=\"csrf\" value=\"").nth(1).unwrap().split('"').next().unwrap().to_owned();
    let fields = [("csrf", csrf.as_str()), ("next", "/launches"), ("name", name), ("email", email), ("password", password)];
    no_redirects()
        .post(app.url("/signup"))
        .header("Cookie", cookie)
        .header("Content-Type", "application/x-www-form-urlencoded")
        .body(serde_urlencoded::to_string(fields).unwrap())
        .send()
        .await
        .unwrap()
}

/// What a sign-up answered, with the address typed replaced, so answers for two addresses compare:
/// status, cookies set, where it redirects, and the page.
async fn answer(reply: reqwest::Response, email: &str) -> (u16, Vec<String>, Option<String>, String) {
    let status = reply.status().as_u16();
    let cookies: Vec<String> = reply.headers().get_all("set-cookie").iter().map(|value| value.to_str().unwrap().to_owned()).collect();
    let location = reply.headers().get("location").map(|value| value.to_str().unwrap().to_owned());
    (status, cookies, location, reply.text().await.unwrap().replace(email, "ADDRESS"))
}

#[tokio::test]
async fn signing_up_with_a_taken_address_answers_as_a_new_one_and_tells_its_owner_instead() {
    let app = spawn_empty_app().await;
    let owner = app.services.app.accounts.signin.sign_up("taken@example.com", "Owner", "the owner's password").await.unwrap().user;
    let new = answer(sign_up(&app, "Mallory", "new@example.com", "mallory's password").await, "new@example.com").await;
    let taken = answer(sign_up(&app, "Mallory", "taken@example.com", "mallory's password").await, "taken@example.com").await;
    assert_eq!(new, taken, "a new address and a taken one get the same answer");
    let (status, cookies, location, page) = new;
    assert_eq!((status, location), (200, None));
    assert!(cookies.iter().all(|cookie| !cookie.starts_with("ld_session=")), "nobody is signed in: {cookies:?}");
    assert!(page.contains("Check your inbox") && page.contains("We sent an e-mail to ADDRESS."), "{page}");
    assert!(page.contains(r#"<a href="/signin?next=%2Flaunches">sign in to continue</a>"#), "{page}");

    // The new address is sent its confirmation link; the taken one's owner a notice instead.
    let outbox = app.services.store.outbox(20).await.unwrap();
    let kinds_to = |address: &str| outbox.iter().filter(|mail| mail.to == address).map(|mail| mail.kind.clone()).collect::<Vec<_>>();
    assert_eq!(kinds_to("new@example.com"), ["confirm_email"]);
    assert_eq!(kinds_to("taken@example.com"), ["sign_up_attempt"]);
    let notice = outbox.iter().find(|mail| mail.kind == "sign_up_attempt").unwrap();
    assert!(notice.body.contains("Someone tried to create an account"), "{}", notice.body);
    assert!(notice.body.contains("https://launch.example/signin\n"), "a link to sign in: {}", notice.body);
    assert!(notice.body.contains("https://launch.example/account/reset/password?token="), "a link to reset: {}", notice.body);
    assert!(!notice.body.contains("Mallory") && !notice.subject.contains("Mallory"), "the site's words only");

    // The owner's account is untouched; the new one signs in with its password.
    let client = "192.0.2.3".parse().unwrap();
    let signin = &app.services.app.accounts.signin;
    assert_eq!(signin.sign_in(client, "taken@example.com", "the owner's password").await.unwrap().user.id, owner.id);
    assert!(signin.sign_in(client, "taken@example.com", "mallory's password").await.is_err(), "the typed password changed nothing");
    assert!(signin.sign_in(client, "new@example.com", "mallory's password").await.is_ok());
}

#[tokio::test]
async fn the_confirmation_mail_carries_nothing_typed_at_sign_up() {
    let app = spawn_empty_app().await;
    let name = "Claim your prize at https://prize.example";
    let reply = sign_up(&app, name, "someone-else@example.com", "a long enough password").await;
    assert_eq!(reply.status(), 200);
    let outbox = app.services.store.outbox(10).await.unwrap();
    let mail = outbox.iter().find(|mail| mail.kind == "confirm_email").expect("the confirmation link is e-mailed");
    assert_eq!(mail.to, "someone-else@example.com");
    assert!(mail.body.contains("/account/confirm?token="));
    for typed in [name, "prize.example", "Claim your prize"] {
        assert!(!mail.body.contains(typed) && !mail.subject.contains(typed), "{typed:?} in {}", mail.body);
    }
}

#[tokio::test]
async fn a_reset_takes_the_account_back_ending_every_key_app_and_session_and_the_email_says_so() {
    let app = spawn_empty_app().await;
    // Someone registered Ada's address before she did: while it is unconfirmed they get no key.
    let squatter = app.services.app.accounts.signin.sign_up("ada@example.com", "Not Ada", "the squatter's password").await.unwrap();
    let email = Email::parse("ada@example.com").unwrap();
    let refused = app.services.app.accounts.users.create_api_key(&email, Some("kept"), accounts::Scopes::all()).await;
    assert!(matches!(refused, Err(accounts::AccountsError::Unconfirmed)), "{refused:?}");
    // Whatever way in there is by the time Ada takes the account back (here, one made once the
    // address was confirmed) ends with her new password.
    app.services.store.email_tokens().set_email_confirmed(squatter.user.id, time::OffsetDateTime::now_utc()).await.unwrap();
    let ways = crate::my_account::ways_in(&app, squatter.user.id).await;

    app.services.app.accounts.reset.request(email.as_str()).await.unwrap();
    let mail = app.services.store.outbox(10).await.unwrap().into_iter().find(|mail| mail.kind == "reset_password").unwrap();
    let token = mail.body.split("token=").nth(1).unwrap().split_whitespace().next().unwrap().to_owned();
    let fields = [("token", token.as_str()), ("password", "ada's own password")];
    let set = post_form(&no_redirects(), app.url("/account/reset/password"), &fields).await;
    assert_eq!(set.status(), 200);
    let page = set.text().await.unwrap();
    assert!(page.contains("Every session, API key and connected app of the account has ended"), "{page}");

    crate::my_account::assert_every_way_in_ended(&app, &ways, &[&squatter.token]).await;
    crate::my_account::assert_told_what_ended(&app, &email, "reset link").await;
    let client = "192.0.2.9".parse().unwrap();
    assert!(app.services.app.accounts.signin.sign_in(client, email.as_str(), "the squatter's password").await.is_err());
    assert!(app.services.app.accounts.signin.sign_in(client, email.as_str(), "ada's own password").await.is_ok());
}
