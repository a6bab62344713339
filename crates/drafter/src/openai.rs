//! `OpenAiDrafter`: asks an OpenAI-compatible chat-completions endpoint for a proposal with
//! quotes. The model is told to quote the pages verbatim and to leave out what they do not
//! state; the grounding check then drops whatever it invented anyway.

use async_trait::async_trait;
use drafts::grounding::{CategoryRef, Proposal, SocialLink};
use drafts::site::BlockRole;
use drafts::site::SiteSnapshot;
use drafts::{Basis, DraftFounder, Drafter, DrafterError, Evidence, FieldKind, FieldName, FieldValue, Proposed};
use kernel::Faq;
use serde_json::{Value, json};
use std::time::Duration;

/// Where the model lives and how to call it.
#[derive(Clone)]
pub struct OpenAiConfig {
    /// Up to and including the version prefix: `https://api.openai.com/v1`.
    pub base_url: String,
    pub model: String,
    pub api_key: Option<String>,
    pub timeout: Duration,
}

impl std::fmt::Debug for OpenAiConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OpenAiConfig").field("base_url", &self.base_url).field("model", &self.model).finish_non_exhaustive()
    }
}

/// Characters of page text sent to the model.
const MAX_PROMPT_CHARS: usize = 60_000;

pub struct OpenAiDrafter {
    client: reqwest::Client,
    config: OpenAiConfig,
}

impl OpenAiDrafter {
    pub fn new(config: OpenAiConfig) -> Result<Self, reqwest::Error> {
        crate::install_crypto_provider();
        let client = reqwest::Client::builder().timeout(config.timeout).redirect(reqwest::redirect::Policy::none()).build()?;
        Ok(Self { client, config })
    }
}

const INSTRUCTIONS: &str = "You write a product profile for a launch directory from the pages of the product's own website. \
Rules: use only what the pages state about this product; never guess or invent. For every value give evidence: a list of \
{\"url\", \"quote\", \"basis\"} where quote is copied character for character from that page and basis says what kind of \
evidence it is: structured_data (a JSON-LD value), labelled_section (text under a heading or on a page named for what the value is, \
such as a pricing page or a team section), names_product (a sentence that names the product), metadata (title, meta tags, \
addresses) or page_text (other text). Founders need structured_data, labelled_section or names_product and a quote saying they \
founded this product; prices need structured_data or labelled_section. Lines marked [testimonial], [partner or integration], \
[comparison], [roadmap], [copyright] or [cookie banner] are not about the product itself: never take founders, prices, the founding \
year or features from them; lines marked [footer] give contact details, the address and socials only. Leave out any field the pages do not state; when unsure, leave it out. \
Answer with one JSON object: {\"fields\": {<field>: {\"value\": string or array of strings, \"evidence\": [...]}}, \
\"faqs\": [{\"question\", \"answer\", \"evidence\"}], \"founders\": [{\"name\", \"title\", \"bio\", \"evidence\"}], \
\"socials\": [{\"key\", \"url\", \"evidence\"}], \"seo\": {\"title\": {\"value\", \"evidence\"}, \"meta\": {\"value\", \"evidence\"}}}.";

#[async_trait]
impl Drafter for OpenAiDrafter {
    async fn draft(&self, site: &SiteSnapshot, categories: &[CategoryRef]) -> Result<Proposal, DrafterError> {
        let mut pages = String::new();
        for page in &site.pages {
            let mut text = format!("=== PAGE {} ===\n", page.url);
            for item in [&page.title, &page.meta_description, &page.meta_keywords].into_iter().flatten() {
                text.push_str(item);
                text.push('\n');
            }
            for object in page.json_ld.iter().take(10) {
                text.push_str("JSON-LD: ");
                text.push_str(&object.to_string());
                text.push('\n');
            }
            for block in &page.blocks {
                if block.role != BlockRole::Content {
                    text.push_str(&format!("[{}] ", block.role.as_str()));
                }
                text.push_str(&block.text);
                text.push('\n');
            }
            for link in &page.links {
                text.push_str(&link.url);
                text.push('\n');
            }
            if pages.len() + text.len() > MAX_PROMPT_CHARS {
                break;
            }
            pages.push_str(&text);
        }
        let fields: Vec<String> = drafts::FieldName::ALL
            .iter()
            .map(|f| match f.kind() {
                FieldKind::Text(max) => format!("{f} (string, max {max})"),
                FieldKind::List(max) => format!("{f} (array of at most {max} strings)"),
            })
            .collect();
        let category_names: Vec<&str> = categories.iter().map(|c| c.slug.as_str()).collect();
        let request = json!({
            "model": self.config.model,
            "temperature": 0,
            "response_format": {"type": "json_object"},
            "messages": [
                {"role": "system", "content": INSTRUCTIONS},
                {"role": "user", "content": format!(
                    "Fields: {}.\nCategories (use these slugs only): {}.\nPricing models: free, freemium, free_trial, subscription, one_time, open_source, usage_based, contact_sales.\nCountry: ISO 3166 two-letter code.\n\n{pages}",
                    fields.join(", "), category_names.join(", "))}
            ]
        });
        let mut call = self.client.post(format!("{}/chat/completions", self.config.base_url.trim_end_matches('/'))).json(&request);
        if let Some(key) = &self.config.api_key {
            call = call.bearer_auth(key);
        }
        let response = call.send().await.map_err(|err| DrafterError(format!("the model endpoint did not answer: {err}")))?;
        if !response.status().is_success() {
            return Err(DrafterError(format!("the model endpoint answered {}", response.status())));
        }
        let body: Value = response.json().await.map_err(|err| DrafterError(format!("the model endpoint sent no JSON: {err}")))?;
        let content =
            body["choices"][0]["message"]["content"].as_str().ok_or_else(|| DrafterError("the answer has no message content".into()))?;
        let proposal: Value = serde_json::from_str(content.trim().trim_start_matches("```json").trim_matches('`'))
            .map_err(|err| DrafterError(format!("the model's answer is not JSON: {err}")))?;
        Ok(parse_proposal(&proposal))
    }
}

