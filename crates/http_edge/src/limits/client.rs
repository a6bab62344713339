//! Which client a request comes from: the socket peer, or, behind a reverse proxy the
//! deployment trusts, the right-most address of `X-Forwarded-For` that no trusted proxy added.

use std::net::IpAddr;

/// The client address of a request, worked out once when it arrives (by the server's request
/// middleware, from the setting `trusted_proxies`) and kept with it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClientIp(pub IpAddr);

impl ClientIp {
    /// The address the server recorded, else the socket peer (an adapter mounted without the
    /// server's middleware, as in its own tests), else the unspecified address.
    pub fn or_peer(recorded: Option<ClientIp>, peer: Option<std::net::SocketAddr>) -> IpAddr {
        recorded.map(|client| client.0).or(peer.map(|peer| canonical(peer.ip()))).unwrap_or(IpAddr::V4(std::net::Ipv4Addr::UNSPECIFIED))
    }
}

/// One trusted address or range (`10.0.0.0/8`, `::1`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Range {
    network: IpAddr,
    prefix: u8,
}

impl Range {
    fn parse(text: &str) -> Option<Self> {
        let (address, prefix) = match text.trim().split_once('/') {
            Some((address, prefix)) => (address, Some(prefix.parse::<u8>().ok()?)),
            None => (text.trim(), None),
        };
        let written: IpAddr = address.parse().ok()?;
        let bits = if written.is_ipv4() { 32 } else { 128 };
        let prefix = prefix.unwrap_or(bits);
        if prefix > bits {
            return None;
        }
        // `::ffff:10.0.0.0/104` is `10.0.0.0/8`: addresses are compared as IPv4 when they are.
        match canonical(written) {
            IpAddr::V4(network) if written.is_ipv6() => {
                (prefix >= 96).then_some(Self { network: IpAddr::V4(network), prefix: prefix - 96 })
            }
            network => Some(Self { network, prefix }),
        }
    }

    fn contains(&self, address: IpAddr) -> bool {
        match (self.network, canonical(address)) {
            (IpAddr::V4(network), IpAddr::V4(address)) => {
                let mask = u32::MAX.checked_shl(32 - u32::from(self.prefix)).unwrap_or(0);
                u32::from(network) & mask == u32::from(address) & mask
            }
            (IpAddr::V6(network), IpAddr::V6(address)) => {
                let mask = u128::MAX.checked_shl(128 - u32::from(self.prefix)).unwrap_or(0);
                u128::from(network) & mask == u128::from(address) & mask
            }
            _ => false,
        }
    }
}

/// An IPv4 address written as IPv6 (`::ffff:192.0.2.1`) is the IPv4 address.
fn canonical(address: IpAddr) -> IpAddr {
    match address {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(address, IpAddr::V4),
        v4 => v4,
    }
}

/// The reverse proxies whose `X-Forwarded-For` is believed (the setting `trusted_proxies`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TrustedProxies(Vec<Range>);

impl TrustedProxies {
    /// Reads addresses and CIDR ranges; the error names the first one that is neither.
    pub fn parse<S: AsRef<str>>(entries: &[S]) -> Result<Self, String> {
        entries
            .iter()
            .map(|entry| {
                Range::parse(entry.as_ref())
                    .ok_or_else(|| format!("`{}` is not an IP address or a CIDR range like 10.0.0.0/8", entry.as_ref()))
            })
            .collect::<Result<_, _>>()
            .map(Self)
    }

    pub fn trusts(&self, address: IpAddr) -> bool {
        self.0.iter().any(|range| range.contains(address))
    }
}

