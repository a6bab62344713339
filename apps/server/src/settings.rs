//! Typed settings: defaults, then an optional `launchdir.toml`, then `LAUNCHDIR_*` environment
//! variables. Secrets never appear in `Debug` output or logs.

use anyhow::{Context, bail};
use serde::Deserialize;
use std::path::{Path, PathBuf};
use time::UtcOffset;

/// How logs are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LogFormat {
    Text,
    Json,
}

/// Every setting of the server. Field names are the TOML keys; the environment variable is
/// `LAUNCHDIR_` + the key in upper case.
#[derive(Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Settings {
    /// `sqlite://...` or `postgres://...`; unset means a SQLite file in `data_dir`.
    pub database_url: Option<String>,
    /// PostgreSQL only: the schema to work in (its `search_path`).
    pub database_schema: Option<String>,
    pub database_max_connections: u32,
    /// Where the server listens.
    pub bind: String,
    /// The public address of the site, without a trailing slash.
    pub site_url: Option<String>,
    /// The public address of the REST API; defaults to `{site_url}/api/v1`.
    pub base_url: Option<String>,
    pub site_name: String,
    /// Local state: the embedded database (and later the search index).
    pub data_dir: PathBuf,
    /// A tracing filter: `info`, `debug`, `info,sqlx=warn`, ...
    pub log_level: String,
    pub log_format: LogFormat,
    /// `UTC` or a fixed offset such as `+01:00`.
    pub launch_timezone: String,
    /// Seed the demo directory on first start. Unset: only on the embedded default database.
    pub demo_data: Option<bool>,
    /// Apply migrations when serving. Unset: on SQLite yes, on PostgreSQL no (run `launchdir migrate`).
    pub auto_migrate: Option<bool>,
    /// How many weeks ahead a paid launch can be booked.
    pub paid_weeks_ahead: u32,
    /// The free queue's window, in weeks ahead.
    pub free_queue_min_weeks: u32,
    pub free_queue_max_weeks: u32,
    /// Free launches per week.
    pub free_slots_per_week: u32,
    /// HTTP worker threads; unset means one per CPU core.
    pub http_workers: Option<usize>,
    /// How often each server enqueues the periodic jobs (week start, week end, badge sweep);
    /// each runs once per period however many servers enqueue it.
    pub scheduler_seconds: u64,
    /// How often a homepage in the free queue is looked at for the badge.
    pub badge_check_minutes: u64,
    /// The longest wait between two badge checks of a site that keeps failing.
    pub badge_max_backoff_hours: u64,
    /// Trending: a vote's weight halves every this many hours.
    pub trending_half_life_hours: u32,
    /// How often counted page views are written to the database (and at shutdown).
    pub view_flush_seconds: u64,
    /// Background job workers in this process (0 runs none: another process does the work).
    pub job_workers: usize,
    /// How long a worker's claim on a job holds; past it, another worker takes the job over
    /// (its worker died). Longer than the slowest job (a redraft with a model and a
    /// competitor's site: about two and a half minutes) with room to spare.
    pub job_lease_seconds: u64,
    /// How reading websites behaves.
    pub crawler: CrawlerSettings,
    /// Which drafter writes drafts.
    pub drafter: DrafterSettings,
    /// How e-mail leaves.
    pub mail: MailSettings,
    /// Who may reach the tool server at `/mcp`.
    pub mcp: McpSettings,
}

/// `[mcp]`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct McpSettings {
    /// Hosts the `Host` header of a request to `/mcp` may name (DNS-rebinding protection).
    /// Empty: the host of `site_url`, plus `localhost`, `127.0.0.1` and `::1`.
    pub allowed_hosts: Vec<String>,
    /// Origins a browser-based client may call `/mcp` from. Empty: the origin of `site_url`.
    /// Requests without an `Origin` header (non-browser clients) always pass.
    pub allowed_origins: Vec<String>,
}

