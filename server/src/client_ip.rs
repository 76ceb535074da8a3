//! The client address of a request, as the throttles see it ([`crate::auth_throttle`], the
//! portal's sign-in throttle).
//!
//! Without trusted proxies (the default) it is the TCP peer, and forwarding headers are
//! ignored: any client can write them. Behind a reverse proxy every request's peer is the
//! proxy, so the operator lists the proxies (`--trusted-proxy ADDR` or `ADDR/BITS`, repeated or
//! comma-separated; `ALAMA_TRUSTED_PROXIES`) and names the one header they set
//! (`--client-ip-header`, default `X-Forwarded-For`; [`ClientIpHeader`]). When the peer is
//! listed, that header alone is read, from the right (the hop the nearest proxy added)
//! leftwards, skipping listed proxies; the first address not listed is the client (the
//! rightmost-untrusted rule of nginx's `real_ip_recursive` and Envoy's `xff_num_trusted_hops`:
//! entries left of it were written by the client and prove nothing). Several lines of the
//! header count as one list in order. `Forwarded` (RFC 7239, its `for=` parameters) is read
//! only when it is the configured header: before issue 52 it was preferred whenever present,
//! and a proxy that appends `X-Forwarded-For` (nginx's default) but passes the client's own
//! `Forwarded` through let any client choose its address. When a hop is not an address
//! (`unknown`, an obfuscated identifier, garbage), the last trusted hop seen is taken for the
//! client: a proxy that does not know its client is throttled as that client, rather than a
//! forged value being believed.
//!
//! For throttling, an IPv6 client is counted by its /64 (one subscriber's prefix: a host that
//! owns a /64 could otherwise pick a new address for every attempt), and an IPv4-mapped IPv6
//! address as its IPv4 address ([`throttle_key`]).

use std::net::{IpAddr, Ipv6Addr};

use axum::http::{HeaderMap, HeaderName};
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

/// The header a trusted proxy writes the client's address into (`--client-ip-header NAME`,
/// `ALAMA_CLIENT_IP_HEADER`): `X-Forwarded-For` by default (nginx's
/// `$proxy_add_x_forwarded_for`, `HAProxy`'s `option forwardfor`, Envoy, cloud load balancers);
/// `Forwarded` (RFC 7239, its `for=` parameters); or any other header holding addresses
/// separated by commas, such as `X-Real-IP` (nginx's `$remote_addr`) or `CF-Connecting-IP`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientIpHeader(HeaderName);

impl Default for ClientIpHeader {
    fn default() -> Self {
        Self(HeaderName::from_static("x-forwarded-for"))
    }
}

impl ClientIpHeader {
    /// Parses a `--client-ip-header` value: a header name, in any case.
    ///
    /// # Errors
    /// A message naming the value when it is not a valid header name.
    pub fn parse(text: &str) -> Result<Self, String> {
        HeaderName::from_bytes(text.trim().as_bytes())
            .map(Self)
            .map_err(|_| format!("{text:?} is not a header name (e.g. X-Forwarded-For)"))
    }

    /// The header's name, lowercase.
    pub fn name(&self) -> &str {
        self.0.as_str()
    }

    /// The hops of the header's lines in `headers`, in order (`None` for a hop that is not an
    /// address).
    fn hops(&self, headers: &HeaderMap) -> Vec<Option<IpAddr>> {
        if self.0 == axum::http::header::FORWARDED {
            forwarded_for(headers)
        } else {
            address_list(headers.get_all(&self.0))
        }
    }
}

