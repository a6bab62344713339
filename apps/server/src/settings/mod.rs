//! Typed settings: defaults, then an optional `launchdir.toml`, then `LAUNCHDIR_*` environment
//! variables. Each setting is declared once, below; secrets never appear in `Debug` output or logs.

mod declare;
mod tables;

use anyhow::{Context, bail};
pub use declare::{Declaration, Kind};
use declare::{SettingType, declare_settings};
use std::path::{Path, PathBuf};
pub use tables::{CrawlerSettings, DrafterSettings, MailSettings, McpSettings, MediaSettings, PaymentSettings, RateLimitSettings};
use time::UtcOffset;

/// How logs are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LogFormat {
    Text,
    Json,
}

impl SettingType for LogFormat {
    const KIND: Kind = Kind::Text;

    fn shown(&self) -> Option<String> {
        let name = match self {
            LogFormat::Text => "text",
            LogFormat::Json => "json",
        };
        Some(format!("`{name}`"))
    }
}

// The field documentation is the meaning the settings table in `docs/configuration.md` shows (a
// test compares them), so it is written that table's way.
declare_settings! {
    /// Every setting of the server. Field names are the TOML keys.
    pub struct Settings {
        /// `sqlite://...` or `postgres://...`
        database_url: Option<String> = None, unset "`sqlite://{data_dir}/launchdir.db`", env "LAUNCHDIR_DATABASE_URL";
        /// PostgreSQL schema (`search_path`) to work in
        database_schema: Option<String> = None, unset "none", env "LAUNCHDIR_DATABASE_SCHEMA";
        /// pool size for requests and background work; a server opens one more for its own writes (page views, jobs handed back as it
        /// stops); a PostgreSQL connection that idled 30 s or more is tried before it is used, others are not (a try costs a round trip)
        database_max_connections: u32 = 16, env "LAUNCHDIR_DATABASE_MAX_CONNECTIONS";
        /// PostgreSQL: connections the server keeps open, all opened at once before it answers, so no request waits for one to open (over
        /// TLS that takes up to 100 ms); 0 or 1: opened as requests need them
        database_min_connections: Option<u32> = None, unset "`database_max_connections`", env "LAUNCHDIR_DATABASE_MIN_CONNECTIONS";
        /// listen address (`:0` picks a free port)
        bind: String = "127.0.0.1:8080".into(), env "LAUNCHDIR_BIND";
        /// public address of the site
        site_url: Option<String> = None, unset "`http://{bind}`", env "LAUNCHDIR_SITE_URL";
        /// public address of the REST API
        base_url: Option<String> = None, unset "`{site_url}/api/v1`", env "LAUNCHDIR_BASE_URL";
        /// shown by `get_site_info`
        site_name: String = "Launchdir".into(), env "LAUNCHDIR_SITE_NAME";
        /// local state (the embedded database, the search index, kept images with `media.store = files`)
        data_dir: PathBuf = PathBuf::from("./data"), env "LAUNCHDIR_DATA_DIR";
        /// keep the search index in `{data_dir}/search-index`, so a restart goes on from where it stood instead of reading every listing (off: in memory, read in full at each start); an index kept by a version with other fields is read in full once, at the first start of the new one (about 2 s at 100,000 listings); each server process needs its own `data_dir`
        search_index_on_disk: bool = true, env "LAUNCHDIR_SEARCH_INDEX_ON_DISK";
        /// how long each server keeps the answer of a public read for every caller, and a public page for visitors without a session (0: off); a write this server takes forgets them at once, other servers' writes show once it passes
        answer_cache_ms: u64 = 1000, env "LAUNCHDIR_ANSWER_CACHE_MS";
        /// memory the kept answers and pages may take, with their gzip twins, in MiB
        answer_cache_mib: usize = 32, env "LAUNCHDIR_ANSWER_CACHE_MIB";
        /// a tracing filter, e.g. `info,sqlx=warn`
        log_level: String = "info".into(), env "LAUNCHDIR_LOG_LEVEL";
        /// `text` or `json` (one JSON object per line, with the request id)
        log_format: LogFormat = LogFormat::Text, env "LAUNCHDIR_LOG_FORMAT";
        /// `UTC` or a fixed offset like `+01:00`; launch weeks run Monday to Sunday there
        launch_timezone: String = "UTC".into(), env "LAUNCHDIR_LAUNCH_TIMEZONE";
        /// seed the demo directory on first start
        demo_data: Option<bool> = None, unset "on for the embedded database only", env "LAUNCHDIR_DEMO_DATA";
        /// migrate when serving
        auto_migrate: Option<bool> = None, unset "on for SQLite, off for PostgreSQL", env "LAUNCHDIR_AUTO_MIGRATE";
        /// how far ahead a paid launch week may be chosen
        paid_weeks_ahead: u32 = 12, env "LAUNCHDIR_PAID_WEEKS_AHEAD";
        /// the free queue's window: its nearest week, in weeks ahead
        free_queue_min_weeks: u32 = 6, env "LAUNCHDIR_FREE_QUEUE_MIN_WEEKS";
        /// the free queue's window: its farthest week, in weeks ahead
        free_queue_max_weeks: u32 = 8, env "LAUNCHDIR_FREE_QUEUE_MAX_WEEKS";
        /// free launches per week
        free_slots_per_week: u32 = 20, env "LAUNCHDIR_FREE_SLOTS_PER_WEEK";
        /// paid launches per week; a full week is shown but cannot be chosen
        paid_launches_per_week: u32 = 30, env "LAUNCHDIR_PAID_LAUNCHES_PER_WEEK";
        /// HTTP worker threads
        http_workers: Option<usize> = None, unset "one per core", env "LAUNCHDIR_HTTP_WORKERS";
        /// trending: a vote's weight halves every this many hours
        trending_half_life_hours: u32 = 24, env "LAUNCHDIR_TRENDING_HALF_LIFE_HOURS";
        /// how often counted page views are written (one batch; also at shutdown)
        view_flush_seconds: u64 = 5, env "LAUNCHDIR_VIEW_FLUSH_SECONDS";
        /// votes of accounts younger than this are kept but not counted (rankings, trending, the weekly board and awards use counted
        /// votes); their reviews are shown but count in the rating only once the account is this old
        vote_min_account_age_hours: u32 = 24, env "LAUNCHDIR_VOTE_MIN_ACCOUNT_AGE_HOURS";
        /// co-founder invitations an account may send in any 24 hours (429 beyond)
        invites_per_account_per_day: u32 = 30, env "LAUNCHDIR_INVITES_PER_ACCOUNT_PER_DAY";
        /// co-founder invitations one e-mail address may receive in any 24 hours (429 beyond)
        invites_per_recipient_per_day: u32 = 3, env "LAUNCHDIR_INVITES_PER_RECIPIENT_PER_DAY";
        /// the seller's country (ISO 3166 alpha-2), shown by `get_site_info`: buyers there pay its VAT rate
        seller_country: String = "IE".into(), env "LAUNCHDIR_SELLER_COUNTRY";
        /// the seller's name on invoices and credit notes
        seller_name: Option<String> = None, unset "the site's name", env "LAUNCHDIR_SELLER_NAME";
        /// the seller's postal address on invoices and credit notes (lines separated by commas)
        seller_address: Option<String> = None, unset "none printed", env "LAUNCHDIR_SELLER_ADDRESS";
        /// the seller's VAT number on invoices and credit notes
        seller_vat_number: Option<String> = None, unset "none printed", env "LAUNCHDIR_SELLER_VAT_NUMBER";
        /// how often each server enqueues the periodic jobs (week start, week end with awards, badge sweep); each runs once per
        /// period however many servers enqueue it
        scheduler_seconds: u64 = 60, env "LAUNCHDIR_SCHEDULER_SECONDS";
        /// how often the homepage of a listing in the free queue is looked at for the badge
        badge_check_minutes: u64 = 60, env "LAUNCHDIR_BADGE_CHECK_MINUTES";
        /// the longest wait between two checks of a site that keeps failing (the wait doubles from `badge_check_minutes`)
        badge_max_backoff_hours: u64 = 24, env "LAUNCHDIR_BADGE_MAX_BACKOFF_HOURS";
        /// background job workers in this process (0: none; another process does the work)
        job_workers: usize = 2, env "LAUNCHDIR_JOB_WORKERS";
        /// how long a worker's claim on a job holds; past it another worker takes the job over
        // Past it the worker is taken for dead, so it is longer than the slowest job (a redraft with
        // a model and a competitor's site: about two and a half minutes) with room to spare.
        job_lease_seconds: u64 = 300, env "LAUNCHDIR_JOB_LEASE_SECONDS";
        /// Redis for rate-limit counters shared by several servers (`redis://host:6379/0`); if it stops answering, each server counts on
        /// its own until it is back
        redis_url: Option<String> = None, unset "none: each server counts in memory", env "LAUNCHDIR_REDIS_URL";
        /// reverse proxies (addresses or CIDR ranges) whose `X-Forwarded-For` names the client; the right-most address no trusted
        /// proxy added is the client
        trusted_proxies: Vec<String> = Vec::new(), unset "none: the connecting address is the client", env "LAUNCHDIR_TRUSTED_PROXIES";
        /// DNS servers (`ip:port`, comma-separated) that claim checks ask for TXT records
        dns_nameservers: Vec<String> = Vec::new(), unset "the system's (`/etc/resolv.conf`)", env "LAUNCHDIR_DNS_NAMESERVERS";
        /// brands what claimants publish: the TXT record `_{prefix}-verification.<domain>`, the meta tag and the file
        /// `{prefix}-verification` (lower-case letters, digits and hyphens)
        claim_prefix: String = "launchdir".into(), env "LAUNCHDIR_CLAIM_PREFIX";
        /// how often a verified DNS, meta or file claim's proof is checked again (a proof gone is recorded and the site team told)
        claim_recheck_days: u32 = 30, env "LAUNCHDIR_CLAIM_RECHECK_DAYS";
        /// claim e-mails (links to an address at the company's domain) an account may have sent in any 24 hours (429 beyond)
        claim_emails_per_account_per_day: u32 = 10, env "LAUNCHDIR_CLAIM_EMAILS_PER_ACCOUNT_PER_DAY";
        /// claim e-mails one e-mail address may receive in any 24 hours (429 beyond)
        claim_emails_per_recipient_per_day: u32 = 3, env "LAUNCHDIR_CLAIM_EMAILS_PER_RECIPIENT_PER_DAY";
    }
    tables {
        /// How reading websites behaves.
        crawler: CrawlerSettings,
        /// Which drafter writes drafts.
        drafter: DrafterSettings,
        /// How e-mail leaves.
        mail: MailSettings,
        /// Who may reach the tool server at `/mcp`.
        mcp: McpSettings,
        /// Where kept images live, and what an image may be.
        media: MediaSettings,
        /// How orders are paid.
        payments: PaymentSettings,
        /// How many requests each caller may make.
        rate_limits: RateLimitSettings,
    }
}

