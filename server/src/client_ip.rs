//! The client address of a request, as the throttles see it ([`crate::auth_throttle`], the
//! portal's sign-in throttle).
//!
//! Without trusted proxies (the default) it is the TCP peer, and `Forwarded` /
//! `X-Forwarded-For` are ignored: any client can write them. Behind a reverse proxy every
//! request's peer is the proxy, so the operator lists the proxies (`--trusted-proxy ADDR` or
//! `ADDR/BITS`, repeated or comma-separated; `ALAMA_TRUSTED_PROXIES`). When the peer is listed,
//! the forwarding header is read from the right (the hop the proxy added) leftwards, skipping
//! listed proxies; the first address not listed is the client (the rightmost-untrusted rule:
//! entries left of it were written by the client and prove nothing). `Forwarded` (RFC 7239,
//! its `for=` parameters) is used when present, else `X-Forwarded-For`; several header lines
//! count as one list in order. When a hop is not an address (`unknown`, an obfuscated
//! identifier, garbage), the last trusted hop seen is taken for the client: a proxy that does
//! not know its client is throttled as that client, rather than a forged value being believed.
//!
//! For throttling, an IPv6 client is counted by its /64 (one subscriber's prefix: a host that
//! owns a /64 could otherwise pick a new address for every attempt), and an IPv4-mapped IPv6
//! address as its IPv4 address ([`throttle_key`]).

use std::net::{IpAddr, Ipv6Addr};

use axum::http::HeaderMap;
use ipnet::IpNet;

/// The client address of a request, set by the request middleware ([`crate::router`]) from the
/// peer and, when the peer is a trusted proxy, the forwarding headers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClientIp(pub IpAddr);

/// Parses one `--trusted-proxy` value: an address (`10.0.0.7`, `::1`) or a CIDR block
/// (`10.0.0.0/8`, `fd00::/8`).
///
/// # Errors
/// A message naming the value when it is neither.
pub fn parse_proxy(text: &str) -> Result<IpNet, String> {
    let text = text.trim();
    text.parse::<IpNet>()
        .or_else(|_| text.parse::<IpAddr>().map(IpNet::from))
        .map_err(|_| {
            format!("{text:?} is not an IP address or CIDR block (e.g. 10.0.0.7 or 10.0.0.0/8)")
        })
}

/// The client of a request whose TCP peer is `peer`, given the `trusted` proxies (see the
/// module documentation for the rules).
pub fn client_ip(peer: IpAddr, headers: &HeaderMap, trusted: &[IpNet]) -> IpAddr {
    let is_trusted = |ip: IpAddr| trusted.iter().any(|net| net.contains(&canonical(ip)));
    if !is_trusted(peer) {
        return peer;
    }
    let hops = forwarded_for(headers).unwrap_or_else(|| x_forwarded_for(headers));
    let mut client = peer;
    for hop in hops.iter().rev() {
        let Some(ip) = hop else {
            return client;
        };
        client = *ip;
        if !is_trusted(client) {
            return client;
        }
    }
    client
}

/// The address the throttles count `ip` under: IPv4 as is (also when IPv4-mapped), IPv6 by its
/// /64 network.
pub fn throttle_key(ip: IpAddr) -> IpAddr {
    match canonical(ip) {
        IpAddr::V6(v6) => {
            let bits = u128::from(v6) & !(u128::from(u64::MAX));
            IpAddr::V6(Ipv6Addr::from(bits))
        }
        v4 @ IpAddr::V4(_) => v4,
    }
}

fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
        IpAddr::V4(_) => ip,
    }
}

/// The `for=` hops of every `Forwarded` line, in order (`None` for a hop that is not an
/// address); `None` when there is no `Forwarded` header.
fn forwarded_for(headers: &HeaderMap) -> Option<Vec<Option<IpAddr>>> {
    let mut lines = headers.get_all("forwarded").iter().peekable();
    lines.peek()?;
    let mut hops = Vec::new();
    for line in lines {
        let Ok(text) = line.to_str() else {
            hops.push(None);
            continue;
        };
        for element in text.split(',') {
            let value = element.split(';').find_map(|pair| {
                let (name, value) = pair.split_once('=')?;
                name.trim()
                    .eq_ignore_ascii_case("for")
                    .then(|| value.trim())
            });
            // An element without `for=` says nothing about the client: not a hop.
            if let Some(value) = value {
                hops.push(parse_node(value.trim_matches('"')));
            }
        }
    }
    Some(hops)
}

/// The hops of every `X-Forwarded-For` line, in order.
fn x_forwarded_for(headers: &HeaderMap) -> Vec<Option<IpAddr>> {
    let mut hops = Vec::new();
    for line in headers.get_all("x-forwarded-for") {
        match line.to_str() {
            Ok(text) => hops.extend(text.split(',').map(|hop| parse_node(hop.trim()))),
            Err(_) => hops.push(None),
        }
    }
    hops
}

