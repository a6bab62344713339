//! Objects in an S3-compatible bucket (AWS S3, MinIO, Garage, Ceph, R2, ...), over plain HTTP
//! requests signed with AWS Signature Version 4. Three requests are all a media store needs
//! (PUT, GET, DELETE of one object), so no SDK is pulled in for them.

use crate::checked_name;
use async_trait::async_trait;
use bytes::Bytes;
use hmac::{Hmac, KeyInit, Mac};
use kernel::secrets::hex;
use media::{MediaStore, StoreError};
use reqwest::{Method, StatusCode, Url};
use sha2::{Digest, Sha256};
use std::fmt;
use std::time::Duration;
use time::OffsetDateTime;

/// How the bucket is named in addresses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum S3Addressing {
    /// `https://endpoint/bucket/key`: what S3-compatible servers expect.
    #[default]
    Path,
    /// `https://bucket.endpoint/key`: AWS S3's own.
    VirtualHosted,
}

/// Where the bucket is and who we are to it.
#[derive(Clone)]
pub struct S3Config {
    /// `https://s3.eu-central-1.amazonaws.com`, `http://127.0.0.1:9000`.
    pub endpoint: String,
    pub bucket: String,
    pub region: String,
    pub access_key_id: String,
    pub secret_access_key: String,
    /// Prepended to every object name (`media/`); empty for none.
    pub prefix: String,
    pub addressing: S3Addressing,
}

impl fmt::Debug for S3Config {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("S3Config")
            .field("endpoint", &self.endpoint)
            .field("bucket", &self.bucket)
            .field("region", &self.region)
            .field("access_key_id", &self.access_key_id)
            .field("secret_access_key", &"<hidden>")
            .field("prefix", &self.prefix)
            .field("addressing", &self.addressing)
            .finish()
    }
}

/// The media store in an S3-compatible bucket.
#[derive(Debug)]
pub struct S3MediaStore {
    config: S3Config,
    /// The endpoint with the bucket in it, ending in `/`, the prefix after it.
    base: Url,
    client: reqwest::Client,
}

impl S3MediaStore {
    /// Checks the configuration; nothing is sent until the first object is.
    pub fn new(config: S3Config) -> Result<Self, String> {
        let mut base = Url::parse(&config.endpoint).map_err(|e| format!("media.s3.endpoint: {e}"))?;
        if !matches!(base.scheme(), "http" | "https") || base.host_str().is_none() {
            return Err("media.s3.endpoint: must be an http or https address".into());
        }
        let bucket_ok = (3..=63).contains(&config.bucket.len())
            && config.bucket.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'.');
        if !bucket_ok {
            return Err("media.s3.bucket: must be 3 to 63 lower-case letters, digits, '-' or '.'".into());
        }
        let prefix_ok = config.prefix.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_./".contains(&b)) && !config.prefix.starts_with('/');
        if !prefix_ok {
            return Err("media.s3.prefix: letters, digits, '-', '_', '.' and '/' only, not starting with '/'".into());
        }
        if config.region.is_empty() || config.access_key_id.is_empty() || config.secret_access_key.is_empty() {
            return Err("media.s3: region, access_key_id and secret_access_key must all be set".into());
        }
        let path = base.path().trim_end_matches('/').to_owned();
        match config.addressing {
            S3Addressing::Path => base.set_path(&format!("{path}/{}/{}", config.bucket, config.prefix)),
            S3Addressing::VirtualHosted => {
                let host = format!("{}.{}", config.bucket, base.host_str().unwrap_or_default());
                base.set_host(Some(&host)).map_err(|e| format!("media.s3.endpoint: {e}"))?;
                base.set_path(&format!("{path}/{}", config.prefix));
            }
        }
        outbound_http::install_crypto_provider();
        let client = reqwest::Client::builder()
            .connect_timeout(Duration::from_secs(5))
            .timeout(Duration::from_secs(30))
            .build()
            .map_err(|e| format!("media.s3: the HTTP client could not be built: {e}"))?;
        Ok(Self { config, base, client })
    }

    async fn send(&self, method: Method, name: &str, body: Bytes, content_type: Option<&str>) -> Result<reqwest::Response, StoreError> {
        let url = self.base.join(checked_name(name)?).map_err(|e| StoreError(e.to_string()))?;
        let signed = sign(&self.config, &method, &url, &body, OffsetDateTime::now_utc());
        let mut request = self
            .client
            .request(method.clone(), url)
            .header("x-amz-date", signed.date)
            .header("x-amz-content-sha256", signed.payload_hash)
            .header("authorization", signed.authorization);
        if let Some(content_type) = content_type {
            request = request.header("content-type", content_type);
        }
        request.body(body).send().await.map_err(|e| StoreError(format!("{method} {name}: {e}")))
    }
}

/// A failed answer, with the start of its body (S3 explains itself in XML).
async fn refused(doing: &str, name: &str, response: reqwest::Response) -> StoreError {
    let status = response.status();
    let body = response.text().await.unwrap_or_default();
    StoreError(format!("{doing} {name}: {status}: {}", body.chars().take(300).collect::<String>()))
}

#[async_trait]
impl MediaStore for S3MediaStore {
    async fn put(&self, name: &str, bytes: Bytes, content_type: &'static str) -> Result<(), StoreError> {
        let response = self.send(Method::PUT, name, bytes, Some(content_type)).await?;
        if response.status().is_success() { Ok(()) } else { Err(refused("PUT", name, response).await) }
    }

    async fn get(&self, name: &str) -> Result<Option<Bytes>, StoreError> {
        let response = self.send(Method::GET, name, Bytes::new(), None).await?;
        match response.status() {
            StatusCode::NOT_FOUND => Ok(None),
            status if status.is_success() => response.bytes().await.map(Some).map_err(|e| StoreError(format!("GET {name}: {e}"))),
            _ => Err(refused("GET", name, response).await),
        }
    }

