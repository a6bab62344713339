//! Unit tests of the authorization server's use cases over in-memory ports.

use super::*;

#[test]
fn redirect_uris_must_be_https_or_loopback() {
    assert!(acceptable_redirect_uri("https://app.example/callback"));
    assert!(acceptable_redirect_uri("http://localhost:3000/cb"));
    assert!(acceptable_redirect_uri("http://127.0.0.1/cb"));
    assert!(acceptable_redirect_uri("http://[::1]:8080/cb"));
    for bad in [
        "http://app.example/cb",
        "https://app.example/cb#x",
        "javascript:alert(1)",
        "https://",
        "http://localhost.evil.example/cb",
        "http://localhost:1@evil.example/cb",
        "https://user@app.example/cb",
    ] {
        assert!(!acceptable_redirect_uri(bad), "{bad}");
    }
}

/// A repository that holds nothing (the metadata-document path never reaches it).
struct Empty;

#[async_trait]
impl OAuthRepository for Empty {
    async fn insert_client(&self, _: &OAuthClient) -> Result<(), RepoError> {
        Ok(())
    }
    async fn find_client(&self, _: &str) -> Result<Option<OAuthClient>, RepoError> {
        Ok(None)
    }
    async fn insert_code(&self, _: &StoredCode, _: OffsetDateTime) -> Result<(), RepoError> {
        Ok(())
    }
    async fn take_code(&self, _: &str, _: &str, _: OffsetDateTime) -> Result<CodeTake, RepoError> {
        Ok(CodeTake::Unknown)
    }
    async fn insert_token(&self, _: &NewToken) -> Result<(), RepoError> {
        Ok(())
    }
    async fn find_token(&self, _: &str) -> Result<Option<StoredToken>, RepoError> {
        Ok(None)
    }
    async fn use_refresh_token(&self, _: i64, _: OffsetDateTime) -> Result<bool, RepoError> {
        Ok(false)
    }
    async fn revoke_family(&self, _: &str, _: OffsetDateTime) -> Result<(), RepoError> {
        Ok(())
    }
    async fn revoke_token(&self, _: i64, _: OffsetDateTime) -> Result<(), RepoError> {
        Ok(())
    }
    async fn connected_apps(&self, _: UserId, _: OffsetDateTime) -> Result<Vec<ConnectedApp>, RepoError> {
        Ok(Vec::new())
    }
    async fn revoke_client_tokens(&self, _: UserId, _: &str, _: OffsetDateTime) -> Result<u64, RepoError> {
        Ok(0)
    }
}

struct Document(serde_json::Value);

#[async_trait]
impl ClientMetadataSource for Document {
    async fn fetch(&self, _: &kernel::WebUrl) -> Result<serde_json::Value, String> {
        Ok(self.0.clone())
    }
}

fn service(document: serde_json::Value) -> OAuthService {
    OAuthService::new(
        Arc::new(Empty),
        Arc::new(Document(document)),
        Arc::new(kernel::FixedClock::new(OffsetDateTime::UNIX_EPOCH)),
        vec!["https://launch.example/mcp".into()],
    )
}

#[tokio::test]
async fn a_metadata_document_must_name_its_own_url() {
    let url = "https://agent.example/client.json";
    let good = serde_json::json!({"client_id": url, "client_name": "Agent", "redirect_uris": ["http://localhost:3000/cb"]});
    let client = service(good).client(url).await.unwrap();
    assert_eq!((client.client_name.as_str(), client.kind.as_str()), ("Agent", "metadata_document"));
    assert_eq!(client.redirect_uris, ["http://localhost:3000/cb"]);

    let other = serde_json::json!({"client_id": "https://evil.example/client.json", "redirect_uris": ["http://localhost:3000/cb"]});
    let err = service(other).client(url).await.unwrap_err();
    assert_eq!(err.error, "invalid_client");
    assert!(err.description.contains("another client_id"), "{err}");

    let no_redirects = serde_json::json!({"client_id": url, "redirect_uris": ["http://agent.example/cb"]});
    assert_eq!(service(no_redirects).client(url).await.unwrap_err().error, "invalid_client");
}

struct Unreadable;

#[async_trait]
impl ClientMetadataSource for Unreadable {
    async fn fetch(&self, _: &kernel::WebUrl) -> Result<serde_json::Value, String> {
        Err("blocked address: localhost resolves to 127.0.0.1 is loopback".into())
    }
}

#[tokio::test]
async fn why_a_metadata_document_could_not_be_read_is_not_told() {
    let service = OAuthService::new(
        Arc::new(Empty),
        Arc::new(Unreadable),
        Arc::new(kernel::FixedClock::new(OffsetDateTime::UNIX_EPOCH)),
        vec!["https://launch.example/mcp".into()],
    );
    let err = service.client("https://localhost/client.json").await.unwrap_err();
    assert_eq!(err.error, "invalid_client");
    for internal in ["127.0.0.1", "loopback", "resolves", "blocked"] {
        assert!(!err.description.contains(internal), "{err}");
    }
}

#[test]
fn s256_matches_rfc_7636() {
    // The example of RFC 7636, appendix B.
    assert_eq!(s256("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"), "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM");
}

#[tokio::test]
async fn only_an_account_with_a_confirmed_address_lets_an_app_in() {
    let service = service(serde_json::json!({}));
    let request = AuthorizationRequest {
        client: OAuthClient {
            client_id: "ldcl_agent".into(),
            client_name: "Agent".into(),
            redirect_uris: vec!["http://localhost:3000/cb".into()],
            kind: "registered".into(),
            created_at: OffsetDateTime::UNIX_EPOCH,
        },
        redirect_uri: "http://localhost:3000/cb".into(),
        scopes: Scopes::all(),
        resource: "https://launch.example/mcp".into(),
        state: None,
        code_challenge: s256("a verifier of the test, long enough to be one"),
    };
    let signed_up = User {
        id: UserId::new(7),
        email: kernel::Email::parse("victim@example.com").unwrap(),
        display_name: "Not the owner".into(),
        created_at: OffsetDateTime::UNIX_EPOCH,
        blocked: false,
        email_confirmed_at: None,
        is_admin: false,
    };
    let refused = service.approve(&signed_up, &request, Scopes::all()).await.unwrap_err();
    assert_eq!(refused.error, "access_denied");
    assert!(refused.description.contains("not confirmed"), "{refused}");
    assert_eq!(may_authorize(&signed_up), Err(refused), "the consent page asks the same rule");

    let confirmed = User { email_confirmed_at: Some(OffsetDateTime::UNIX_EPOCH), ..signed_up };
    assert_eq!(may_authorize(&confirmed), Ok(()));
    assert!(service.approve(&confirmed, &request, Scopes::all()).await.unwrap().starts_with("ldc_"));
}