impl std::fmt::Debug for Settings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Settings")
            .field("database_url", &self.database_url.as_deref().map(redact_url))
            .field("bind", &self.bind)
            .field("site_url", &self.site_url)
            .field("base_url", &self.base_url)
            .field("data_dir", &self.data_dir)
            .field("log_level", &self.log_level)
            .field("log_format", &self.log_format)
            .finish_non_exhaustive()
    }
}

/// Hides the password of a database URL (`postgres://user:secret@host` -> `postgres://user:***@host`).
pub fn redact_url(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else { return url.to_owned() };
    let Some((credentials, host)) = rest.rsplit_once('@') else { return url.to_owned() };
    match credentials.split_once(':') {
        Some((user, _)) => format!("{scheme}://{user}:***@{host}"),
        None => url.to_owned(),
    }
}

impl Settings {
    /// Loads settings: the file (`path`, or `./launchdir.toml` when it exists), then the
    /// environment.
    pub fn load(path: Option<&Path>) -> anyhow::Result<Self> {
        Self::load_from(path, |key| std::env::var(key).ok())
    }

    /// Like `load`, reading variables through `env` (tests pass their own).
    pub fn load_from(path: Option<&Path>, env: impl Fn(&str) -> Option<String>) -> anyhow::Result<Self> {
        let default_path = PathBuf::from("launchdir.toml");
        let file = match path {
            Some(path) => Some(path.to_path_buf()),
            None => env("LAUNCHDIR_CONFIG").map(PathBuf::from).or_else(|| default_path.exists().then_some(default_path)),
        };
        let mut table = match &file {
            Some(file) => {
                let text = std::fs::read_to_string(file).with_context(|| format!("cannot read {}", file.display()))?;
                text.parse::<toml::Table>().with_context(|| format!("{} is not valid TOML", file.display()))?
            }
            None => toml::Table::new(),
        };
        declare::layer_environment(&mut table, &Self::declarations(), env)?;
        let settings: Settings = table.try_into().context("invalid settings")?;
        settings.check()?;
        Ok(settings)
    }

