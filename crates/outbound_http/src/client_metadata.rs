//! Client ID metadata documents for the OAuth server, read through the safe fetcher (so a
//! `client_id` URL on a private address is refused like any other).

use crate::fetcher::SafeFetcher;
use async_trait::async_trait;

/// The largest client metadata document read.
const MAX_DOCUMENT_BYTES: usize = 64 * 1024;

pub struct ClientMetadataFetcher {
    fetcher: SafeFetcher,
}

impl ClientMetadataFetcher {
    pub fn new(fetcher: SafeFetcher) -> Self {
        Self { fetcher }
    }
}

#[async_trait]
impl accounts::oauth::ClientMetadataSource for ClientMetadataFetcher {
    async fn fetch(&self, url: &kernel::WebUrl) -> Result<serde_json::Value, String> {
        let fetched = self.fetcher.get(url, MAX_DOCUMENT_BYTES).await.map_err(|err| err.to_string())?;
        if !fetched.status.is_success() {
            return Err(format!("it answered {}", fetched.status));
        }
        if !(fetched.media_type == "application/json" || fetched.media_type.ends_with("+json")) {
            return Err(format!("it is not JSON ({})", fetched.media_type));
        }
        serde_json::from_slice(&fetched.body).map_err(|err| format!("it is not valid JSON: {err}"))
    }
}