/// `[mail]`.
#[derive(Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct MailSettings {
    /// `outbox` (the default: e-mails are stored in the database; `launchdir outbox list`) or
    /// `smtp`.
    pub transport: String,
    /// For `smtp`: `smtps://user:pass@host:465`, `smtp://user:pass@host:587?tls=required`, ...
    pub smtp_url: Option<String>,
    /// The sender: `Launchdir <noreply@example.com>`.
    pub from: String,
}

impl Default for MailSettings {
    fn default() -> Self {
        Self { transport: "outbox".into(), smtp_url: None, from: "Launchdir <noreply@localhost>".into() }
    }
}

impl std::fmt::Debug for MailSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MailSettings")
            .field("transport", &self.transport)
            .field("smtp_url", &self.smtp_url.as_deref().map(redact_url))
            .field("from", &self.from)
            .finish()
    }
}

/// `[crawler]`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct CrawlerSettings {
    /// Let outbound requests reach loopback and private networks. Off in production; tests turn
    /// it on to crawl fixture sites (`LAUNCHDIR_CRAWLER_ALLOW_PRIVATE=1`). Link-local (cloud
    /// metadata), multicast and reserved addresses stay refused.
    pub allow_private_networks: bool,
}

/// `[drafter]`.
#[derive(Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct DrafterSettings {
    /// `extractive` (no model, the default) or `openai` (an OpenAI-compatible endpoint).
    pub kind: String,
    /// For `openai`: up to the version prefix, `https://api.openai.com/v1`.
    pub base_url: String,
    pub model: String,
    pub api_key: Option<String>,
    pub timeout_seconds: u64,
}

impl Default for DrafterSettings {
    fn default() -> Self {
        Self {
            kind: "extractive".into(),
            base_url: "https://api.openai.com/v1".into(),
            model: "gpt-4o-mini".into(),
            api_key: None,
            timeout_seconds: 60,
        }
    }
}

impl std::fmt::Debug for DrafterSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DrafterSettings")
            .field("kind", &self.kind)
            .field("base_url", &self.base_url)
            .field("model", &self.model)
            .finish_non_exhaustive()
    }
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            database_url: None,
            database_schema: None,
            database_max_connections: 16,
            bind: "127.0.0.1:8080".into(),
            site_url: None,
            base_url: None,
            site_name: "Launchdir".into(),
            data_dir: PathBuf::from("./data"),
            log_level: "info".into(),
            log_format: LogFormat::Text,
            launch_timezone: "UTC".into(),
            demo_data: None,
            auto_migrate: None,
            paid_weeks_ahead: 12,
            free_queue_min_weeks: 6,
            free_queue_max_weeks: 8,
            free_slots_per_week: 20,
            http_workers: None,
            scheduler_seconds: 60,
            badge_check_minutes: 60,
            badge_max_backoff_hours: 24,
            trending_half_life_hours: 24,
            view_flush_seconds: 5,
            job_workers: 2,
            job_lease_seconds: 300,
            crawler: CrawlerSettings::default(),
            drafter: DrafterSettings::default(),
            mail: MailSettings::default(),
            mcp: McpSettings::default(),
        }
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

/// The environment variables read, with their TOML keys.
pub const ENV_KEYS: &[&str] = &[
    "database_url",
    "database_schema",
    "database_max_connections",
    "bind",
    "site_url",
    "base_url",
    "site_name",
    "data_dir",
    "log_level",
    "log_format",
    "launch_timezone",
    "demo_data",
    "auto_migrate",
    "paid_weeks_ahead",
    "free_queue_min_weeks",
    "free_queue_max_weeks",
    "free_slots_per_week",
    "http_workers",
    "scheduler_seconds",
    "badge_check_minutes",
    "badge_max_backoff_hours",
    "trending_half_life_hours",
    "view_flush_seconds",
    "job_workers",
    "job_lease_seconds",
];

/// Keys whose environment value is read as a whole number.
const INTEGER_KEYS: &[&str] = &[
    "database_max_connections",
    "paid_weeks_ahead",
    "free_queue_min_weeks",
    "free_queue_max_weeks",
    "free_slots_per_week",
    "http_workers",
    "job_workers",
    "job_lease_seconds",
    "scheduler_seconds",
    "badge_check_minutes",
    "badge_max_backoff_hours",
];

