//! Logging: a tracing subscriber set up once, text or JSON, to standard error (standard output
//! belongs to command results such as a new API key).

use crate::settings::{LogFormat, Settings};
use tracing_subscriber::EnvFilter;

/// Installs the global subscriber. Calling it twice is harmless (the second call does nothing).
pub fn init(settings: &Settings) {
    let filter = EnvFilter::try_new(&settings.log_level).unwrap_or_else(|_| EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr).with_target(false);
    let _ = match settings.log_format {
        LogFormat::Json => builder.json().flatten_event(true).with_current_span(true).with_span_list(false).try_init(),
        LogFormat::Text => builder.try_init(),
    };
}
