//! Which addresses we connect to. Everything outbound is checked here: bare-IP URLs before the
//! request, names inside the resolver (so the connection uses the checked address).

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};

/// Which networks outbound requests may reach.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AddressPolicy {
    /// Lets requests reach loopback and private networks (RFC 1918, CGNAT, IPv6 unique-local).
    /// Off in production; tests turn it on to crawl fixture sites on loopback. Link-local
    /// (cloud metadata), multicast, documentation and reserved addresses stay refused.
    pub allow_private_networks: bool,
    /// Exact socket addresses allowed whatever the rules say, for bare-IP addresses only (names
    /// always follow the rules). Not a setting: tests use it to reach one fixture server while
    /// every other address follows production rules.
    pub trusted: Vec<SocketAddr>,
}

/// Why an address is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// Loopback, private or shared (CGNAT) networks: refused unless private networks are allowed.
    Private(&'static str),
    /// Never reachable from here, whatever the settings.
    Reserved(&'static str),
}

impl Refusal {
    pub fn describe(self) -> &'static str {
        match self {
            Self::Private(what) | Self::Reserved(what) => what,
        }
    }
}

/// Classifies an IP address; `None` means a public unicast address.
pub fn classify(ip: IpAddr) -> Option<Refusal> {
    match ip {
        IpAddr::V4(v4) => classify_v4(v4),
        IpAddr::V6(v6) => classify_v6(v6),
    }
}

fn classify_v4(ip: Ipv4Addr) -> Option<Refusal> {
    let [a, b, c, _] = ip.octets();
    use Refusal::{Private, Reserved};
    Some(match (a, b, c) {
        (0, _, _) => Reserved("the unspecified network 0.0.0.0/8"),
        (127, _, _) => Private("loopback"),
        (10, _, _) => Private("a private network (10.0.0.0/8)"),
        (172, 16..=31, _) => Private("a private network (172.16.0.0/12)"),
        (192, 168, _) => Private("a private network (192.168.0.0/16)"),
        (100, 64..=127, _) => Private("shared address space (100.64.0.0/10, CGNAT)"),
        (169, 254, _) => Reserved("link-local (169.254.0.0/16, cloud metadata)"),
        (192, 0, 0) => Reserved("IETF protocol assignments (192.0.0.0/24)"),
        (192, 0, 2) | (198, 51, 100) | (203, 0, 113) => Reserved("a documentation network"),
        (198, 18..=19, _) => Reserved("the benchmarking network (198.18.0.0/15)"),
        (224..=239, _, _) => Reserved("multicast"),
        (240..=255, _, _) => Reserved("reserved (240.0.0.0/4) or broadcast"),
        _ => return None,
    })
}

fn classify_v6(ip: Ipv6Addr) -> Option<Refusal> {
    use Refusal::{Private, Reserved};
    if ip.is_unspecified() {
        return Some(Reserved("the unspecified address ::"));
    }
    if ip.is_loopback() {
        return Some(Private("loopback"));
    }
    let segments = ip.segments();
    // IPv4-mapped (::ffff:a.b.c.d) and IPv4-compatible (::a.b.c.d) forms are judged by the IPv4
    // address inside, and refused outright when that one is refused.
    if let Some(v4) = ip.to_ipv4_mapped() {
        return Some(classify_v4(v4).unwrap_or(Reserved("an IPv4-mapped IPv6 address")));
    }
    if segments[..6] == [0, 0, 0, 0, 0, 0] {
        return Some(Reserved("an IPv4-compatible IPv6 address"));
    }
    // SIIT's IPv4-translated form (::ffff:0:a.b.c.d, RFC 2765) reaches the IPv4 address inside
    // through a translator: never a destination of ours.
    if segments[..6] == [0, 0, 0, 0, 0xffff, 0] {
        return Some(Reserved("an IPv4-translated IPv6 address (::ffff:0:0/96)"));
    }
    match segments[0] {
        0xfc00..=0xfdff => Some(Private("an IPv6 unique-local network (fc00::/7)")),
        0xfe80..=0xfebf => Some(Reserved("IPv6 link-local (fe80::/10)")),
        0xfec0..=0xfeff => Some(Reserved("IPv6 site-local (fec0::/10)")),
        0xff00..=0xffff => Some(Reserved("IPv6 multicast")),
        0x2001 if segments[1] == 0x0db8 => Some(Reserved("the IPv6 documentation network (2001:db8::/32)")),
        // Teredo tunnels hide an IPv4 address we cannot check.
        0x2001 if segments[1] == 0 => Some(Reserved("a Teredo address (2001::/32)")),
        // 6to4 and NAT64 carry an IPv4 address: judged by it.
        0x2002 => {
            let v4 = Ipv4Addr::new((segments[1] >> 8) as u8, segments[1] as u8, (segments[2] >> 8) as u8, segments[2] as u8);
            classify_v4(v4).map(|_| Reserved("a 6to4 address around a non-public IPv4 address"))
        }
        // Local-use NAT64 (RFC 8215) leads into a network of its operator's choosing.
        0x0064 if segments[1] == 0xff9b && segments[2] == 1 => Some(Reserved("local-use NAT64 (64:ff9b:1::/48)")),
        // The well-known NAT64 prefix is a /96; anything else under 64:ff9b::/32 is unassigned.
        0x0064 if segments[1] == 0xff9b && segments[2..6] != [0, 0, 0, 0] => Some(Reserved("an unassigned NAT64 range")),
        0x0064 if segments[1] == 0xff9b => {
            let v4 = Ipv4Addr::new((segments[6] >> 8) as u8, segments[6] as u8, (segments[7] >> 8) as u8, segments[7] as u8);
            classify_v4(v4).map(|_| Reserved("a NAT64 address around a non-public IPv4 address"))
        }
        0x0100 if segments[1..4] == [0, 0, 0] => Some(Reserved("the IPv6 discard prefix (100::/64)")),
        _ => None,
    }
}

