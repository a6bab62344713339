//! `get_account` and the authentication rules: 401 and 403 with `WWW-Authenticate`.

use crate::helpers::spawn_app;

#[tokio::test]
async fn get_account_shows_who_you_are_and_what_the_key_allows() {
    let app = spawn_app().await;
    let (email, key) = app.api_key("account:read,listings:write,orders:write").await;
    let reply = app.get_with_token("/api/v1/me", &key).await;
    assert_eq!(reply.status, 200, "{:#}", reply.body);
    let body = &reply.body;
    assert_eq!(body["user"]["email"], email.as_str());
    assert_eq!(body["user"]["display_name"], "Tester");
    assert!(body["user"]["id"].as_i64().unwrap() >= 1);
    assert!(body["user"]["created_at"].as_str().unwrap().ends_with('Z'));
    assert_eq!(body["credential"]["type"], "api_key");
    assert_eq!(body["credential"]["name"], "test key");
    assert!(key.starts_with(body["credential"]["prefix"].as_str().unwrap()));
    assert_eq!(body["scopes"], serde_json::json!(["account:read", "listings:write", "orders:write"]));
    let allowed: Vec<&str> = body["allowed_operations"].as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect();
    assert!(allowed.contains(&"get_account") && allowed.contains(&"get_site_info"));
    assert!(!reply.body.to_string().contains(&key[12..]), "the secret is never echoed");
}

#[tokio::test]
async fn allowed_operations_follow_the_scopes() {
    let app = spawn_app().await;
    let (_, key) = app.api_key("account:read").await;
    let reply = app.get_with_token("/api/v1/me", &key).await;
    assert_eq!(reply.body["scopes"], serde_json::json!(["account:read"]));
    let allowed: Vec<&str> = reply.body["allowed_operations"].as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect();
    for op in ops::registry() {
        let spec = op.spec();
        let expected = spec.scope.is_none_or(|scope| scope == accounts::Scope::AccountRead);
        assert_eq!(allowed.contains(&spec.id), expected, "{}", spec.id);
    }
}

#[tokio::test]
async fn no_credential_is_401_without_an_error_code() {
    let app = spawn_app().await;
    let reply = app.get("/api/v1/me").await;
    reply.assert_problem(401, "unauthorized");
    assert_eq!(reply.header("www-authenticate"), Some("Bearer realm=\"launchdir\""));
}

#[tokio::test]
async fn unknown_malformed_and_revoked_credentials_are_401_invalid_token() {
    let app = spawn_app().await;
    let cases = [
        ("Bearer ldk_not-a-real-key", "unknown"),
        ("Basic dXNlcjpwYXNz", "not bearer"),
        ("Bearer", "no token"),
        ("Bearer two words", "not a token"),
    ];
    for (header, why) in cases {
        let reply = app.send(app.client.get(app.url("/api/v1/me")).header("authorization", header)).await;
        reply.assert_problem(401, "unauthorized");
        let challenge = reply.header("www-authenticate").unwrap_or_default();
        assert!(challenge.starts_with("Bearer realm=\"launchdir\", error=\"invalid_token\""), "{why}: {challenge}");
    }

    let (email, key) = app.api_key("").await;
    assert_eq!(app.get_with_token("/api/v1/me", &key).await.status, 200);
    let keys = app.services.app.accounts.users.list_api_keys(&email).await.unwrap();
    app.services.app.accounts.users.revoke_api_key(keys[0].id).await.unwrap();
    let reply = app.get_with_token("/api/v1/me", &key).await;
    reply.assert_problem(401, "unauthorized");
    assert!(reply.header("www-authenticate").unwrap().contains("invalid_token"));
    assert!(reply.body["detail"].as_str().unwrap().contains("revoked"));
}

#[tokio::test]
async fn a_key_without_the_scope_is_403_insufficient_scope() {
    let app = spawn_app().await;
    let (_, key) = app.api_key("listings:write,orders:write").await;
    let reply = app.get_with_token("/api/v1/me", &key).await;
    reply.assert_problem(403, "insufficient_scope");
    assert_eq!(reply.header("www-authenticate"), Some("Bearer realm=\"launchdir\", error=\"insufficient_scope\", scope=\"account:read\""));
}

#[tokio::test]
async fn public_operations_work_with_and_without_a_key_but_not_with_a_bad_one() {
    let app = spawn_app().await;
    let (_, key) = app.api_key("orders:write").await;
    for path in ["/api/v1/site", "/api/v1/categories", "/api/v1/categories/design", "/api/v1/products", "/api/v1/interview-questions"] {
        assert_eq!(app.get(path).await.status, 200, "{path} without a key");
        assert_eq!(app.get_with_token(path, &key).await.status, 200, "{path} with a key");
        let reply = app.get_with_token(path, "ldk_wrong").await;
        reply.assert_problem(401, "unauthorized");
        assert!(reply.header("www-authenticate").unwrap().contains("invalid_token"), "{path}");
    }
}

#[tokio::test]
async fn using_a_key_records_when_it_was_last_used() {
    let app = spawn_app().await;
    let (email, key) = app.api_key("account:read").await;
    let before = app.services.app.accounts.users.list_api_keys(&email).await.unwrap();
    assert!(before[0].last_used_at.is_none());
    assert_eq!(app.get_with_token("/api/v1/me", &key).await.status, 200);
    let after = app.services.app.accounts.users.list_api_keys(&email).await.unwrap();
    assert!(after[0].last_used_at.is_some());
}

#[tokio::test]
async fn validation_needs_authentication_first() {
    let app = spawn_app().await;
    // An anonymous caller learns it must sign in before learning about its parameters.
    app.get("/api/v1/me?x=1").await.assert_problem(401, "unauthorized");
    let (_, key) = app.api_key("account:read").await;
    app.get_with_token("/api/v1/me?x=1", &key).await.assert_invalid(&["x"]);
}

#[tokio::test]
async fn a_blocked_account_is_403() {
    use sea_orm::ConnectionTrait;
    let app = spawn_app().await;
    let (email, key) = app.api_key("account:read").await;
    let db = app.services.store.connection();
    db.execute_unprepared(&format!("UPDATE users SET blocked = true WHERE email = '{}'", email.as_str())).await.unwrap();
    app.get_with_token("/api/v1/me", &key).await.assert_problem(403, "account_blocked");
    app.get_with_token("/api/v1/site", &key).await.assert_problem(403, "account_blocked");
}
