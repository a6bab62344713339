//! `HickoryTxtResolver`: TXT records at a name, each as its strings, with every cache turned off
//! (a claimant publishes a record and asks at once; a cached "none" would turn them away).

use async_trait::async_trait;
use claims::TxtLookup;
use hickory_resolver::config::{NameServerConfig, ResolveHosts, ResolverConfig, ResolverOpts};
use hickory_resolver::net::runtime::TokioRuntimeProvider;
use hickory_resolver::net::{DnsError, NetError};
use hickory_resolver::proto::op::ResponseCode;
use hickory_resolver::proto::rr::{Name, RData};
use hickory_resolver::{Resolver, TokioResolver};
use std::net::SocketAddr;
use std::time::Duration;

/// How long one query waits for an answer; a lookup tries twice.
const QUERY_TIMEOUT: Duration = Duration::from_secs(3);

/// The TXT reader. Without a usable configuration every lookup answers why.
pub struct HickoryTxtResolver {
    resolver: Result<TokioResolver, String>,
}

fn options(mut options: ResolverOpts) -> ResolverOpts {
    options.timeout = QUERY_TIMEOUT;
    options.attempts = 1;
    options.cache_size = 0;
    options.positive_max_ttl = Some(Duration::ZERO);
    options.negative_max_ttl = Some(Duration::ZERO);
    options.use_hosts_file = ResolveHosts::Never;
    options
}

impl HickoryTxtResolver {
    /// Asks the servers of `/etc/resolv.conf`.
    pub fn system() -> Self {
        let resolver = TokioResolver::builder_tokio().and_then(|mut builder| {
            let configured = builder.options_mut().clone();
            *builder.options_mut() = options(configured);
            builder.build()
        });
        Self { resolver: resolver.map_err(|err| format!("the system's DNS configuration is not usable: {err}")) }
    }

    /// Asks these servers (`ip:port`), over UDP and, for long answers, TCP on the same port.
    pub fn with_nameservers(servers: &[SocketAddr]) -> Self {
        let name_servers = servers
            .iter()
            .map(|server| {
                let mut config = NameServerConfig::udp_and_tcp(server.ip());
                for connection in &mut config.connections {
                    connection.port = server.port();
                }
                config
            })
            .collect();
        let resolver = Resolver::builder_with_config(ResolverConfig::from_name_servers(name_servers), TokioRuntimeProvider::default())
            .with_options(options(ResolverOpts::default()))
            .build();
        Self { resolver: resolver.map_err(|err| format!("the DNS servers of dns_nameservers are not usable: {err}")) }
    }
}

#[async_trait]
impl claims::TxtResolver for HickoryTxtResolver {
    async fn txt(&self, name: &str) -> TxtLookup {
        let resolver = match &self.resolver {
            Ok(resolver) => resolver,
            Err(why) => return TxtLookup::Failed(why.clone()),
        };
        // Absolute, so no search domain is ever appended; `from_ascii` keeps the leading `_`.
        let mut query = match Name::from_ascii(name) {
            Ok(query) => query,
            Err(_) => return TxtLookup::Failed(format!("{name} is not a DNS name")),
        };
        query.set_fqdn(true);
        match resolver.txt_lookup(query).await {
            Ok(lookup) => {
                // The answer may hold the CNAMEs that led to the records, too.
                let records: Vec<Vec<String>> = lookup
                    .answers()
                    .iter()
                    .filter_map(|record| match &record.data {
                        RData::TXT(txt) => Some(txt.txt_data.iter().map(|part| String::from_utf8_lossy(part).into_owned()).collect()),
                        _ => None,
                    })
                    .collect();
                if records.is_empty() { TxtLookup::None } else { TxtLookup::Records(records) }
            }
            Err(err) => failure(err),
        }
    }
}

/// A lookup that found no records is an answer ("none"); anything else is not.
fn failure(err: NetError) -> TxtLookup {
    match err {
        NetError::Dns(DnsError::NoRecordsFound(_)) => TxtLookup::None,
        NetError::Dns(DnsError::ResponseCode(ResponseCode::ServFail)) => TxtLookup::Failed("the DNS server failed (SERVFAIL)".into()),
        NetError::Dns(DnsError::ResponseCode(ResponseCode::Refused)) => TxtLookup::Failed("the DNS server refused the query".into()),
        NetError::Dns(DnsError::ResponseCode(code)) => TxtLookup::Failed(format!("the DNS server answered {code}")),
        NetError::Timeout => TxtLookup::Failed("the DNS server did not answer in time".into()),
        other => {
            tracing::info!(error = %other, "a TXT lookup failed");
            TxtLookup::Failed("the DNS lookup failed".into())
        }
    }
}