/// The client of a request that came from `peer` with these `X-Forwarded-For` values (each
/// header line, in order). Only a trusted peer's header is read, from the right: each address a
/// trusted proxy added is skipped, and the first one no trusted proxy vouches for is the client.
/// An entry that is not an address stops the walk at the last address vouched for.
pub fn client_ip<'a>(peer: IpAddr, forwarded_for: impl IntoIterator<Item = &'a str>, trusted: &TrustedProxies) -> IpAddr {
    let peer = canonical(peer);
    if !trusted.trusts(peer) {
        return peer;
    }
    let entries: Vec<&str> = forwarded_for.into_iter().flat_map(|line| line.split(',')).collect();
    let mut client = peer;
    for entry in entries.iter().rev() {
        let Some(address) = parse_entry(entry) else { return client };
        client = address;
        if !trusted.trusts(address) {
            return address;
        }
    }
    client
}

/// An `X-Forwarded-For` entry: an address, perhaps with a port (`192.0.2.1:4711`, `[2001:db8::1]:80`).
fn parse_entry(entry: &str) -> Option<IpAddr> {
    let entry = entry.trim();
    if let Ok(address) = entry.parse::<IpAddr>() {
        return Some(canonical(address));
    }
    if let Ok(socket) = entry.parse::<std::net::SocketAddr>() {
        return Some(canonical(socket.ip()));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    fn check(peer: &str, forwarded: &[&str], trusted: &[&str], expect: &str) {
        let trusted = TrustedProxies::parse(trusted).unwrap();
        assert_eq!(client_ip(ip(peer), forwarded.iter().copied(), &trusted), ip(expect), "{peer} {forwarded:?}");
    }

    #[test]
    fn the_peer_is_the_client_unless_it_is_a_trusted_proxy() {
        check("203.0.113.7", &["198.51.100.1"], &[], "203.0.113.7");
        check("203.0.113.7", &["198.51.100.1"], &["10.0.0.0/8"], "203.0.113.7");
        check("10.0.0.2", &[], &["10.0.0.0/8"], "10.0.0.2");
    }

    #[test]
    fn behind_trusted_proxies_the_rightmost_untrusted_entry_is_the_client() {
        let proxies = ["10.0.0.0/8", "::1"];
        check("10.0.0.2", &["198.51.100.1"], &proxies, "198.51.100.1");
        // A client can write anything on the left; only what the proxies added counts.
        check("10.0.0.2", &["6.6.6.6, 198.51.100.1, 10.1.2.3"], &proxies, "198.51.100.1");
        check("10.0.0.2", &["6.6.6.6", "198.51.100.1"], &proxies, "198.51.100.1");
        check("::1", &["2001:db8::5"], &proxies, "2001:db8::5");
        check("::ffff:10.0.0.2", &["198.51.100.1:4711"], &proxies, "198.51.100.1");
        check("10.0.0.2", &["[2001:db8::5]:443"], &proxies, "2001:db8::5");
        // Every hop trusted: the left-most one is as far as anyone vouches.
        check("10.0.0.2", &["10.9.9.9, 10.1.1.1"], &proxies, "10.9.9.9");
        // Garbage stops the walk at the last address a trusted proxy gave.
        check("10.0.0.2", &["198.51.100.1, unknown"], &proxies, "10.0.0.2");
        check("10.0.0.2", &["nonsense, 10.1.1.1"], &proxies, "10.1.1.1");
    }

    #[test]
    fn trusted_proxies_are_addresses_or_ranges() {
        assert!(TrustedProxies::parse(&["10.0.0.0/8", "192.168.1.1", "fd00::/8", "::1"]).is_ok());
        let mapped = TrustedProxies::parse(&["::ffff:10.0.0.0/104"]).unwrap();
        assert!(mapped.trusts(ip("10.1.2.3")) && mapped.trusts(ip("::ffff:10.1.2.3")) && !mapped.trusts(ip("11.0.0.1")));
        for bad in ["10.0.0.0/33", "localhost", "10.0.0/8", "::1/129", ""] {
            assert!(TrustedProxies::parse(&[bad]).unwrap_err().contains(bad), "{bad:?}");
        }
        let trusted = TrustedProxies::parse(&["0.0.0.0/0"]).unwrap();
        assert!(trusted.trusts(ip("8.8.8.8")));
        assert!(!trusted.trusts(ip("2001:db8::1")));
    }
}
