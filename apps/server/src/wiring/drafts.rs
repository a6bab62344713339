//! Wiring of the drafts domain: the site reader (robots.txt, and headless Chromium in a network
//! namespace of its own where the settings ask for it and the host allows it), the drafter the
//! settings choose, and the submission and invitation policies.

use crate::settings::Settings;
use anyhow::Context;
use kernel::{Clock, Mailer};
use std::sync::Arc;
use store_seaorm::SeaStore;

/// The reader of submitted sites. The badge check shares its robots.txt cache.
pub fn site_reader(settings: &Settings, fetcher: outbound_http::SafeFetcher) -> outbound_http::CrawlingSiteReader {
    let mut site_reader = outbound_http::CrawlingSiteReader::new(fetcher, outbound_http::BOT_TOKEN);
    let browser = outbound_http::ChromiumRenderer::find_browser().filter(|_| settings.crawler.render_javascript);
    match browser {
        // The browser runs only in a network namespace of its own: where none can be made,
        // there is no rendering, never a browser on this host's network.
        Some(browser) => match site_reader.use_browser(browser.clone()) {
            Ok(()) => {
                tracing::info!(browser = %browser.display(), "pages that need JavaScript are rendered in headless Chromium, in a network namespace of its own")
            }
            Err(reason) => tracing::warn!(
                %reason,
                "pages that need JavaScript are read as served, and their drafts say so: the browser cannot be enclosed here"
            ),
        },
        None if settings.crawler.render_javascript => {
            tracing::info!("no Chromium on PATH: pages that need JavaScript are read as served, and their drafts say so")
        }
        None => {}
    }
    site_reader
}

fn drafter(settings: &Settings) -> anyhow::Result<Arc<dyn drafts::Drafter>> {
    Ok(match settings.drafter.kind.as_str() {
        "openai" => Arc::new(
            drafter::OpenAiDrafter::new(drafter::OpenAiConfig {
                base_url: settings.drafter.base_url.clone(),
                model: settings.drafter.model.clone(),
                api_key: settings.drafter.api_key.clone(),
                timeout: std::time::Duration::from_secs(settings.drafter.timeout_seconds.max(1)),
            })
            .context("cannot build the HTTP client for the model endpoint")?,
        ),
        _ => Arc::new(drafter::ExtractiveDrafter),
    })
}

/// The draft use cases: submission by URL, crawls, competitor comparisons and invitations.
pub fn drafts(
    settings: &Settings,
    store: &SeaStore,
    site_reader: outbound_http::CrawlingSiteReader,
    media: media::MediaService,
    mailer: Arc<dyn Mailer>,
    clock: &Arc<dyn Clock>,
) -> anyhow::Result<drafts::DraftsService> {
    Ok(drafts::DraftsService::new(
        drafts::DraftsPorts {
            repo: store.drafts(),
            reader: Arc::new(site_reader),
            drafter: drafter(settings)?,
            categories: store.draft_categories(),
            listings: listings::SubmissionService::new(store.submitted_listings(), clock.clone()),
            media,
            mailer,
            clock: clock.clone(),
        },
        drafts::DraftsPolicy {
            site_url: settings.site_url(),
            site_name: settings.site_name.clone(),
            invites_per_account_per_day: settings.invites_per_account_per_day,
            invites_per_recipient_per_day: settings.invites_per_recipient_per_day,
        },
    ))
}
