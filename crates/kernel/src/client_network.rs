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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ipv4_is_itself_and_ipv6_its_64() {
        let at = |text: &str| client_network(text.parse().unwrap()).to_string();
        assert_eq!(at("203.0.113.9"), "203.0.113.9");
        assert_eq!(at("::ffff:203.0.113.9"), "203.0.113.9");
        assert_eq!(at("2001:db8:1:2:aaaa::7"), "2001:db8:1:2::");
        assert_eq!(at("2001:db8:1:2::8"), "2001:db8:1:2::");
    }
}