    fn check(&self) -> anyhow::Result<()> {
        if let Some(url) = &self.database_url
            && store_seaorm::Backend::of_url(url).is_none()
        {
            bail!("database_url must start with sqlite: or postgres://");
        }
        for (name, value) in [("site_url", &self.site_url), ("base_url", &self.base_url)] {
            if let Some(Err(why)) = value.as_deref().map(kernel::WebUrl::parse) {
                bail!("{name} must be an http:// or https:// address: it {why}");
            }
        }
        self.launch_offset()?;
        if self.free_queue_min_weeks == 0 || self.free_queue_min_weeks > self.free_queue_max_weeks {
            bail!("free_queue_min_weeks must be at least 1 and at most free_queue_max_weeks");
        }
        if self.free_slots_per_week == 0 {
            bail!("free_slots_per_week must be at least 1");
        }
        if !(1..=104).contains(&self.paid_weeks_ahead) {
            bail!("paid_weeks_ahead must be between 1 and 104");
        }
        if !(1..=24 * 365).contains(&self.trending_half_life_hours) {
            bail!("trending_half_life_hours must be between 1 and 8760");
        }
        if !matches!(self.drafter.kind.as_str(), "extractive" | "openai") {
            bail!("drafter.kind must be extractive or openai");
        }
        if self.drafter.kind == "openai" && !(self.drafter.base_url.starts_with("http://") || self.drafter.base_url.starts_with("https://"))
        {
            bail!("drafter.base_url must be an http:// or https:// address");
        }
        match (self.mail.transport.as_str(), &self.mail.smtp_url) {
            ("outbox", _) | ("smtp", Some(_)) => {}
            ("smtp", None) => bail!("mail.smtp_url is needed when mail.transport is smtp"),
            _ => bail!("mail.transport must be outbox or smtp"),
        }
        if !(5..=3600).contains(&self.job_lease_seconds) {
            bail!("job_lease_seconds must be between 5 and 3600");
        }
        if !(1..=3600).contains(&self.scheduler_seconds) {
            bail!("scheduler_seconds must be between 1 and 3600");
        }
        if !(1..=10_080).contains(&self.badge_check_minutes) {
            bail!("badge_check_minutes must be between 1 and 10080 (a week)");
        }
        if !(1..=720).contains(&self.badge_max_backoff_hours) {
            bail!("badge_max_backoff_hours must be between 1 and 720");
        }
        if self.job_workers > 64 {
            bail!("job_workers must be at most 64");
        }
        if self.database_max_connections == 0 {
            bail!("database_max_connections must be at least 1");
        }
        if self.database_min_connections.is_some_and(|kept| kept > self.database_max_connections) {
            bail!("database_min_connections must be at most database_max_connections");
        }
        self.rate_quotas()?;
        self.trusted_proxies()?;
        if let Some(url) = &self.redis_url
            && !(url.starts_with("redis://")
                || url.starts_with("rediss://")
                || url.starts_with("redis+unix://")
                || url.starts_with("unix://"))
        {
            bail!("redis_url must start with redis://, rediss:// or unix://");
        }
        if self.mcp.max_sessions == 0 {
            bail!("mcp.max_sessions must be at least 1");
        }
        if kernel::CountryCode::parse(&self.seller_country).is_err() {
            bail!("seller_country must be a two-letter country code such as IE or DE");
        }
        match (self.payments.provider.as_str(), &self.payments.stripe_secret_key, &self.payments.stripe_webhook_secret) {
            ("test", _, _) | ("stripe", Some(_), Some(_)) => {}
            ("stripe", _, _) => {
                bail!("payments.stripe_secret_key and payments.stripe_webhook_secret are needed when payments.provider is stripe")
            }
            _ => bail!("payments.provider must be test or stripe"),
        }
        if self.payments.provider == "test" && self.site_url().starts_with("https://") && !self.payments.allow_test_provider {
            bail!(
                "payments.provider is test (the default) on a public site ({}): its Pay button settles orders with no money moving. \
                 Set payments.provider = \"stripe\" with its keys, or payments.allow_test_provider = true for a public demo",
                self.site_url()
            );
        }
        if !(1..=10_080).contains(&self.payments.reconcile_every_minutes) {
            bail!("payments.reconcile_every_minutes must be between 1 and 10080 (a week)");
        }
        if !(1..=86_400).contains(&self.mcp.session_idle_seconds) {
            bail!("mcp.session_idle_seconds must be between 1 and 86400");
        }
        Ok(())
    }