/// An address with or without a port: `192.0.2.1`, `192.0.2.1:4711`, `2001:db8::1`,
/// `[2001:db8::1]`, `[2001:db8::1]:4711`.
fn parse_node(text: &str) -> Option<IpAddr> {
    if let Ok(ip) = text.parse::<IpAddr>() {
        return Some(ip);
    }
    if let Some(rest) = text.strip_prefix('[') {
        let (inside, _) = rest.split_once(']')?;
        return inside.parse::<Ipv6Addr>().ok().map(IpAddr::V6);
    }
    let (host, port) = text.rsplit_once(':')?;
    port.parse::<u16>().ok()?;
    host.parse::<std::net::Ipv4Addr>().ok().map(IpAddr::V4)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(*name, value.parse().expect("header value"));
        }
        map
    }

    fn ip(text: &str) -> IpAddr {
        text.parse().expect("ip")
    }

    #[test]
    fn headers_are_ignored_unless_the_peer_is_a_trusted_proxy() {
        let forged = headers(&[("x-forwarded-for", "203.0.113.9")]);
        assert_eq!(
            client_ip(ip("198.51.100.1"), &forged, &[]),
            ip("198.51.100.1")
        );
        let trusted = [parse_proxy("10.0.0.0/8").expect("cidr")];
        assert_eq!(
            client_ip(ip("198.51.100.1"), &forged, &trusted),
            ip("198.51.100.1")
        );
        assert_eq!(
            client_ip(ip("10.1.2.3"), &forged, &trusted),
            ip("203.0.113.9")
        );
    }

    #[test]
    fn the_rightmost_untrusted_hop_is_the_client() {
        let trusted = [
            parse_proxy("10.0.0.1").expect("ip"),
            parse_proxy("fd00::/8").expect("cidr"),
        ];
        // The client forged the leftmost entry; the proxy appended the real one.
        let h = headers(&[("x-forwarded-for", "1.2.3.4, 203.0.113.9")]);
        assert_eq!(client_ip(ip("10.0.0.1"), &h, &trusted), ip("203.0.113.9"));
        // Two proxies, two header lines.
        let h = headers(&[
            ("x-forwarded-for", "1.2.3.4"),
            ("x-forwarded-for", "203.0.113.9, fd00::7"),
        ]);
        assert_eq!(client_ip(ip("10.0.0.1"), &h, &trusted), ip("203.0.113.9"));
        // Forwarded wins over X-Forwarded-For; ports, brackets and quotes are read.
        let h = headers(&[
            ("x-forwarded-for", "1.2.3.4"),
            (
                "forwarded",
                "for=1.2.3.4;proto=https, For=\"[2001:db8:cafe::17]:4711\";by=10.0.0.1",
            ),
        ]);
        assert_eq!(
            client_ip(ip("10.0.0.1"), &h, &trusted),
            ip("2001:db8:cafe::17")
        );
        let h = headers(&[("forwarded", "for=192.0.2.60:8080")]);
        assert_eq!(client_ip(ip("10.0.0.1"), &h, &trusted), ip("192.0.2.60"));
        // An unknown hop: the last trusted one is the client, never a forged entry left of it.
        let h = headers(&[("forwarded", "for=1.2.3.4, for=unknown")]);
        assert_eq!(client_ip(ip("10.0.0.1"), &h, &trusted), ip("10.0.0.1"));
        let h = headers(&[("x-forwarded-for", "1.2.3.4, garbage, fd00::9")]);
        assert_eq!(client_ip(ip("10.0.0.1"), &h, &trusted), ip("fd00::9"));
        // No header at all: the proxy itself.
        assert_eq!(
            client_ip(ip("10.0.0.1"), &HeaderMap::new(), &trusted),
            ip("10.0.0.1")
        );
    }

    #[test]
    fn throttle_keys_group_ipv6_by_64_and_unmap_ipv4() {
        assert_eq!(
            throttle_key(ip("2001:db8:1:2:aaaa::1")),
            ip("2001:db8:1:2::")
        );
        assert_eq!(throttle_key(ip("::ffff:192.0.2.1")), ip("192.0.2.1"));
        assert_eq!(throttle_key(ip("192.0.2.1")), ip("192.0.2.1"));
    }

    #[test]
    fn proxies_parse_as_addresses_or_blocks() {
        assert!(parse_proxy("10.0.0.7").is_ok());
        assert!(parse_proxy(" 10.0.0.0/8 ").is_ok());
        assert!(parse_proxy("::1").is_ok());
        let e = parse_proxy("proxy.local").expect_err("not an address");
        assert!(e.contains("proxy.local"), "{e}");
    }
}