fn parse_evidence(value: &Value) -> Vec<Evidence> {
    value
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|item| {
            // A quote without a kind, or with one we do not know, is the weakest kind: other text.
            let basis = item["basis"].as_str().and_then(Basis::parse).unwrap_or_default();
            Some(Evidence::new(item["url"].as_str()?, item["quote"].as_str()?, basis))
        })
        .take(20)
        .collect()
}

/// Reads the model's JSON leniently: what does not fit the shape is left out.
pub fn parse_proposal(value: &Value) -> Proposal {
    let mut proposal = Proposal::default();
    if let Some(fields) = value["fields"].as_object() {
        for (name, item) in fields {
            let Some(field) = FieldName::parse(name) else { continue };
            let value = match (&item["value"], field.kind()) {
                (Value::String(text), FieldKind::Text(max)) if text.chars().count() <= max => FieldValue::Text(text.clone()),
                (Value::Number(number), FieldKind::Text(_)) => FieldValue::Text(number.to_string()),
                (Value::Array(items), FieldKind::List(max)) => FieldValue::List(
                    items.iter().filter_map(Value::as_str).filter(|s| s.chars().count() <= 200).take(max).map(str::to_owned).collect(),
                ),
                (Value::String(text), FieldKind::List(_)) if text.chars().count() <= 200 => FieldValue::List(vec![text.clone()]),
                _ => continue,
            };
            proposal.fields.insert(field, Proposed { value, evidence: parse_evidence(&item["evidence"]) });
        }
    }
    for faq in value["faqs"].as_array().into_iter().flatten().take(10) {
        if let (Some(question), Some(answer)) = (faq["question"].as_str(), faq["answer"].as_str()) {
            proposal.faqs.push(Proposed {
                value: Faq { question: question.to_owned(), answer: answer.to_owned() },
                evidence: parse_evidence(&faq["evidence"]),
            });
        }
    }
    for founder in value["founders"].as_array().into_iter().flatten().take(6) {
        if let Some(name) = founder["name"].as_str() {
            proposal.founders.push(Proposed {
                value: DraftFounder {
                    name: name.to_owned(),
                    title: founder["title"].as_str().map(str::to_owned),
                    bio: founder["bio"].as_str().map(str::to_owned),
                },
                evidence: parse_evidence(&founder["evidence"]),
            });
        }
    }
    for social in value["socials"].as_array().into_iter().flatten() {
        if let (Some(key), Some(url)) = (social["key"].as_str(), social["url"].as_str())
            && kernel::SocialKey::parse(key).is_some()
        {
            proposal.socials.push(Proposed {
                value: SocialLink { key: key.to_owned(), url: url.to_owned() },
                evidence: parse_evidence(&social["evidence"]),
            });
        }
    }
    let seo =
        |item: &Value| item["value"].as_str().map(|text| Proposed { value: text.to_owned(), evidence: parse_evidence(&item["evidence"]) });
    proposal.seo_title = seo(&value["seo"]["title"]).filter(|p| p.value.chars().count() <= 70);
    proposal.seo_meta = seo(&value["seo"]["meta"]).filter(|p| p.value.chars().count() <= 170);
    proposal
}