    /// The quota of every rate-limit policy; a value that is not a rate is named.
    pub fn rate_quotas(&self) -> anyhow::Result<ops::RateQuotas> {
        use ops::RateClass;
        let limits = &self.rate_limits;
        let mut quotas = ops::RateQuotas::default();
        for (policy, text) in [
            (RateClass::Read, &limits.read),
            (RateClass::ReadAnonymous, &limits.read_anonymous),
            (RateClass::Write, &limits.write),
            (RateClass::SubmitListing, &limits.submit_listing),
            (RateClass::VerifyClaim, &limits.verify_claim),
            (RateClass::CreateCheckout, &limits.create_checkout),
            (RateClass::OAuthRegister, &limits.oauth_register),
            (RateClass::SignIn, &limits.sign_in),
            (RateClass::McpInitialize, &limits.mcp_initialize),
            (RateClass::Vote, &limits.vote),
            (RateClass::VoteNetwork, &limits.vote_network),
            (RateClass::Review, &limits.review),
            (RateClass::ReviewNetwork, &limits.review_network),
        ] {
            let quota = kernel::RateQuota::parse(text).map_err(|why| anyhow::anyhow!("rate_limits.{}: {why}", policy.name()))?;
            quotas.set(policy, quota);
        }
        Ok(quotas)
    }

