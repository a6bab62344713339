//! Wiring of the claims domain: the DNS servers that TXT checks ask (the system's, or those of
//! `dns_nameservers`), the site probe over the safe fetcher, the branding prefix, the re-check
//! interval and the daily quotas of claim e-mails.

use crate::settings::Settings;
use anyhow::Context;
use claims::{ClaimsPolicy, ClaimsPorts, ClaimsService};
use kernel::Clock;
use std::net::SocketAddr;
use std::sync::Arc;
use store_seaorm::SeaStore;

/// A prefix names a DNS label and a meta tag: lower-case letters, digits and inner hyphens.
fn checked_prefix(prefix: &str) -> anyhow::Result<String> {
    let fine = !prefix.is_empty()
        && prefix.len() <= 40
        && prefix.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        && !prefix.starts_with('-')
        && !prefix.ends_with('-');
    anyhow::ensure!(fine, "claim_prefix {prefix:?} must be 1 to 40 lower-case letters, digits and inner hyphens");
    Ok(prefix.to_owned())
}

fn resolver(settings: &Settings) -> anyhow::Result<dns_txt::HickoryTxtResolver> {
    if settings.dns_nameservers.is_empty() {
        return Ok(dns_txt::HickoryTxtResolver::system());
    }
    let servers = settings
        .dns_nameservers
        .iter()
        .map(|server| server.trim().parse::<SocketAddr>().with_context(|| format!("dns_nameservers: {server:?} is not ip:port")))
        .collect::<anyhow::Result<Vec<_>>>()?;
    Ok(dns_txt::HickoryTxtResolver::with_nameservers(&servers))
}

/// The claim use cases.
pub fn claims(
    settings: &Settings,
    store: &SeaStore,
    fetcher: outbound_http::SafeFetcher,
    mailer: Arc<dyn kernel::Mailer>,
    clock: &Arc<dyn Clock>,
) -> anyhow::Result<ClaimsService> {
    Ok(ClaimsService::new(
        ClaimsPorts {
            repo: store.claims(),
            listings: listings::OwnershipService::new(store.ownership(), clock.clone()),
            txt: Arc::new(resolver(settings)?),
            site: Arc::new(outbound_http::ClaimSiteProbe::new(fetcher)),
            mailer,
            clock: clock.clone(),
        },
        ClaimsPolicy {
            prefix: checked_prefix(&settings.claim_prefix)?,
            site_name: settings.site_name.clone(),
            site_url: settings.site_url(),
            recheck_every: time::Duration::days(i64::from(settings.claim_recheck_days.max(1))),
            emails_per_account_per_day: settings.claim_emails_per_account_per_day,
            emails_per_recipient_per_day: settings.claim_emails_per_recipient_per_day,
        },
    ))
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_prefix_is_a_dns_label() {
        assert!(super::checked_prefix("launchdir").is_ok());
        assert!(super::checked_prefix("my-brand2").is_ok());
        for bad in ["", "Brand", "-x", "x-", "a.b", "a_b", "ü"] {
            assert!(super::checked_prefix(bad).is_err(), "{bad:?}");
        }
    }
}