impl AddressPolicy {
    /// The production rules: public unicast addresses only.
    pub fn production() -> Self {
        Self::default()
    }

    /// `Err` with a description when `addr` may not be reached.
    pub fn check(&self, addr: SocketAddr) -> Result<(), String> {
        if self.trusted.contains(&addr) {
            return Ok(());
        }
        match classify(addr.ip()) {
            None => Ok(()),
            Some(Refusal::Private(_)) if self.allow_private_networks => Ok(()),
            Some(refusal) => Err(format!("{} is {}", addr.ip(), refusal.describe())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(ip: &str) -> bool {
        AddressPolicy::production().check(SocketAddr::new(ip.parse().unwrap(), 80)).is_err()
    }

    #[test]
    fn production_refuses_every_non_public_range() {
        for ip in [
            "127.0.0.1",
            "127.9.9.9",
            "10.0.0.1",
            "172.16.0.1",
            "172.31.255.255",
            "192.168.1.1",
            "169.254.169.254",
            "100.64.0.1",
            "0.0.0.0",
            "224.0.0.1",
            "255.255.255.255",
            "192.0.2.1",
            "198.51.100.7",
            "203.0.113.9",
            "198.18.0.1",
            "::1",
            "::",
            "::ffff:127.0.0.1",
            "::ffff:10.0.0.1",
            "::ffff:8.8.8.8",
            "::127.0.0.1",
            "fc00::1",
            "fd12:3456::1",
            "fe80::1",
            "ff02::1",
            "2001:db8::1",
            "2002:7f00:1::",
            "64:ff9b::a00:1",
            "2001::1",
            "::ffff:0:808:808",
            "::ffff:0:7f00:1",
            "64:ff9b:1::808:808",
            "64:ff9b:1:ffff::1",
            "64:ff9b:2::808:808",
        ] {
            assert!(refused(ip), "{ip} must be refused");
        }
        for ip in ["8.8.8.8", "93.184.216.34", "172.32.0.1", "100.128.0.1", "2606:4700::1111", "2002:808:808::", "64:ff9b::808:808"] {
            assert!(!refused(ip), "{ip} is public");
        }
    }

    #[test]
    fn allowing_private_networks_never_allows_metadata_or_multicast() {
        let policy = AddressPolicy { allow_private_networks: true, trusted: vec![] };
        for ip in ["127.0.0.1", "10.0.0.1", "192.168.0.10", "::1", "fd00::1", "::ffff:127.0.0.1"] {
            assert!(policy.check(SocketAddr::new(ip.parse().unwrap(), 80)).is_ok(), "{ip}");
        }
        for ip in ["169.254.169.254", "fe80::1", "224.0.0.1", "0.0.0.0", "::ffff:169.254.169.254"] {
            assert!(policy.check(SocketAddr::new(ip.parse().unwrap(), 80)).is_err(), "{ip}");
        }
    }

    #[test]
    fn trusted_addresses_are_exact() {
        let trusted: SocketAddr = "127.0.0.1:4000".parse().unwrap();
        let policy = AddressPolicy { allow_private_networks: false, trusted: vec![trusted] };
        assert!(policy.check(trusted).is_ok());
        assert!(policy.check("127.0.0.1:4001".parse().unwrap()).is_err());
    }
}