    /// The reverse proxies whose `X-Forwarded-For` is believed.
    pub fn trusted_proxies(&self) -> anyhow::Result<http_edge::limits::TrustedProxies> {
        http_edge::limits::TrustedProxies::parse(&self.trusted_proxies).map_err(|why| anyhow::anyhow!("trusted_proxies: {why}"))
    }

    /// Whether the database is the embedded default (no `database_url` given).
    pub fn uses_embedded_database(&self) -> bool {
        self.database_url.is_none()
    }

    /// The database URL in effect.
    pub fn database_url(&self) -> String {
        match &self.database_url {
            Some(url) => url.clone(),
            None => format!("sqlite://{}", self.data_dir.join("launchdir.db").display()),
        }
    }

    /// The site address in effect, without a trailing slash.
    pub fn site_url(&self) -> String {
        match &self.site_url {
            Some(url) => url.trim_end_matches('/').to_owned(),
            None => {
                let host = self.bind.replace("0.0.0.0", "localhost").replace("[::]", "localhost");
                format!("http://{host}")
            }
        }
    }

    /// The REST API base in effect, without a trailing slash.
    pub fn base_url(&self) -> String {
        match &self.base_url {
            Some(url) => url.trim_end_matches('/').to_owned(),
            None => format!("{}/api/v1", self.site_url()),
        }
    }

    /// The hosts `/mcp` answers to.
    pub fn mcp_allowed_hosts(&self) -> Vec<String> {
        if !self.mcp.allowed_hosts.is_empty() {
            return self.mcp.allowed_hosts.clone();
        }
        // `check` made sure the site address parses.
        let mut hosts: Vec<String> = kernel::WebUrl::parse(&self.site_url()).map(|site| site.host().to_owned()).into_iter().collect();
        for local in ["localhost", "127.0.0.1", "::1"] {
            if !hosts.iter().any(|h| h == local) {
                hosts.push(local.to_owned());
            }
        }
        hosts
    }

    /// The browser origins `/mcp` accepts.
    pub fn mcp_allowed_origins(&self) -> Vec<String> {
        if self.mcp.allowed_origins.is_empty() { vec![self.site_url()] } else { self.mcp.allowed_origins.clone() }
    }

