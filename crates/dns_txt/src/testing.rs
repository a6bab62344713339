//! `TestDns`: an authoritative DNS server on 127.0.0.1 for tests (UDP and TCP on one random
//! port), serving the zones `acme.test.` and `other.test.` with TTL 0. Records change while it
//! runs; `servfail.acme.test.` (and any name given to `fail`) always answers SERVFAIL.

use hickory_server::Server;
use hickory_server::net::runtime::Time;
use hickory_server::proto::op::{Header, HeaderCounts, Metadata, ResponseCode};
use hickory_server::proto::rr::rdata::{CNAME, SOA, TXT};
use hickory_server::proto::rr::{LowerName, Name, RData, Record, RecordType};
use hickory_server::server::{Request, RequestHandler, ResponseHandler, ResponseInfo};
use hickory_server::store::in_memory::InMemoryZoneHandler;
use hickory_server::zone_handler::{AxfrPolicy, Catalog, MessageResponseBuilder, ZoneHandler, ZoneType};
use std::collections::HashSet;
use std::net::{Ipv4Addr, SocketAddr};
use std::sync::{Arc, RwLock};
use std::time::Duration;
use tokio::net::{TcpListener, UdpSocket};

/// The zones served; a name outside them is REFUSED.
pub const ZONES: [&str; 2] = ["acme.test.", "other.test."];
/// Always SERVFAIL.
pub const SERVFAIL_NAME: &str = "servfail.acme.test.";

type Names = Arc<RwLock<HashSet<LowerName>>>;

fn absolute(name: &str) -> Name {
    let mut name = Name::from_ascii(name).expect("a DNS name");
    name.set_fqdn(true);
    name
}

fn failed(request: &Request, code: ResponseCode) -> ResponseInfo {
    let mut metadata = Metadata::response_from_request(&request.metadata);
    metadata.response_code = code;
    ResponseInfo::from(Header { metadata, counts: HeaderCounts::default() })
}

/// The zones, with SERVFAIL for the failing names.
struct Handler {
    catalog: Catalog,
    failing: Names,
}

#[async_trait::async_trait]
impl RequestHandler for Handler {
    async fn handle_request<R: ResponseHandler, T: Time>(&self, request: &Request, mut response: R) -> ResponseInfo {
        let name = request.queries.queries().first().map(|query| query.name().clone());
        let fail = name.is_some_and(|name| self.failing.read().unwrap_or_else(|poisoned| poisoned.into_inner()).contains(&name));
        if fail {
            let message = MessageResponseBuilder::from_message_request(request).error_msg(&request.metadata, ResponseCode::ServFail);
            return response.send_response(message).await.unwrap_or_else(|_| failed(request, ResponseCode::ServFail));
        }
        self.catalog.handle_request::<R, T>(request, response).await
    }
}

fn zone(origin: &Name) -> InMemoryZoneHandler {
    let mut zone: InMemoryZoneHandler = InMemoryZoneHandler::empty(origin.clone(), ZoneType::Primary, AxfrPolicy::Deny);
    // Minimum 0: a "no such record" is never cached by anyone.
    let soa = SOA::new(absolute(&format!("ns.{origin}")), absolute(&format!("hostmaster.{origin}")), 1, 3600, 600, 86_400, 0);
    assert!(zone.upsert_mut(Record::from_rdata(origin.clone(), 0, RData::SOA(soa)), 0));
    zone
}

/// The running server. Dropping it stops it.
pub struct TestDns {
    /// UDP and TCP both listen here.
    pub addr: SocketAddr,
    zones: Vec<Arc<InMemoryZoneHandler>>,
    failing: Names,
    _server: Server<Handler>,
}

impl TestDns {
    pub async fn start() -> Self {
        let zones: Vec<Arc<InMemoryZoneHandler>> = ZONES.iter().map(|origin| Arc::new(zone(&absolute(origin)))).collect();
        let mut catalog = Catalog::new();
        for zone in &zones {
            let handler: Arc<dyn ZoneHandler> = zone.clone();
            catalog.upsert(zone.origin().clone(), vec![handler]);
        }
        let failing: Names = Arc::new(RwLock::new(HashSet::from([LowerName::from(&absolute(SERVFAIL_NAME))])));
        let (udp, tcp) = bind().await;
        let addr = udp.local_addr().expect("a local address");
        let mut server = Server::new(Handler { catalog, failing: failing.clone() });
        server.register_socket(udp);
        server.register_listener(tcp, Duration::from_secs(10), 64);
        Self { addr, zones, failing, _server: server }
    }

    fn zone_of(&self, name: &Name) -> &InMemoryZoneHandler {
        let lower = LowerName::from(name);
        self.zones.iter().find(|zone| zone.origin().zone_of(&lower)).unwrap_or_else(|| panic!("{name} is in none of {ZONES:?}"))
    }

    /// Removes every record at `name` (the zone's SOA stays).
    pub async fn clear(&self, name: &str) {
        let name = absolute(name);
        let lower = LowerName::from(&name);
        self.zone_of(&name).records_mut().await.retain(|key, _| !(key.name == lower && key.record_type != RecordType::SOA));
    }

    /// Adds a TXT record at `name` holding `strings` as its character-strings (other records stay).
    pub async fn add_txt(&self, name: &str, strings: &[&str]) {
        let name = absolute(name);
        let txt = TXT::new(strings.iter().map(|part| (*part).to_owned()).collect());
        assert!(self.zone_of(&name).upsert(Record::from_rdata(name.clone(), 0, RData::TXT(txt)), 0).await, "TXT at {name}");
    }

    /// Makes `name` a CNAME for `target` (whatever was at `name` goes).
    pub async fn set_cname(&self, name: &str, target: &str) {
        self.clear(name).await;
        let name = absolute(name);
        let record = Record::from_rdata(name.clone(), 0, RData::CNAME(CNAME(absolute(target))));
        assert!(self.zone_of(&name).upsert(record, 0).await, "CNAME at {name}");
    }

    /// From now on `name` answers SERVFAIL.
    pub fn fail(&self, name: &str) {
        self.failing.write().unwrap_or_else(|poisoned| poisoned.into_inner()).insert(LowerName::from(&absolute(name)));
    }
}

/// UDP and TCP on the same free port, so one address serves both.
async fn bind() -> (UdpSocket, TcpListener) {
    for _ in 0..100 {
        let udp = UdpSocket::bind((Ipv4Addr::LOCALHOST, 0)).await.expect("a UDP socket");
        let port = udp.local_addr().expect("a local address").port();
        if let Ok(tcp) = TcpListener::bind((Ipv4Addr::LOCALHOST, port)).await {
            return (udp, tcp);
        }
    }
    panic!("no port on 127.0.0.1 was free for both UDP and TCP");
}