    async fn delete(&self, name: &str) -> Result<(), StoreError> {
        let response = self.send(Method::DELETE, name, Bytes::new(), None).await?;
        match response.status() {
            StatusCode::NOT_FOUND => Ok(()),
            status if status.is_success() => Ok(()),
            _ => Err(refused("DELETE", name, response).await),
        }
    }
}

/// The headers of a signed request.
struct Signed {
    date: String,
    payload_hash: String,
    authorization: String,
}

/// Signature Version 4 of a request with no query string, signing `host`,
/// `x-amz-content-sha256` and `x-amz-date`.
fn sign(config: &S3Config, method: &Method, url: &Url, body: &[u8], now: OffsetDateTime) -> Signed {
    let day = format!("{:04}{:02}{:02}", now.year(), u8::from(now.month()), now.day());
    let date = format!("{day}T{:02}{:02}{:02}Z", now.hour(), now.minute(), now.second());
    let payload_hash = hex(&Sha256::digest(body));
    let host = match url.port() {
        Some(port) => format!("{}:{port}", url.host_str().unwrap_or_default()),
        None => url.host_str().unwrap_or_default().to_owned(),
    };
    // Our paths hold only characters that need no escaping (checked names and prefixes).
    let canonical_request = format!(
        "{method}\n{}\n\nhost:{host}\nx-amz-content-sha256:{payload_hash}\nx-amz-date:{date}\n\nhost;x-amz-content-sha256;x-amz-date\n{payload_hash}",
        url.path()
    );
    let scope = format!("{day}/{}/s3/aws4_request", config.region);
    let string_to_sign = format!("AWS4-HMAC-SHA256\n{date}\n{scope}\n{}", hex(&Sha256::digest(canonical_request.as_bytes())));
    let mut key = hmac(format!("AWS4{}", config.secret_access_key).as_bytes(), day.as_bytes());
    for part in [config.region.as_str(), "s3", "aws4_request"] {
        key = hmac(&key, part.as_bytes());
    }
    let signature = hex(&hmac(&key, string_to_sign.as_bytes()));
    let authorization = format!(
        "AWS4-HMAC-SHA256 Credential={}/{scope}, SignedHeaders=host;x-amz-content-sha256;x-amz-date, Signature={signature}",
        config.access_key_id
    );
    Signed { date, payload_hash, authorization }
}

fn hmac(key: &[u8], data: &[u8]) -> Vec<u8> {
    let mut mac = <Hmac<Sha256> as KeyInit>::new_from_slice(key).unwrap_or_else(|_| unreachable!("HMAC accepts any key length"));
    mac.update(data);
    mac.finalize().into_bytes().to_vec()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// AWS's own worked example of a signed GET (the S3 Signature Version 4 documentation,
    /// "Example: GET Object"), with the `Range` header left out of its signed headers: the
    /// scope, string to sign and signing key follow the same steps, so the example's key
    /// derivation is checked exactly.
    #[test]
    fn the_signing_key_and_scope_follow_aws_steps() {
        let config = S3Config {
            endpoint: "https://s3.amazonaws.com".into(),
            bucket: "examplebucket".into(),
            region: "us-east-1".into(),
            access_key_id: "AKIAIOSFODNN7EXAMPLE".into(),
            secret_access_key: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY".into(),
            prefix: String::new(),
            addressing: S3Addressing::VirtualHosted,
        };
        let now = time::macros::datetime!(2013-05-24 00:00:00 UTC);
        let url = Url::parse("https://examplebucket.s3.amazonaws.com/test.txt").unwrap();
        let signed = sign(&config, &Method::GET, &url, b"", now);
        assert_eq!(signed.date, "20130524T000000Z");
        assert_eq!(signed.payload_hash, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
        assert!(signed.authorization.starts_with(
            "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, SignedHeaders=host;x-amz-content-sha256;x-amz-date, Signature="
        ));
        // The signing key of AWS's example for that day, region and service.
        let mut key = hmac(format!("AWS4{}", config.secret_access_key).as_bytes(), b"20130524");
        for part in ["us-east-1", "s3", "aws4_request"] {
            key = hmac(&key, part.as_bytes());
        }
        assert_eq!(hex(&key), "dbb893acc010964918f1fd433add87c70e8b0db6be30c1fbeafefa5ec6ba8378");
    }

    #[test]
    fn a_configuration_is_checked_before_anything_is_sent() {
        let good = S3Config {
            endpoint: "http://127.0.0.1:9000".into(),
            bucket: "media".into(),
            region: "us-east-1".into(),
            access_key_id: "key".into(),
            secret_access_key: "secret".into(),
            prefix: "launchdir/".into(),
            addressing: S3Addressing::Path,
        };
        let store = S3MediaStore::new(good.clone()).unwrap();
        assert_eq!(store.base.as_str(), "http://127.0.0.1:9000/media/launchdir/");
        assert!(!format!("{good:?}").contains("secret\""), "the secret never reaches a log");
        for (broken, field) in [
            (S3Config { endpoint: "ftp://x".into(), ..good.clone() }, "media.s3.endpoint"),
            (S3Config { bucket: "Media".into(), ..good.clone() }, "media.s3.bucket"),
            (S3Config { prefix: "/abs".into(), ..good.clone() }, "media.s3.prefix"),
            (S3Config { secret_access_key: String::new(), ..good.clone() }, "media.s3:"),
        ] {
            assert!(S3MediaStore::new(broken).unwrap_err().starts_with(field));
        }
    }
}
