//! Who a client is, for anything counted per client (rate limits, sign-in failures, page
//! views): an IPv4 address itself (also when written as IPv6, `::ffff:192.0.2.1`), an IPv6
//! address by its /64, since one subscriber usually holds a whole /64 and could otherwise take
//! a new address per request.

use std::net::{IpAddr, Ipv6Addr};

/// The network `address` is counted as.
pub fn client_network(address: IpAddr) -> IpAddr {
    match address {
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => IpAddr::V6(Ipv6Addr::from(u128::from(v6) & (u128::MAX << 64))),
        },
        v4 => v4,
    }
}

/// The key a client is counted under, by its network: `ip:203.0.113.7`, `ip:2001:db8:1:2::/64`.
pub fn client_key(address: IpAddr) -> String {
    match client_network(address) {
        IpAddr::V4(v4) => format!("ip:{v4}"),
        IpAddr::V6(network) => format!("ip:{network}/64"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    #[test]
    fn ipv6_clients_are_counted_by_their_64() {
        assert_eq!(client_key(ip("2001:db8:1:2:aaaa::1")), client_key(ip("2001:db8:1:2:bbbb::2")));
        assert_ne!(client_key(ip("2001:db8:1:2::1")), client_key(ip("2001:db8:1:3::1")));
        assert_eq!(client_key(ip("203.0.113.7")), "ip:203.0.113.7");
        assert_eq!(client_key(ip("::ffff:203.0.113.7")), "ip:203.0.113.7");
    }

    #[test]
    fn ipv4_is_itself_and_ipv6_its_64() {
        let at = |text: &str| client_network(text.parse().unwrap()).to_string();
        assert_eq!(at("203.0.113.9"), "203.0.113.9");
        assert_eq!(at("::ffff:203.0.113.9"), "203.0.113.9");
        assert_eq!(at("2001:db8:1:2:aaaa::7"), "2001:db8:1:2::");
        assert_eq!(at("2001:db8:1:2::8"), "2001:db8:1:2::");
    }
}
