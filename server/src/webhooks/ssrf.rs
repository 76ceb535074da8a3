//! Refusing webhook URLs that point into the service's own network: loopback, private,
//! link-local, unspecified, multicast, shared (CGNAT) and documentation addresses, checked on the
//! URL at registration and on every resolved address before each delivery (the delivery then
//! connects to the checked address, so DNS cannot change it in between).

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};

/// Why a URL is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UrlError {
    /// Not an absolute `http://` or `https://` URL with a host.
    #[error("not an http(s) URL with a host: {0}")]
    Invalid(String),
    /// The host resolves to an address the service does not call.
    #[error("{0} is a loopback, private or link-local address")]
    Private(IpAddr),
    /// The host did not resolve.
    #[error("cannot resolve {0}")]
    Unresolved(String),
}

/// Whether `ip` is an address webhooks must not reach.
pub fn is_private(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => private_v4(v4),
        IpAddr::V6(v6) => {
            if let Some(v4) = embedded_v4(v6) {
                return private_v4(v4);
            }
            let first = v6.segments()[0];
            let second = v6.segments()[1];
            v6.is_loopback()
                || v6.is_unspecified()
                || v6.is_multicast()
                || (first & 0xfe00) == 0xfc00 // unique local fc00::/7
                || (first & 0xffc0) == 0xfe80 // link-local fe80::/10
                || (first == 0x2001 && second == 0x0db8) // documentation
                || (first == 0x2001 && second == 0) // Teredo 2001::/32 (tunnels to any IPv4)
                || (first == 0x0064 && second == 0xff9b) // local-use NAT64 64:ff9b:1::/48
                || v6 == Ipv6Addr::LOCALHOST
        }
    }
}

/// The IPv4 address an IPv6 address stands for, in the forms that reach IPv4 hosts:
/// IPv4-mapped `::ffff:a.b.c.d`, SIIT `::ffff:0:a.b.c.d`, IPv4-compatible `::a.b.c.d`
/// (deprecated, still routed by some stacks), NAT64 `64:ff9b::a.b.c.d` (RFC 6052) and 6to4
/// `2002:AABB:CCDD::/48` (RFC 3056). `::` and `::1` are not IPv4-compatible addresses.
fn embedded_v4(v6: Ipv6Addr) -> Option<Ipv4Addr> {
    if let Some(v4) = v6.to_ipv4_mapped() {
        return Some(v4);
    }
    let (high, low) = match v6.segments() {
        [0, 0, 0, 0, 0, 0, high, low] if (high, low) != (0, 0) && (high, low) != (0, 1) => {
            (high, low)
        }
        [0, 0, 0, 0, 0xffff, 0, high, low]
        | [0x0064, 0xff9b, 0, 0, 0, 0, high, low]
        | [0x2002, high, low, ..] => (high, low),
        _ => return None,
    };
    let [o1, o2] = high.to_be_bytes();
    let [o3, o4] = low.to_be_bytes();
    Some(Ipv4Addr::new(o1, o2, o3, o4))
}

fn private_v4(v4: Ipv4Addr) -> bool {
    let [a, b, ..] = v4.octets();
    v4.is_loopback()
        || v4.is_private()
        || v4.is_link_local()
        || v4.is_unspecified()
        || v4.is_broadcast()
        || v4.is_multicast()
        || v4.is_documentation()
        || a == 0
        || (a == 100 && (64..128).contains(&b)) // shared address space 100.64.0.0/10
        || (a == 198 && (b == 18 || b == 19)) // benchmarking
        || a >= 240
}

/// The scheme, host and port of `url`.
///
/// # Errors
/// [`UrlError::Invalid`] unless `url` is `http://` or `https://` with a host.
pub fn parse(url: &str) -> Result<(String, String, u16), UrlError> {
    let parsed = reqwest::Url::parse(url).map_err(|_| UrlError::Invalid(url.to_owned()))?;
    let scheme = parsed.scheme().to_owned();
    if scheme != "http" && scheme != "https" {
        return Err(UrlError::Invalid(url.to_owned()));
    }
    let host = parsed
        .host_str()
        .filter(|h| !h.is_empty())
        .ok_or_else(|| UrlError::Invalid(url.to_owned()))?
        .trim_start_matches('[')
        .trim_end_matches(']')
        .to_owned();
    let port = parsed
        .port_or_known_default()
        .ok_or_else(|| UrlError::Invalid(url.to_owned()))?;
    Ok((scheme, host, port))
}

/// Resolves `url`'s host and returns the address to connect to, refusing private addresses
/// unless `allow_private`.
///
/// # Errors
/// [`UrlError`].
pub async fn resolve(url: &str, allow_private: bool) -> Result<(String, SocketAddr), UrlError> {
    let (_, host, port) = parse(url)?;
    let addrs: Vec<SocketAddr> = tokio::net::lookup_host((host.as_str(), port))
        .await
        .map_err(|_| UrlError::Unresolved(host.clone()))?
        .collect();
    if !allow_private && let Some(bad) = addrs.iter().find(|a| is_private(a.ip())) {
        return Err(UrlError::Private(bad.ip()));
    }
    let first = addrs
        .first()
        .copied()
        .ok_or_else(|| UrlError::Unresolved(host.clone()))?;
    Ok((host, first))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn private_addresses_are_refused() {
        for ip in [
            "127.0.0.1",
            "10.1.2.3",
            "172.16.0.1",
            "192.168.1.1",
            "169.254.169.254",
            "0.0.0.0",
            "100.64.0.1",
            "::1",
            "fe80::1",
            "fd00::1",
            "::ffff:127.0.0.1",
            "::ffff:10.0.0.1",
            // IPv6 forms that embed a private IPv4 address (issue 12).
            "64:ff9b::7f00:1",
            "64:ff9b::a9fe:a9fe",
            "64:ff9b::10.0.0.1",
            "64:ff9b:1::1",
            "2002:7f00:1::",
            "2002:c0a8:101::1",
            "2002:a00:1::1",
            "::127.0.0.1",
            "::10.0.0.1",
            "::169.254.169.254",
            "::ffff:0:127.0.0.1",
            "2001:0:4136:e378:8000:63bf:3fff:fdd2",
        ] {
            assert!(is_private(ip.parse().expect("ip")), "{ip}");
        }
        for ip in [
            "8.8.8.8",
            "41.90.1.1",
            "2a00:1450::1",
            "2002:808:808::1",
            "64:ff9b::808:808",
        ] {
            assert!(!is_private(ip.parse().expect("ip")), "{ip}");
        }
    }

    #[tokio::test]
    async fn urls_are_checked_on_their_resolved_address() {
        assert!(matches!(
            resolve("http://127.0.0.1:9/x", false).await,
            Err(UrlError::Private(_))
        ));
        assert!(matches!(
            resolve("http://localhost:9/x", false).await,
            Err(UrlError::Private(_))
        ));
        for url in [
            "http://[64:ff9b::7f00:1]/",
            "http://[2002:7f00:1::]/",
            "http://[::127.0.0.1]/",
            "http://[::ffff:127.0.0.1]:8080/",
        ] {
            assert!(
                matches!(resolve(url, false).await, Err(UrlError::Private(_))),
                "{url}"
            );
        }
        assert!(resolve("http://127.0.0.1:9/x", true).await.is_ok());
        assert!(matches!(
            resolve("ftp://example.com/", false).await,
            Err(UrlError::Invalid(_))
        ));
    }
}