/// Variables for keys inside tables: `(variable, table, key, kind)`.
const NESTED_ENV: &[(&str, &str, &str, EnvKind)] = &[
    ("LAUNCHDIR_CRAWLER_ALLOW_PRIVATE", "crawler", "allow_private_networks", EnvKind::Bool),
    ("LAUNCHDIR_DRAFTER_KIND", "drafter", "kind", EnvKind::Text),
    ("LAUNCHDIR_DRAFTER_BASE_URL", "drafter", "base_url", EnvKind::Text),
    ("LAUNCHDIR_DRAFTER_MODEL", "drafter", "model", EnvKind::Text),
    ("LAUNCHDIR_DRAFTER_API_KEY", "drafter", "api_key", EnvKind::Text),
    ("LAUNCHDIR_MAIL_TRANSPORT", "mail", "transport", EnvKind::Text),
    ("LAUNCHDIR_MAIL_SMTP_URL", "mail", "smtp_url", EnvKind::Text),
    ("LAUNCHDIR_MAIL_FROM", "mail", "from", EnvKind::Text),
    ("LAUNCHDIR_MCP_ALLOWED_HOSTS", "mcp", "allowed_hosts", EnvKind::List),
    ("LAUNCHDIR_MCP_ALLOWED_ORIGINS", "mcp", "allowed_origins", EnvKind::List),
];

#[derive(Clone, Copy)]
enum EnvKind {
    Bool,
    Text,
    /// Comma-separated.
    List,
}

fn parse_bool(var: &str, raw: &str) -> anyhow::Result<bool> {
    match raw.trim() {
        "1" | "true" | "yes" => Ok(true),
        "0" | "false" | "no" => Ok(false),
        _ => bail!("{var} must be true or false"),
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
        for key in ENV_KEYS {
            let var = format!("LAUNCHDIR_{}", key.to_ascii_uppercase());
            let Some(raw) = env(&var) else { continue };
            let value = if INTEGER_KEYS.contains(key) {
                toml::Value::Integer(raw.trim().parse().with_context(|| format!("{var} must be a whole number"))?)
            } else if matches!(*key, "demo_data" | "auto_migrate") {
                toml::Value::Boolean(parse_bool(&var, &raw)?)
            } else {
                toml::Value::String(raw)
            };
            table.insert((*key).to_owned(), value);
        }
        for (var, section, key, kind) in NESTED_ENV {
            let Some(raw) = env(var) else { continue };
            let value = match kind {
                EnvKind::Bool => toml::Value::Boolean(parse_bool(var, &raw)?),
                EnvKind::Text => toml::Value::String(raw),
                EnvKind::List => toml::Value::Array(
                    raw.split(',')
                        .map(str::trim)
                        .filter(|item| !item.is_empty())
                        .map(|item| toml::Value::String(item.to_owned()))
                        .collect(),
                ),
            };
            let entry = table.entry((*section).to_owned()).or_insert_with(|| toml::Value::Table(toml::Table::new()));
            let Some(section) = entry.as_table_mut() else { bail!("[{section}] must be a table") };
            section.insert((*key).to_owned(), value);
        }
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
            if let Some(url) = value
                && !(url.starts_with("http://") || url.starts_with("https://"))
            {
                bail!("{name} must be an http:// or https:// address");
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
        Ok(())
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
        let site = self.site_url();
        let authority = site.split_once("://").map_or(site.as_str(), |(_, rest)| rest).split('/').next().unwrap_or("");
        let host = if authority.starts_with('[') {
            authority.split(']').next().map_or(authority, |h| h.trim_start_matches('['))
        } else {
            authority.split(':').next().unwrap_or(authority)
        };
        let mut hosts = vec![host.to_owned()];
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
        assert!(
            load(&[("LAUNCHDIR_LAUNCH_TIMEZONE", "+01:00")]).unwrap().launch_offset().unwrap() == UtcOffset::from_hms(1, 0, 0).unwrap()
        );
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
