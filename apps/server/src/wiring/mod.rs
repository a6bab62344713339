//! Wiring: builds every adapter from settings and hands them to the application layer, one
//! builder per domain (`accounts`, `listings`, `drafts`, `claims`, `commerce`, `media`) plus the edge
//! every transport shares. This file only says who gets which shared adapter.

mod accounts;
mod claims;
mod commerce;
mod drafts;
mod edge;
mod listings;
mod media;

use crate::settings::Settings;
use anyhow::Context;
use kernel::Clock;
use ops::{App, ContentServices, SiteConfig};
use std::sync::Arc;
use store_seaorm::{DatabaseConnection, SeaStore};

/// The application layer and its adapters, built from settings.
#[derive(Clone)]
pub struct Services {
    pub app: App,
    pub edge: http_edge::Edge,
    pub store: SeaStore,
    pub clock: Arc<dyn Clock>,
}

impl Services {
    pub fn build(settings: &Settings, db: DatabaseConnection, clock: Arc<dyn Clock>) -> anyhow::Result<Self> {
        let store = SeaStore::new(db);
        let addresses =
            outbound_http::AddressPolicy { allow_private_networks: settings.crawler.allow_private_networks, trusted: Vec::new() };
        let fetcher =
            outbound_http::SafeFetcher::new(outbound_http::FetcherConfig::new(outbound_http::user_agent(&settings.site_url()), addresses))
                .context("cannot build the HTTP client for outbound requests")?;
        let mailer = mailer(settings, &store, &clock)?;
        let site_reader = drafts::site_reader(settings, fetcher.clone());
        let badge_probe = Arc::new(outbound_http::HomepageBadgeProbe::new(fetcher.clone(), site_reader.robots()));
        let media = media::media(settings, &store, &clock)?;
        let app = App {
            site: SiteConfig {
                name: settings.site_name.clone(),
                site_url: settings.site_url(),
                base_url: settings.base_url(),
                launch_timezone: settings.launch_timezone.clone(),
            },
            accounts: accounts::accounts(settings, &store, fetcher.clone(), mailer.clone(), &clock),
            listings: listings::listings(settings, &store, badge_probe, mailer.clone(), &clock)?,
            content: ContentServices {
                blog: content::BlogService::new(store.blog_posts(), clock.clone()),
                interview_questions: store.interview_questions(),
            },
            commerce: commerce::commerce(settings, &store, &clock, mailer.clone())?,
            claims: claims::claims(settings, &store, fetcher, mailer.clone(), &clock)?,
            drafts: drafts::drafts(settings, &store, site_reader, media.clone(), mailer, &clock)?,
            media,
            housekeeper: ops::housekeeping::Housekeeper::new(store.housekeeping(), clock.clone()),
            clock: clock.clone(),
        };
        let edge = edge::edge(settings, &store)?;
        Ok(Self { app, edge, store, clock })
    }
}

/// The mailer the settings choose: the database outbox (default) or SMTP.
fn mailer(settings: &Settings, store: &SeaStore, clock: &Arc<dyn Clock>) -> anyhow::Result<Arc<dyn kernel::Mailer>> {
    Ok(match (settings.mail.transport.as_str(), &settings.mail.smtp_url) {
        ("smtp", Some(url)) => Arc::new(mail_smtp::SmtpMailer::new(url, &settings.mail.from)?),
        _ => Arc::new(store_seaorm::OutboxMailer::new(store.clone(), clock.clone())),
    })
}
