//! Which IP addresses the proxy may connect to: public unicast only. Private, loopback,
//! link-local, unspecified, shared (CGNAT), documentation, benchmarking, multicast and
//! reserved ranges are refused, and IPv6 forms embedding an IPv4 address are judged by it
//! (IPv4-mapped, IPv4-compatible, NAT64 well-known prefix); NAT64's local-use prefix and
//! IPv4-translated addresses are never public.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

pub(crate) fn is_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => is_public_v4(v4),
        IpAddr::V6(v6) => is_public_v6(v6),
    }
}

fn is_public_v4(ip: Ipv4Addr) -> bool {
    let [a, b, c, _] = ip.octets();
    !(a == 0                                   // "this network", 0.0.0.0
        || a == 10                             // private
        || a == 127                            // loopback
        || (a == 100 && (64..128).contains(&b)) // shared address space (CGNAT)
        || (a == 169 && b == 254)              // link-local (cloud metadata)
        || (a == 172 && (16..32).contains(&b)) // private
        || (a == 192 && b == 0 && c == 0)      // IETF protocol assignments
        || (a == 192 && b == 0 && c == 2)      // documentation
        || (a == 192 && b == 88 && c == 99)    // 6to4 relay anycast
        || (a == 192 && b == 168)              // private
        || (a == 198 && (18..20).contains(&b)) // benchmarking
        || (a == 198 && b == 51 && c == 100)   // documentation
        || (a == 203 && b == 0 && c == 113)    // documentation
        || a >= 224) // multicast, reserved, broadcast
}

fn is_public_v6(ip: Ipv6Addr) -> bool {
    if let Some(v4) = ip.to_ipv4_mapped() {
        return is_public_v4(v4);
    }
    let s = ip.segments();
    // IPv4-compatible (::a.b.c.d) and NAT64 (64:ff9b::/96) carry an IPv4 address.
    if s[..6] == [0, 0, 0, 0, 0, 0] || s[..6] == [0x64, 0xff9b, 0, 0, 0, 0] {
        let v4 = Ipv4Addr::new((s[6] >> 8) as u8, s[6] as u8, (s[7] >> 8) as u8, s[7] as u8);
        return !ip.is_unspecified() && !ip.is_loopback() && is_public_v4(v4);
    }
    !(ip.is_unspecified()
        || ip.is_loopback()
        || s[..3] == [0x64, 0xff9b, 1] // NAT64 local use (64:ff9b:1::/48): translated locally
        || s[..6] == [0, 0, 0, 0, 0xffff, 0] // IPv4-translated (::ffff:0:0:0/96)
        || s[..4] == [0x100, 0, 0, 0] // discard-only (100::/64)
        || ip.is_multicast()
        || (s[0] & 0xfe00) == 0xfc00 // unique local
        || (s[0] & 0xffc0) == 0xfe80 // link-local
        || (s[0] & 0xffc0) == 0xfec0 // site-local (deprecated)
        || (s[0] == 0x2001 && s[1] == 0x0db8) // documentation
        || s[0] == 0x2002 // 6to4: may embed anything
        || (s[0] == 0x2001 && s[1] == 0)) // Teredo
}

#[cfg(test)]
mod tests {
    use super::is_public;

    #[test]
    fn classification() {
        for private in [
            "127.0.0.1",
            "127.1.2.3",
            "0.0.0.0",
            "10.0.0.1",
            "172.16.0.1",
            "172.31.255.255",
            "192.168.1.1",
            "169.254.169.254",
            "100.64.0.1",
            "224.0.0.1",
            "255.255.255.255",
            "192.0.2.1",
            "198.18.0.1",
            "::1",
            "::",
            "fc00::1",
            "fd12:3456::1",
            "fe80::1",
            "::ffff:127.0.0.1",
            "::ffff:169.254.169.254",
            "::127.0.0.1",
            "64:ff9b::10.0.0.1",
            "ff02::1",
            "2001:db8::1",
            "2002:7f00:1::",
            "64:ff9b:1::8.8.8.8",
            "64:ff9b:1:ffff::1",
            "::ffff:0:8.8.8.8",
            "::ffff:0:127.0.0.1",
            "100::1",
        ] {
            assert!(!is_public(private.parse().unwrap()), "{private}");
        }
        for public in
            ["93.184.216.34", "1.1.1.1", "172.32.0.1", "2606:4700::1111", "::ffff:8.8.8.8"]
        {
            assert!(is_public(public.parse().unwrap()), "{public}");
        }
    }
}
