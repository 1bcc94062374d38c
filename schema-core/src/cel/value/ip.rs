//! `net.IP` and `net.CIDR`, the values of the Kubernetes IP and CIDR
//! libraries (`library/ip.go`, `library/cidr.go`): `netip` parsing (no zones, no IPv4-mapped IPv6).

use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// An IP address.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ip(pub IpAddr);

/// A CIDR: an address and a prefix length.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cidr {
    /// The address as written.
    pub addr: IpAddr,
    /// The prefix length.
    pub bits: u8,
}

impl fmt::Display for Ip {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl fmt::Display for Cidr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.addr, self.bits)
    }
}

/// `netip.ParseAddr` as the library uses it.
pub(crate) fn parse_addr(s: &str) -> Result<IpAddr, String> {
    if s.contains('%') {
        return Err("IP address with zone value is not allowed".into());
    }
    if s.contains(':') {
        let a: Ipv6Addr = s.parse().map_err(|_| {
            format!(
                "ParseAddr({}): unable to parse IP",
                crate::go::fmt::go_quote(s)
            )
        })?;
        if a.to_ipv4_mapped().is_some() {
            return Err("IPv4-mapped IPv6 address is not allowed".into());
        }
        Ok(IpAddr::V6(a))
    } else {
        let a: Ipv4Addr = s.parse().map_err(|_| {
            format!(
                "ParseAddr({}): unable to parse IP",
                crate::go::fmt::go_quote(s)
            )
        })?;
        Ok(IpAddr::V4(a))
    }
}

pub(crate) fn parse_cidr(s: &str) -> Result<Cidr, String> {
    let Some((a, b)) = s.rsplit_once('/') else {
        return Err(format!(
            "netip.ParsePrefix({}): no '/'",
            crate::go::fmt::go_quote(s)
        ));
    };
    let addr = parse_addr(a)?;
    let max = if addr.is_ipv4() { 32 } else { 128 };
    let bits: u8 = if !b.is_empty()
        && b.bytes().all(|c| c.is_ascii_digit())
        && (b == "0" || !b.starts_with('0'))
    {
        b.parse().map_err(|_| "bad bits".to_string())?
    } else {
        return Err(format!(
            "netip.ParsePrefix({}): bad bits after slash: {}",
            crate::go::fmt::go_quote(s),
            crate::go::fmt::go_quote(b)
        ));
    };
    if bits > max {
        return Err(format!(
            "netip.ParsePrefix({}): prefix length out of range",
            crate::go::fmt::go_quote(s)
        ));
    }
    Ok(Cidr { addr, bits })
}

fn bits_of(a: &IpAddr) -> u128 {
    match a {
        IpAddr::V4(v) => u128::from(u32::from(*v)),
        IpAddr::V6(v) => u128::from(*v),
    }
}

/// The CIDR with the host bits cleared.
pub(crate) fn masked(c: &Cidr) -> Cidr {
    let width = if c.addr.is_ipv4() { 32 } else { 128 };
    let v = bits_of(&c.addr);
    let keep = u32::from(c.bits);
    let mask: u128 = if keep == 0 {
        0
    } else {
        (!0u128 << (width - keep)) & if width == 32 { 0xFFFF_FFFF } else { !0u128 }
    };
    let m = v & mask;
    let addr = if c.addr.is_ipv4() {
        IpAddr::V4(Ipv4Addr::from(m as u32))
    } else {
        IpAddr::V6(Ipv6Addr::from(m))
    };
    Cidr { addr, bits: c.bits }
}

/// Whether the CIDR contains the address.
pub(crate) fn contains(c: &Cidr, ip: &IpAddr) -> bool {
    if c.addr.is_ipv4() != ip.is_ipv4() {
        return false;
    }
    let m = masked(c);
    masked(&Cidr {
        addr: *ip,
        bits: c.bits,
    })
    .addr
        == m.addr
}
