//! Users and API keys.

use accounts::ports::NewApiKey;
use accounts::{ApiKeyRepository, NewUser, Scope, Scopes, UserRepository};
use kernel::{ApiKeyId, Email, RepoError};
use store_seaorm::SeaStore;
use store_seaorm::testing::TestDatabase;
use time::macros::datetime;
use time::{Duration, OffsetDateTime};

const T0: OffsetDateTime = datetime!(2026-11-20 10:00 UTC);

fn new_user(email: &str) -> NewUser {
    NewUser { email: Email::parse(email).unwrap(), display_name: "Ada".into(), created_at: T0 }
}

fn new_key(user_id: kernel::UserId, hash: &str, at: OffsetDateTime) -> NewApiKey {
    NewApiKey {
        user_id,
        name: "ci".into(),
        prefix: "ldk_abcdefgh".into(),
        token_hash: hash.into(),
        scopes: [Scope::AccountRead, Scope::OrdersWrite].into_iter().collect(),
        created_at: at,
    }
}

#[tokio::test]
async fn users_are_unique_by_email() {
    let test = TestDatabase::new().await;
    let store = SeaStore::new(test.db.clone());
    let user = store.create(new_user("ada@example.com")).await.unwrap();
    assert_eq!(user.email.as_str(), "ada@example.com");
    assert_eq!(user.created_at, T0);
    assert!(!user.blocked);
    let again = store.create(new_user("ada@example.com")).await;
    assert!(matches!(again, Err(RepoError::Duplicate(_))), "{}: {again:?}", test.backend_name());
    let found = store.find_by_email(&Email::parse("ADA@example.com").unwrap()).await.unwrap().unwrap();
    assert_eq!(found.id, user.id);
    assert_eq!(UserRepository::find_by_id(&store, user.id).await.unwrap(), Some(user));
    assert!(store.find_by_email(&Email::parse("bob@example.com").unwrap()).await.unwrap().is_none());
}

#[tokio::test]
async fn api_keys_round_trip_revoke_and_touch() {
    let test = TestDatabase::new().await;
    let store = SeaStore::new(test.db.clone());
    let user = store.create(new_user("ada@example.com")).await.unwrap();
    let older = store.insert(new_key(user.id, &"a".repeat(64), T0)).await.unwrap();
    let newer = store.insert(new_key(user.id, &"b".repeat(64), T0 + Duration::hours(1))).await.unwrap();
    assert_eq!(older.scopes, Scopes::parse_list("account:read orders:write").unwrap());
    assert!(older.last_used_at.is_none() && older.revoked_at.is_none());

    let listed = store.list_for_user(user.id).await.unwrap();
    assert_eq!(listed.iter().map(|k| k.id).collect::<Vec<_>>(), vec![newer.id, older.id], "newest first");

    let found = store.find_by_hash(&"a".repeat(64)).await.unwrap().unwrap();
    assert_eq!(found.id, older.id);
    assert!(store.find_by_hash(&"c".repeat(64)).await.unwrap().is_none());
    assert!(matches!(store.insert(new_key(user.id, &"a".repeat(64), T0)).await, Err(RepoError::Duplicate(_))));

    store.touch(older.id, T0 + Duration::minutes(5)).await.unwrap();
    assert_eq!(ApiKeyRepository::find_by_id(&store, older.id).await.unwrap().unwrap().last_used_at, Some(T0 + Duration::minutes(5)));

    assert!(store.revoke(older.id, T0 + Duration::hours(2)).await.unwrap());
    assert!(!store.revoke(older.id, T0 + Duration::hours(3)).await.unwrap(), "revoking twice changes nothing");
    assert!(!store.revoke(ApiKeyId::new(999_999), T0).await.unwrap());
    let revoked = ApiKeyRepository::find_by_id(&store, older.id).await.unwrap().unwrap();
    assert_eq!(revoked.revoked_at, Some(T0 + Duration::hours(2)));
    assert!(ApiKeyRepository::find_by_id(&store, newer.id).await.unwrap().unwrap().revoked_at.is_none());
}

#[tokio::test]
async fn a_key_needs_an_existing_user() {
    let test = TestDatabase::new().await;
    let store = SeaStore::new(test.db.clone());
    let orphan = store.insert(new_key(kernel::UserId::new(424_242), &"d".repeat(64), T0)).await;
    assert!(orphan.is_err(), "{}: foreign keys must be enforced", test.backend_name());
}