    /// The launch time zone as an offset from UTC.
    pub fn launch_offset(&self) -> anyhow::Result<UtcOffset> {
        let raw = self.launch_timezone.trim();
        if raw.eq_ignore_ascii_case("utc") || raw == "Z" {
            return Ok(UtcOffset::UTC);
        }
        let format = time::macros::format_description!("[offset_hour sign:mandatory]:[offset_minute]");
        UtcOffset::parse(raw, format).with_context(|| format!("launch_timezone must be UTC or an offset such as +01:00, not {raw:?}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn load(vars: &[(&str, &str)]) -> anyhow::Result<Settings> {
        let vars: HashMap<String, String> = vars.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect();
        Settings::load_from(None, |key| vars.get(key).cloned())
    }

    #[test]
    fn defaults() {
        let settings = load(&[]).unwrap();
        assert_eq!(settings.bind, "127.0.0.1:8080");
        assert_eq!(settings.site_url(), "http://127.0.0.1:8080");
        assert_eq!(settings.base_url(), "http://127.0.0.1:8080/api/v1");
        assert!(settings.database_url().starts_with("sqlite://"));
        assert!(settings.database_url().ends_with("launchdir.db"));
        assert!(settings.uses_embedded_database());
    }

    #[test]
    fn environment_overrides() {
        let settings = load(&[
            ("LAUNCHDIR_SITE_URL", "https://launch.example/"),
            ("LAUNCHDIR_PAYMENTS_ALLOW_TEST_PROVIDER", "true"),
            ("LAUNCHDIR_BIND", "0.0.0.0:9000"),
            ("LAUNCHDIR_PAID_WEEKS_AHEAD", "8"),
            ("LAUNCHDIR_DEMO_DATA", "false"),
            ("LAUNCHDIR_LOG_FORMAT", "json"),
        ])
        .unwrap();
        assert_eq!(settings.site_url(), "https://launch.example");
        assert_eq!(settings.base_url(), "https://launch.example/api/v1");
        assert_eq!(settings.bind, "0.0.0.0:9000");
        assert_eq!(settings.paid_weeks_ahead, 8);
        assert_eq!(settings.demo_data, Some(false));
        assert_eq!(settings.log_format, LogFormat::Json);
    }

    #[test]
    fn nested_settings_from_the_environment() {
        let settings = load(&[
            ("LAUNCHDIR_CRAWLER_ALLOW_PRIVATE", "1"),
            ("LAUNCHDIR_DRAFTER_KIND", "openai"),
            ("LAUNCHDIR_DRAFTER_API_KEY", "sk-secret"),
        ])
        .unwrap();
        assert!(settings.crawler.allow_private_networks);
        assert_eq!(settings.drafter.kind, "openai");
        assert!(!format!("{:?}", settings.drafter).contains("sk-secret"));
        assert!(!load(&[]).unwrap().crawler.allow_private_networks, "off by default");
        assert!(load(&[("LAUNCHDIR_DRAFTER_KIND", "magic")]).is_err());
        let mcp = load(&[
            ("LAUNCHDIR_SITE_URL", "https://launch.example:8443"),
            ("LAUNCHDIR_PAYMENTS_ALLOW_TEST_PROVIDER", "true"),
            ("LAUNCHDIR_MCP_ALLOWED_ORIGINS", "https://a.example, https://b.example"),
        ])
        .unwrap();
        assert_eq!(mcp.mcp_allowed_hosts(), ["launch.example", "localhost", "127.0.0.1", "::1"]);
        assert_eq!(mcp.mcp_allowed_origins(), ["https://a.example", "https://b.example"]);
        let smtp =
            load(&[("LAUNCHDIR_MAIL_TRANSPORT", "smtp"), ("LAUNCHDIR_MAIL_SMTP_URL", "smtps://me:hunter2@smtp.example:465")]).unwrap();
        assert_eq!(smtp.mail.transport, "smtp");
        assert!(!format!("{:?}", smtp.mail).contains("hunter2"));
        assert!(format!("{:#}", load(&[("LAUNCHDIR_MAIL_TRANSPORT", "smtp")]).unwrap_err()).contains("mail.smtp_url"));
    }

    #[test]
    fn bad_values_are_named() {
        let err = load(&[("LAUNCHDIR_PAID_WEEKS_AHEAD", "many")]).unwrap_err();
        assert!(format!("{err:#}").contains("LAUNCHDIR_PAID_WEEKS_AHEAD"));
        let err = load(&[("LAUNCHDIR_DATABASE_URL", "mysql://x")]).unwrap_err();
        assert!(format!("{err:#}").contains("database_url"));
        let err = load(&[("LAUNCHDIR_LAUNCH_TIMEZONE", "Europe/Berlin")]).unwrap_err();
        assert!(format!("{err:#}").contains("launch_timezone"));
        let err = load(&[("LAUNCHDIR_DATABASE_MAX_CONNECTIONS", "4"), ("LAUNCHDIR_DATABASE_MIN_CONNECTIONS", "5")]).unwrap_err();
        assert!(format!("{err:#}").contains("database_min_connections must be at most database_max_connections"));
        assert_eq!(load(&[("LAUNCHDIR_DATABASE_MIN_CONNECTIONS", "4")]).unwrap().database_min_connections, Some(4));
        assert!(
            load(&[("LAUNCHDIR_LAUNCH_TIMEZONE", "+01:00")]).unwrap().launch_offset().unwrap() == UtcOffset::from_hms(1, 0, 0).unwrap()
        );
    }

    /// The test provider settles orders with no money: a public site runs it only when told to.
    #[test]
    fn a_public_site_refuses_the_test_provider_unless_allowed() {
        let public = [("LAUNCHDIR_SITE_URL", "https://launch.example")];
        let err = format!("{:#}", load(&public).unwrap_err());
        assert!(err.contains("payments.provider is test") && err.contains("payments.allow_test_provider"), "{err}");
        assert!(load(&[public[0], ("LAUNCHDIR_PAYMENTS_ALLOW_TEST_PROVIDER", "true")]).is_ok());
        assert!(load(&[("LAUNCHDIR_SITE_URL", "http://127.0.0.1:8080")]).is_ok(), "a local site keeps the demo's default");
    }

    #[test]
    fn rate_limits_and_proxies_are_read_and_checked() {
        use ops::RateClass;
        let defaults = load(&[]).unwrap();
        assert_eq!(defaults.rate_quotas().unwrap(), ops::RateQuotas::default());
        assert!(defaults.rate_limits.enabled);
        let changed = load(&[
            ("LAUNCHDIR_RATE_LIMITS_SUBMIT_LISTING", "5/day"),
            ("LAUNCHDIR_TRUSTED_PROXIES", "10.0.0.0/8, ::1"),
            ("LAUNCHDIR_REDIS_URL", "redis://127.0.0.1:6379/0"),
        ])
        .unwrap();
        assert_eq!(changed.rate_quotas().unwrap().get(RateClass::SubmitListing).to_string(), "5/day");
        assert!(changed.trusted_proxies().unwrap().trusts("10.1.2.3".parse().unwrap()));
        let named = |vars: &[(&str, &str)], name: &str| {
            let err = format!("{:#}", load(vars).unwrap_err());
            assert!(err.contains(name), "{err}");
        };
        named(&[("LAUNCHDIR_RATE_LIMITS_SIGN_IN", "ten a minute")], "rate_limits.sign_in");
        named(&[("LAUNCHDIR_RATE_LIMITS_READ", "0/minute")], "rate_limits.read");
        named(&[("LAUNCHDIR_TRUSTED_PROXIES", "proxy.internal")], "trusted_proxies");
        named(&[("LAUNCHDIR_REDIS_URL", "localhost:6379")], "redis_url");
        named(&[("LAUNCHDIR_MCP_MAX_SESSIONS", "0")], "mcp.max_sessions");
    }

    #[test]
    fn file_then_environment() {
        let dir = std::env::temp_dir().join(format!("launchdir-settings-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("launchdir.toml");
        std::fs::write(&file, "site_name = \"Demo\"\nbind = \"127.0.0.1:7000\"\n").unwrap();
        let settings = Settings::load_from(Some(&file), |key| (key == "LAUNCHDIR_BIND").then(|| "127.0.0.1:7001".to_owned())).unwrap();
        assert_eq!(settings.site_name, "Demo");
        assert_eq!(settings.bind, "127.0.0.1:7001");
        std::fs::write(&file, "no_such_setting = 1\n").unwrap();
        assert!(Settings::load_from(Some(&file), |_| None).is_err());
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn database_passwords_are_redacted() {
        assert_eq!(redact_url("postgres://app:s3cret@db:5432/x"), "postgres://app:***@db:5432/x");
        assert_eq!(redact_url("sqlite://./data/x.db"), "sqlite://./data/x.db");
    }
}
