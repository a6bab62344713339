//! The EU's VIES service behind `orders::VatNumberRegistry`, over its REST API. Anything but a
//! clear yes or no (a member state's database down, a timeout, an error) is
//! `RegistryAnswer::Unavailable`: unknown, never invalid.

use async_trait::async_trait;
use orders::{PaymentError, RegistryAnswer, VatNumber, VatNumberRegistry};
use serde_json::{Value, json};
use std::time::Duration;

/// VIES's public REST endpoint.
pub const VIES_API: &str = "https://ec.europa.eu/taxation_customs/vies/rest-api";

#[derive(Clone, Debug)]
pub struct ViesRegistry {
    api_base: String,
    client: reqwest::Client,
}

impl ViesRegistry {
    /// # Errors
    /// When the HTTP client cannot be built.
    pub fn new() -> Result<Self, PaymentError> {
        Self::with_base(VIES_API)
    }

    /// # Errors
    /// When the HTTP client cannot be built.
    pub fn with_base(api_base: &str) -> Result<Self, PaymentError> {
        outbound_http::install_crypto_provider();
        let client = reqwest::Client::builder()
            .timeout(Duration::from_secs(6))
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .map_err(|err| PaymentError(format!("could not build the VIES client: {err}")))?;
        Ok(Self { api_base: api_base.trim_end_matches('/').to_owned(), client })
    }

    async fn ask(&self, number: &VatNumber) -> Result<Value, String> {
        let body = json!({ "countryCode": number.prefix(), "vatNumber": number.local() }).to_string();
        let response = self
            .client
            .post(format!("{}/check-vat-number", self.api_base))
            .header(reqwest::header::CONTENT_TYPE, "application/json")
            .body(body)
            .send()
            .await
            .map_err(|err| kernel::error_chain(&err))?;
        let bytes = response.bytes().await.map_err(|err| err.to_string())?;
        serde_json::from_slice(&bytes).map_err(|err| err.to_string())
    }
}

#[async_trait]
impl VatNumberRegistry for ViesRegistry {
    async fn check(&self, number: &VatNumber) -> RegistryAnswer {
        match self.ask(number).await {
            Ok(answer) if answer.get("errorWrappers").is_none() => match answer["valid"].as_bool() {
                Some(true) => RegistryAnswer::Valid,
                Some(false) => RegistryAnswer::Invalid,
                None => RegistryAnswer::Unavailable,
            },
            Ok(answer) => {
                tracing::info!(error = %answer["errorWrappers"], "VIES could not check a VAT number");
                RegistryAnswer::Unavailable
            }
            Err(err) => {
                tracing::info!(error = %err, "VIES did not answer");
                RegistryAnswer::Unavailable
            }
        }
    }
}
