//! Webhook signatures as Stripe makes them: the header `t=<unix seconds>,v1=<hex>` where each
//! `v1` is HMAC-SHA256 of `"{t}.{body}"` under the endpoint's secret. Any `v1` may match (a
//! secret being rolled sends two); the comparison is constant-time; a timestamp further than the
//! tolerance from now is refused, so a captured delivery cannot be replayed later.

use hmac::{Hmac, KeyInit, Mac};
use orders::WebhookError;
use sha2::Sha256;
use time::OffsetDateTime;

/// How far a signature's timestamp may be from now.
pub const TOLERANCE_SECONDS: i64 = 300;

fn mac(secret: &str, timestamp: i64, body: &[u8]) -> Hmac<Sha256> {
    // HMAC takes keys of any length.
    let mut mac =
        <Hmac<Sha256> as KeyInit>::new_from_slice(secret.as_bytes()).unwrap_or_else(|_| unreachable!("HMAC accepts any key length"));
    mac.update(timestamp.to_string().as_bytes());
    mac.update(b".");
    mac.update(body);
    mac
}

/// The signature header for `body` at `now`.
pub fn sign(secret: &str, body: &[u8], now: OffsetDateTime) -> String {
    let timestamp = now.unix_timestamp();
    let digest = mac(secret, timestamp, body).finalize().into_bytes();
    format!("t={timestamp},v1={}", kernel::secrets::hex(&digest))
}

fn from_hex(hex: &str) -> Option<Vec<u8>> {
    if !hex.len().is_multiple_of(2) {
        return None;
    }
    (0..hex.len()).step_by(2).map(|at| u8::from_str_radix(hex.get(at..at + 2)?, 16).ok()).collect()
}

/// Checks `header` over the raw `body`.
pub fn verify(secret: &str, header: Option<&str>, body: &[u8], now: OffsetDateTime) -> Result<(), WebhookError> {
    let header = header.ok_or(WebhookError::MissingSignature)?;
    let mut timestamp = None;
    let mut signatures = Vec::new();
    for part in header.split(',') {
        match part.trim().split_once('=') {
            Some(("t", value)) => timestamp = value.parse::<i64>().ok(),
            Some(("v1", value)) => signatures.extend(from_hex(value)),
            _ => {}
        }
    }
    let timestamp = timestamp.ok_or(WebhookError::MissingSignature)?;
    if signatures.is_empty() {
        return Err(WebhookError::MissingSignature);
    }
    let matches = signatures.iter().any(|signature| mac(secret, timestamp, body).verify_slice(signature).is_ok());
    if !matches {
        return Err(WebhookError::BadSignature);
    }
    if (now.unix_timestamp() - timestamp).abs() > TOLERANCE_SECONDS {
        return Err(WebhookError::Stale);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::Duration;

    #[test]
    fn signed_bodies_verify_and_anything_else_does_not() {
        let now = OffsetDateTime::from_unix_timestamp(1_800_000_000).unwrap();
        let header = sign("whsec_1", b"{}", now);
        assert_eq!(verify("whsec_1", Some(&header), b"{}", now), Ok(()));
        assert_eq!(verify("whsec_1", Some(&format!("v1=00,{header}")), b"{}", now), Ok(()), "any v1 may match");
        assert_eq!(verify("whsec_2", Some(&header), b"{}", now), Err(WebhookError::BadSignature));
        assert_eq!(verify("whsec_1", Some(&header), b"{ }", now), Err(WebhookError::BadSignature));
        assert_eq!(verify("whsec_1", Some(&header), b"{}", now + Duration::seconds(301)), Err(WebhookError::Stale));
        assert_eq!(verify("whsec_1", Some(&header), b"{}", now + Duration::seconds(300)), Ok(()));
        assert_eq!(verify("whsec_1", None, b"{}", now), Err(WebhookError::MissingSignature));
        assert_eq!(verify("whsec_1", Some("t=1"), b"{}", now), Err(WebhookError::MissingSignature));
    }

    #[test]
    fn matches_stripes_published_scheme() {
        // HMAC-SHA256("secret", "1.{}") computed independently (openssl dgst -sha256 -hmac secret).
        let now = OffsetDateTime::from_unix_timestamp(1).unwrap();
        let header = sign("secret", b"{}", now);
        assert_eq!(header, "t=1,v1=1122767b193110cfec322b6f199b599edbf608ed087f2d27afb0b97d99523908");
    }
}