/// The client of a request whose TCP peer is `peer`, given the `trusted` proxies and the
/// `header` they write the client into (see the module documentation for the rules).
pub fn client_ip(
    peer: IpAddr,
    headers: &HeaderMap,
    trusted: &[IpNet],
    header: &ClientIpHeader,
) -> IpAddr {
    let is_trusted = |ip: IpAddr| trusted.iter().any(|net| net.contains(&canonical(ip)));
    if !is_trusted(peer) {
        return peer;
    }
    let mut client = peer;
    for hop in header.hops(headers).iter().rev() {
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
/// address).
fn forwarded_for(headers: &HeaderMap) -> Vec<Option<IpAddr>> {
    let mut hops = Vec::new();
    for line in &headers.get_all(axum::http::header::FORWARDED) {
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
    hops
}

/// The hops of every line of a comma-separated address header (`X-Forwarded-For`'s syntax), in
/// order.
fn address_list(
    lines: axum::http::header::GetAll<'_, axum::http::HeaderValue>,
) -> Vec<Option<IpAddr>> {
    let mut hops = Vec::new();
    for line in lines {
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

    fn header(name: &str) -> ClientIpHeader {
        ClientIpHeader::parse(name).expect("header name")
    }

    #[test]
    fn headers_are_ignored_unless_the_peer_is_a_trusted_proxy() {
        let xff = ClientIpHeader::default();
        let forged = headers(&[("x-forwarded-for", "203.0.113.9")]);
        assert_eq!(
            client_ip(ip("198.51.100.1"), &forged, &[], &xff),
            ip("198.51.100.1")
        );
        let trusted = [parse_proxy("10.0.0.0/8").expect("cidr")];
        assert_eq!(
            client_ip(ip("198.51.100.1"), &forged, &trusted, &xff),
            ip("198.51.100.1")
        );
        assert_eq!(
            client_ip(ip("10.1.2.3"), &forged, &trusted, &xff),
            ip("203.0.113.9")
        );
    }

    /// The set-ups of issue 52's probe and the common ones around them: each proxy writes one
    /// header, and whatever else the client sent is its own writing.
    #[test]
    fn common_proxy_setups_give_the_real_client() {
        let nginx = [parse_proxy("10.0.0.1").expect("ip")];
        let xff = ClientIpHeader::default();
        // nginx, `proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for` (its documented
        // default): the client's own X-Forwarded-For kept on the left, the real peer appended;
        // the client's own `Forwarded` passed through untouched. Before issue 52 `Forwarded`
        // won, so any client chose its address.
        let h = headers(&[
            ("x-forwarded-for", "198.51.100.66, 203.0.113.9"),
            ("forwarded", "for=198.51.100.77"),
        ]);
        assert_eq!(
            client_ip(ip("10.0.0.1"), &h, &nginx, &xff),
            ip("203.0.113.9")
        );
        // nginx, `proxy_set_header X-Real-IP $remote_addr` (a replaced, single value): the
        // client's own X-Forwarded-For means nothing.
        let real_ip = header("X-Real-IP");
        let h = headers(&[
            ("x-real-ip", "203.0.113.9"),
            ("x-forwarded-for", "198.51.100.66"),
        ]);
        assert_eq!(
            client_ip(ip("10.0.0.1"), &h, &nginx, &real_ip),
            ip("203.0.113.9")
        );
        // HAProxy `option forwardfor`: a header line of its own after the client's.
        let h = headers(&[
            ("x-forwarded-for", "198.51.100.66"),
            ("x-forwarded-for", "203.0.113.9"),
        ]);
        assert_eq!(
            client_ip(ip("10.0.0.1"), &h, &nginx, &xff),
            ip("203.0.113.9")
        );
        // Two proxies (a load balancer, then nginx), both listed: each appended its peer.
        let two = [
            parse_proxy("10.0.0.1").expect("ip"),
            parse_proxy("fd00::/8").expect("cidr"),
        ];
        let h = headers(&[("x-forwarded-for", "1.2.3.4, 203.0.113.9, fd00::7")]);
        assert_eq!(client_ip(ip("10.0.0.1"), &h, &two, &xff), ip("203.0.113.9"));
        // The outer proxy not listed: its address is the client (the walk never trusts more
        // hops than the operator listed).
        assert_eq!(client_ip(ip("10.0.0.1"), &h, &nginx, &xff), ip("fd00::7"));
        // A proxy that writes RFC 7239 (`--client-ip-header Forwarded`): ports, brackets and
        // quotes are read, and X-Forwarded-For, the client's own, is ignored.
        let forwarded = header("Forwarded");
        let h = headers(&[
            ("x-forwarded-for", "198.51.100.66"),
            (
                "forwarded",
                "for=1.2.3.4;proto=https, For=\"[2001:db8:cafe::17]:4711\";by=10.0.0.1",
            ),
        ]);
        assert_eq!(
            client_ip(ip("10.0.0.1"), &h, &nginx, &forwarded),
            ip("2001:db8:cafe::17")
        );
        let h = headers(&[("forwarded", "for=192.0.2.60:8080")]);
        assert_eq!(
            client_ip(ip("10.0.0.1"), &h, &nginx, &forwarded),
            ip("192.0.2.60")
        );
        // Cloudflare's CF-Connecting-IP (the edge listed as the proxies).
        let cf = header("cf-connecting-ip");
        let h = headers(&[
            ("cf-connecting-ip", "2001:db8::5"),
            ("x-forwarded-for", "1.2.3.4"),
        ]);
        assert_eq!(
            client_ip(ip("10.0.0.1"), &h, &nginx, &cf),
            ip("2001:db8::5")
        );
    }

    #[test]
    fn unknown_hops_and_missing_headers_stop_at_the_last_trusted_hop() {
        let trusted = [
            parse_proxy("10.0.0.1").expect("ip"),
            parse_proxy("fd00::/8").expect("cidr"),
        ];
        let forwarded = header("forwarded");
        let h = headers(&[("forwarded", "for=1.2.3.4, for=unknown")]);
        assert_eq!(
            client_ip(ip("10.0.0.1"), &h, &trusted, &forwarded),
            ip("10.0.0.1")
        );
        let xff = ClientIpHeader::default();
        let h = headers(&[("x-forwarded-for", "1.2.3.4, garbage, fd00::9")]);
        assert_eq!(client_ip(ip("10.0.0.1"), &h, &trusted, &xff), ip("fd00::9"));
        // No header at all, or only another one: the proxy itself.
        assert_eq!(
            client_ip(ip("10.0.0.1"), &HeaderMap::new(), &trusted, &xff),
            ip("10.0.0.1")
        );
        let h = headers(&[("forwarded", "for=198.51.100.77")]);
        assert_eq!(
            client_ip(ip("10.0.0.1"), &h, &trusted, &xff),
            ip("10.0.0.1")
        );
    }

    #[test]
    fn header_names_parse() {
        assert_eq!(header("X-Forwarded-For"), ClientIpHeader::default());
        assert_eq!(header(" Forwarded ").name(), "forwarded");
        let e = ClientIpHeader::parse("not a header").expect_err("space");
        assert!(e.contains("not a header"), "{e}");
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
